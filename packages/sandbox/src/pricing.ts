/**
 * The sandbox's deterministic price table and exact conversions
 * (decisions.md, "Sandbox: price table and quotes").
 *
 * Every currency has a USD value per whole unit, written as a decimal string;
 * every conversion is done on integers (bigint) and rounds down, so the same
 * table and inputs always give the same digits. The partner's commission
 * (service_fee) is taken from the crypto bought: gross = what from_amount buys,
 * fee = floor(gross * service_fee), to_amount = gross - fee (what the customer
 * receives). A quote asked by to_amount finds the smallest from_amount whose
 * net covers it; the customer then gets exactly to_amount and the rounding
 * excess goes to the fee.
 */
import {
  CRYPTO_ASSETS,
  decimalToMinor,
  FIAT_CURRENCIES,
  findCryptoAsset,
  findFiatCurrency,
  formatMinorUnits,
  type CryptoAsset,
  type FiatCurrency,
} from '@card2crypto/core';

export interface PriceTable {
  /** USD value of one whole unit of each fiat currency, e.g. { EUR: "1.08" }. */
  fiat: Record<string, string>;
  /** USD value of one whole unit of each crypto asset (by service symbol), e.g. { BTC: "65000" }. */
  crypto: Record<string, string>;
}

/** Default table: round, plausible values; only their stability matters. */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  fiat: Object.freeze({
    ARS: '0.0011',
    AMD: '0.0026',
    AUD: '0.66',
    AZN: '0.59',
    BHD: '2.65',
    BGN: '0.55',
    BRL: '0.18',
    CAD: '0.73',
    CZK: '0.043',
    DKK: '0.145',
    EUR: '1.08',
    HKD: '0.128',
    HUF: '0.0027',
    ILS: '0.27',
    INR: '0.012',
    KZT: '0.0021',
    MYR: '0.22',
    MDL: '0.056',
    TWD: '0.031',
    NOK: '0.093',
    NZD: '0.6',
    PLN: '0.25',
    GBP: '1.27',
    RON: '0.22',
    SAR: '0.2666',
    KRW: '0.00073',
    SEK: '0.095',
    CHF: '1.13',
    TRY: '0.03',
    UAH: '0.024',
    USD: '1',
    VND: '0.00004',
  }),
  crypto: Object.freeze({
    BTC: '65000',
    BNB: '580',
    BEP20USDT: '1',
    BEP20GMT: '0.2',
    EVERTIP3USDT: '1',
    TON: '0.06',
    NEAR: '5.5',
    PERC20BOB: '1',
    MATIC: '0.7',
    TONCOIN: '6.5',
    TRC20USDC: '1',
    TRC20USDT: '1',
    TRX: '0.12',
    ETH: '3200',
    USDT: '1',
    ERC20GMT2: '0.2',
    '1E37B77-E0F5-4023-A98E-03156595A80B': '0.9', // XCAD Network
    '437102F1-80DA-475E-A033-E79A40E3E8A5': '1', // Dai Stablecoin
    'F64F07D7-638C-497D-939C-833CF9024732': '1.08', // Euro Tether
    '890BBA7A-0690-4A58-B831-CC55BF2CB90F': '0.7', // Bancor
    '6FA79730-4DBB-4EE6-BC88-C8E5123CECAA': '0.45', // Curve DAO Token
    'FC1D920C-4C0F-49C6-89A9-D8F78CD48991': '2.5', // Merit Circle
    '056075bf-715f-4174-b841-e9a77c18328e': '0.6', // Yield Guild Games
    '74a1df38-605d-46bc-9d4f-6af2e692add4': '25', // Injective
    '29391308-09b9-466e-a368-cac98942b3f2': '7.5', // Render
    'edea2b7a-0032-4730-90b4-04b6c6ec5a3c': '0.15', // Phala Network
    '9ab09e1b-71e9-4fdc-8f98-a294733c0f44': '0.3', // blur
  }),
}) as PriceTable;

/** A positive decimal as an exact fraction n / 10^scale. */
interface Decimal {
  n: bigint;
  scale: number;
}

const DECIMAL_RE = /^\d+(?:\.(\d+))?$/;

/** The exact fraction of a decimal string, read with core's decimalToMinor at the string's own precision. */
function parseDecimal(text: string, what: string): Decimal {
  const m = typeof text === 'string' ? DECIMAL_RE.exec(text) : null;
  if (!m) {
    throw new TypeError(`${what} must be a positive decimal string such as "1.08", got ${JSON.stringify(text)}`);
  }
  const scale = (m[1] ?? '').length;
  const n = decimalToMinor(text, scale);
  if (n <= 0n) {
    throw new RangeError(`${what} must be greater than 0`);
  }
  return { n, scale };
}

const pow10 = (k: number): bigint => 10n ** BigInt(k);

export interface Quote {
  fromCurrency: string;
  toCurrency: string;
  /** Minimum units of the fiat currency. */
  fromAmount: bigint;
  /** Minimum units of the crypto asset the customer receives. */
  toAmount: bigint;
  /** Minimum units of the crypto asset paid to the partner. */
  feeAmount: bigint;
  /** Fiat per whole crypto unit, decimal text (operation_info.currency_rate). */
  rate: string;
}

export class QuoteError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'QuoteError';
  }
}

export interface PairLimits {
  /** All in minimum units of the fiat currency. */
  min: bigint;
  /** Largest purchase without identity verification (the KYC threshold). */
  maxWithoutKyc: bigint;
  minKyc: bigint;
  maxKyc: bigint;
}

export class Pricing {
  private readonly fiat = new Map<string, Decimal>();
  private readonly crypto = new Map<string, Decimal>();
  private readonly fee: Decimal | { n: 0n; scale: 0 };

  /**
   * @param table               price overrides merged over DEFAULT_PRICES
   * @param serviceFee          the partner's commission as a decimal string fraction ("0.01" is 1%)
   * @param kycThresholdPercent the no-KYC limit as a percentage of each currency's maximum
   */
  constructor(
    table: Partial<PriceTable> = {},
    readonly serviceFee = '0.01',
    readonly kycThresholdPercent = 20,
  ) {
    const fiat = { ...DEFAULT_PRICES.fiat, ...(table.fiat ?? {}) };
    const crypto = { ...DEFAULT_PRICES.crypto, ...(table.crypto ?? {}) };
    for (const c of FIAT_CURRENCIES) {
      const price = fiat[c.code];
      if (price === undefined) {
        throw new TypeError(`price table: no USD value for fiat ${c.code}`);
      }
      this.fiat.set(c.code, parseDecimal(price, `price of ${c.code}`));
    }
    for (const a of CRYPTO_ASSETS) {
      const price = crypto[a.symbol];
      if (price === undefined) {
        throw new TypeError(`price table: no USD value for crypto ${a.symbol}`);
      }
      this.crypto.set(a.symbol, parseDecimal(price, `price of ${a.symbol}`));
    }
    for (const code of Object.keys(fiat)) {
      if (!findFiatCurrency(code)) {
        throw new TypeError(`price table: ${code} is not a supported fiat currency`);
      }
    }
    for (const code of Object.keys(crypto)) {
      if (!findCryptoAsset(code)) {
        throw new TypeError(`price table: ${code} is not a supported crypto asset`);
      }
    }
    if (!/^0(?:\.\d+)?$/.test(serviceFee)) {
      throw new TypeError(`service fee must be a decimal fraction below 1 such as "0.01", got ${JSON.stringify(serviceFee)}`);
    }
    this.fee = serviceFee.replace(/[0.]/g, '') === '' ? { n: 0n, scale: 0 } : parseDecimal(serviceFee, 'service fee');
    if (!(kycThresholdPercent > 0 && kycThresholdPercent <= 100)) {
      throw new RangeError('KYC threshold must be a percentage in (0, 100]');
    }
  }

  /** The service fee as the params endpoint writes it (a number: 0.01 is 1%). */
  serviceFeeNumber(): number {
    return Number(this.serviceFee);
  }

  limits(fiat: FiatCurrency): PairLimits {
    const min = BigInt(fiat.minMinor);
    const max = BigInt(fiat.maxMinor);
    // Threshold in whole currency units, so it reads as a round figure (EUR 1000 by default).
    const wholeThreshold = (BigInt(fiat.max) * BigInt(Math.round(this.kycThresholdPercent * 100))) / 10000n;
    let threshold = wholeThreshold * pow10(fiat.decimals);
    if (threshold < min) {
      threshold = min;
    }
    return { min, maxWithoutKyc: threshold, minKyc: min, maxKyc: max };
  }

  /** Crypto minimum units bought by `fromAmount` fiat minimum units, before the fee. */
  private gross(fiat: FiatCurrency, asset: CryptoAsset, fromAmount: bigint): bigint {
    const f = this.fiat.get(fiat.code)!;
    const c = this.crypto.get(asset.symbol)!;
    // from/10^df whole fiat * f.n/10^f.scale USD, divided by c.n/10^c.scale USD per crypto, times 10^dc.
    const numerator = fromAmount * f.n * pow10(c.scale + asset.decimals);
    const denominator = pow10(fiat.decimals + f.scale) * c.n;
    return numerator / denominator;
  }

  private split(gross: bigint): { net: bigint; fee: bigint } {
    const fee = (gross * this.fee.n) / pow10(this.fee.scale);
    return { net: gross - fee, fee };
  }

  /** Fiat per whole crypto unit, with 8 fractional digits (rounded down). */
  rate(fiat: FiatCurrency, asset: CryptoAsset): string {
    const f = this.fiat.get(fiat.code)!;
    const c = this.crypto.get(asset.symbol)!;
    const scaled = (c.n * pow10(f.scale + 8)) / (f.n * pow10(c.scale));
    const text = scaled.toString().padStart(9, '0');
    const whole = text.slice(0, -8);
    const fraction = text.slice(-8).replace(/0+$/, '');
    return fraction === '' ? whole : `${whole}.${fraction}`;
  }

  /**
   * A quote for exactly one of fromAmount / toAmount, enforcing the currency's
   * minimum and maximum (with identity verification) on the fiat amount.
   */
  quote(input: { fromCurrency: string; toCurrency: string; fromAmount?: bigint; toAmount?: bigint }): Quote {
    const fiat = findFiatCurrency(input.fromCurrency);
    if (!fiat) {
      throw new QuoteError('from_currency', `from_currency "${input.fromCurrency}" is not a supported fiat currency`);
    }
    const asset = findCryptoAsset(input.toCurrency);
    if (!asset) {
      throw new QuoteError('to_currency', `to_currency "${input.toCurrency}" is not a supported crypto asset`);
    }
    const limits = this.limits(fiat);
    let fromAmount: bigint;
    let toAmount: bigint;
    let feeAmount: bigint;
    let field: string;
    if (input.fromAmount !== undefined) {
      field = 'from_amount';
      fromAmount = input.fromAmount;
      const { net, fee } = this.split(this.gross(fiat, asset, fromAmount));
      toAmount = net;
      feeAmount = fee;
    } else if (input.toAmount !== undefined) {
      field = 'to_amount';
      toAmount = input.toAmount;
      fromAmount = this.fromFor(fiat, asset, toAmount, limits.maxKyc);
      feeAmount = this.gross(fiat, asset, fromAmount) - toAmount;
    } else {
      throw new QuoteError('from_amount', 'give exactly one of from_amount and to_amount');
    }
    const shown = (minor: bigint) => `${minor} (${formatMinorUnits(minor, fiat.code)} ${fiat.code})`;
    if (fromAmount < limits.min) {
      throw new QuoteError(field, `${field} gives ${shown(fromAmount)}, below the minimum ${shown(limits.min)} for ${fiat.code}`);
    }
    if (fromAmount > limits.maxKyc) {
      throw new QuoteError(field, `${field} gives more than the maximum ${shown(limits.maxKyc)} for ${fiat.code}`);
    }
    if (toAmount <= 0n) {
      throw new QuoteError(field, `${field} is too small to buy any ${asset.symbol}`);
    }
    return { fromCurrency: fiat.code, toCurrency: asset.symbol, fromAmount, toAmount, feeAmount, rate: this.rate(fiat, asset) };
  }

  /** The smallest fiat amount whose net covers `toAmount` (capped just past `cap` so the caller can report "above maximum"). */
  private fromFor(fiat: FiatCurrency, asset: CryptoAsset, toAmount: bigint, cap: bigint): bigint {
    const net = (from: bigint) => this.split(this.gross(fiat, asset, from)).net;
    if (net(cap) < toAmount) {
      return cap + 1n;
    }
    let lo = 0n; // net(lo) < toAmount (or lo = 0)
    let hi = cap; // net(hi) >= toAmount
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (net(mid) >= toAmount) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
