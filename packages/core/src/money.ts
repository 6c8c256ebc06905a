/**
 * Exact conversion between decimal strings ("12.34") and integer minor units
 * (1234) for every supported currency. No floating point touches an amount:
 * strings are split into digits and combined with bigint.
 *
 * Two result types, one rule (decisions.md: "Money API: bigint and number"):
 * - `toMinorUnitsBig` returns bigint and is exact for everything, including
 *   18- and 24-decimal tokens whose minor units exceed 2^53.
 * - `toMinorUnits` returns number, and throws `unsafe_integer` rather than
 *   rounding when the result is not a safe integer. Fiat amounts (and the
 *   service's number-typed widget/API fields) always fit.
 */
import { findCryptoAsset } from './reference/crypto.js';
import { findFiatCurrency } from './reference/fiat.js';

export type MoneyErrorCode = 'unknown_currency' | 'malformed' | 'too_many_decimals' | 'unsafe_integer';

export class MoneyError extends Error {
  readonly code: MoneyErrorCode;
  constructor(code: MoneyErrorCode, message: string) {
    super(message);
    this.name = 'MoneyError';
    this.code = code;
  }
}

/** Plain decimal: optional minus, digits, optional fraction. No exponent, spaces, '+', or grouping. */
const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;
const INTEGER_RE = /^-?\d+$/;

/**
 * Decimal places of a supported currency: the ISO 4217 exponent for fiat
 * codes (KRW 0, BHD 3, ...), the on-chain decimals for crypto symbols (BTC 8).
 * Codes are matched exactly (fiat codes are upper case).
 */
export function currencyDecimals(code: string): number {
  const fiat = findFiatCurrency(code);
  if (fiat) {
    return fiat.decimals;
  }
  const crypto = findCryptoAsset(code);
  if (crypto) {
    return crypto.decimals;
  }
  throw new MoneyError('unknown_currency', `Unsupported currency code "${code}".`);
}

/**
 * Minor units for a decimal string with `decimals` places. Trailing zeros
 * beyond the precision are accepted ("1.500" EUR is exactly 150); any other
 * extra digit is an error, never rounded.
 */
export function decimalToMinor(decimal: string, decimals: number): bigint {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  const match = typeof decimal === 'string' ? DECIMAL_RE.exec(decimal) : null;
  if (!match) {
    throw new MoneyError('malformed', `"${String(decimal)}" is not a plain decimal number (digits with an optional "." and fraction, e.g. "12.34").`);
  }
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined];
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) {
    throw new MoneyError(
      'too_many_decimals',
      decimals === 0
        ? `"${decimal}" has a fraction, but this currency has no minor unit (whole amounts only).`
        : `"${decimal}" has more than ${decimals} decimal place${decimals === 1 ? '' : 's'}.`,
    );
  }
  const minor = BigInt(whole + significant.padEnd(decimals, '0'));
  return sign === '-' ? -minor : minor;
}

/** Decimal string with exactly `decimals` places for an integer amount of minor units. */
export function minorToDecimal(minor: number | bigint | string, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  const value = toBigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** Exact minor units as bigint, for any supported currency. */
export function toMinorUnitsBig(decimal: string, currencyCode: string): bigint {
  return decimalToMinor(decimal, currencyDecimals(currencyCode));
}

/**
 * Exact minor units as a number. Throws MoneyError `unsafe_integer` when the
 * result exceeds Number.MAX_SAFE_INTEGER (use toMinorUnitsBig for large token amounts).
 */
export function toMinorUnits(decimal: string, currencyCode: string): number {
  const minor = toMinorUnitsBig(decimal, currencyCode);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MoneyError(
      'unsafe_integer',
      `${decimal} ${currencyCode} is ${minor} minor units, beyond the exactly representable number range (2^53 - 1); use toMinorUnitsBig.`,
    );
  }
  return Number(minor);
}

/** Decimal string of a minor-unit amount, with the currency's full number of decimals ("1.50", "0.00000001"). */
export function formatMinorUnits(minor: number | bigint | string, currencyCode: string): string {
  return minorToDecimal(minor, currencyDecimals(currencyCode));
}

/**
 * An integer amount of minimum units as the partner API client and the
 * callback parser give it: a `number` whenever the value is a safe integer
 * (every fiat amount, BTC, 6- and 8-decimal tokens, small 18-decimal ones), a
 * `bigint` only beyond Number.MAX_SAFE_INTEGER (wei, yoctoNEAR). Each value
 * thus has exactly one form, so two amounts from the API compare with `===`;
 * for arithmetic or to compare with a bigint, use minorToBigInt (decisions.md,
 * "Amounts beyond 2^53 in the API").
 */
export type MinorUnits = number | bigint;

/** The MinorUnits form of an integer amount (a safe-integer number, a bigint or a digit string). */
export function minorUnits(minor: number | bigint | string): MinorUnits {
  const value = toBigInt(minor);
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value;
}

/**
 * The exact bigint of an integer amount: MinorUnits, a digit string, or a
 * number that is a safe integer (any other number throws MoneyError rather
 * than pass on a rounded value).
 */
export function minorToBigInt(minor: MinorUnits | string): bigint {
  return toBigInt(minor);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function toBigInt(minor: number | bigint | string): bigint {
  if (typeof minor === 'bigint') {
    return minor;
  }
  if (typeof minor === 'number') {
    if (!Number.isSafeInteger(minor)) {
      throw new MoneyError('unsafe_integer', `${minor} is not a safe integer amount of minor units; pass a bigint or a digit string.`);
    }
    return BigInt(minor);
  }
  if (typeof minor === 'string' && INTEGER_RE.test(minor)) {
    return BigInt(minor);
  }
  throw new MoneyError('malformed', `"${String(minor)}" is not an integer amount of minor units.`);
}
