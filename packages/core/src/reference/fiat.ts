/**
 * Supported fiat currencies with the service's per-currency purchase limits.
 *
 * `min`/`max` are read in WHOLE currency units (decisions.md: "Fiat table:
 * unit of min/max"): every row then lands near USD 50-100 minimum and
 * USD 4,000-6,000 maximum, whereas the minor-unit reading would make EUR's
 * minimum 0.50 EUR while KRW's (a 0-decimal currency) stays about USD 70.
 * `decimals` is the ISO 4217 minor-unit exponent. `minMinor`/`maxMinor` are the
 * same limits in minor units (what widget `from_amount` carries); all fit well
 * inside Number.MAX_SAFE_INTEGER.
 */
export interface FiatCurrency {
  /** ISO 4217 alphabetic code, upper case. */
  readonly code: string;
  /** ISO 4217 numeric code. */
  readonly numeric: number;
  /** English name. */
  readonly name: string;
  /** Common symbol, for display only. */
  readonly symbol: string;
  /** ISO 4217 minor-unit exponent (decimal places). */
  readonly decimals: number;
  /** Minimum purchase, whole currency units (service table). */
  readonly min: number;
  /** Maximum purchase, whole currency units (service table). */
  readonly max: number;
  /** Minimum purchase in minor units (min * 10^decimals). */
  readonly minMinor: number;
  /** Maximum purchase in minor units (max * 10^decimals). */
  readonly maxMinor: number;
}

type Row = [code: string, numeric: number, name: string, symbol: string, decimals: number, min: number, max: number];

// Order and limits exactly as the service table lists them.
const ROWS: readonly Row[] = [
  ['ARS', 32, 'Argentine Peso', '$', 2, 10300, 1400000],
  ['AMD', 51, 'Armenian Dram', '֏', 2, 50000, 3000000],
  ['AUD', 36, 'Australian Dollar', 'A$', 2, 100, 10000],
  ['AZN', 944, 'Azerbaijan Manat', '₼', 2, 150, 10000],
  ['BHD', 48, 'Bahraini Dinar', 'BD', 3, 30, 2000],
  ['BGN', 975, 'Bulgarian Lev', 'лв', 2, 150, 9000],
  ['BRL', 986, 'Brazilian Real', 'R$', 2, 500, 20000],
  ['CAD', 124, 'Canadian Dollar', 'CA$', 2, 100, 6000],
  ['CZK', 203, 'Czech Koruna', 'Kč', 2, 1500, 100000],
  ['DKK', 208, 'Danish Krone', 'kr', 2, 500, 30000],
  ['EUR', 978, 'Euro', '€', 2, 50, 5000],
  ['HKD', 344, 'Hong Kong Dollar', 'HK$', 2, 500, 500000],
  ['HUF', 348, 'Hungarian Forint', 'Ft', 2, 12000, 1800000],
  ['ILS', 376, 'Israeli New Shekel', '₪', 2, 200, 15000],
  ['INR', 356, 'Indian Rupee', '₹', 2, 5000, 400000],
  ['KZT', 398, 'Kazakhstani Tenge', '₸', 2, 40000, 2000000],
  ['MYR', 458, 'Malaysian Ringgit', 'RM', 2, 250, 20000],
  ['MDL', 498, 'Moldovan Leu', 'L', 2, 1000, 100000],
  ['TWD', 901, 'New Taiwan Dollar', 'NT$', 2, 2000, 150000],
  ['NOK', 578, 'Norwegian Krone', 'kr', 2, 600, 45000],
  ['NZD', 554, 'New Zealand Dollar', 'NZ$', 2, 100, 8000],
  ['PLN', 985, 'Polish Zloty', 'zł', 2, 300, 20000],
  ['GBP', 826, 'Pound Sterling', '£', 2, 50, 5000],
  ['RON', 946, 'Romanian Leu', 'lei', 2, 300, 20000],
  ['SAR', 682, 'Saudi Riyal', 'SR', 2, 150, 20000],
  ['KRW', 410, 'South Korean Won', '₩', 0, 100000, 20000000],
  ['SEK', 752, 'Swedish Krona', 'kr', 2, 500, 50000],
  ['CHF', 756, 'Swiss Franc', 'CHF', 2, 40, 4800],
  ['TRY', 949, 'Turkish Lira', '₺', 2, 600, 150000],
  ['UAH', 980, 'Ukrainian Hryvnia', '₴', 2, 2000, 150000],
  ['USD', 840, 'US Dollar', '$', 2, 50, 5000],
  ['VND', 704, 'Vietnamese Dong', '₫', 0, 2000000, 150000000],
];

export const FIAT_CURRENCIES: readonly FiatCurrency[] = Object.freeze(
  ROWS.map(([code, numeric, name, symbol, decimals, min, max]) =>
    Object.freeze({ code, numeric, name, symbol, decimals, min, max, minMinor: min * 10 ** decimals, maxMinor: max * 10 ** decimals }),
  ),
);

const BY_CODE = new Map(FIAT_CURRENCIES.map((c) => [c.code, c]));

/** The fiat currency with this exact (upper-case) ISO 4217 code, or undefined. */
export function findFiatCurrency(code: string): FiatCurrency | undefined {
  return BY_CODE.get(code);
}

export function isFiatCurrencyCode(code: string): boolean {
  return BY_CODE.has(code);
}
