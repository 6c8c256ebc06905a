import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MoneyError,
  currencyDecimals,
  decimalToMinor,
  formatMinorUnits,
  minorToBigInt,
  minorToDecimal,
  minorUnits,
  toMinorUnits,
  toMinorUnitsBig,
} from '../src/money.js';
import { CRYPTO_ASSETS } from '../src/reference/crypto.js';
import { FIAT_CURRENCIES } from '../src/reference/fiat.js';

function moneyError(fn: () => unknown, code: MoneyError['code']): void {
  assert.throws(fn, (error: unknown) => error instanceof MoneyError && error.code === code, `expected MoneyError ${code}`);
}

test('exact conversions to minor units for 2-, 3- and 0-decimal fiat', () => {
  assert.equal(toMinorUnits('0.1', 'EUR'), 10);
  assert.equal(toMinorUnits('0.29', 'EUR'), 29); // 0.29 * 100 is 28.999999999999996 in floats
  assert.equal(toMinorUnits('1.005', 'BHD'), 1005);
  assert.equal(toMinorUnits('1234.567', 'BHD'), 1234567);
  assert.equal(toMinorUnits('100000', 'KRW'), 100000);
  assert.equal(toMinorUnits('2000000', 'VND'), 2000000);
  assert.equal(toMinorUnits('12000', 'HUF'), 1200000);
  assert.equal(toMinorUnits('5', 'USD'), 500);
  assert.equal(toMinorUnits('-2.50', 'EUR'), -250);
  assert.equal(toMinorUnits('007.5', 'GBP'), 750);
});

test('too many decimals is an error, never rounding; trailing zeros are exact', () => {
  moneyError(() => toMinorUnits('1.5', 'KRW'), 'too_many_decimals');
  moneyError(() => toMinorUnits('0.001', 'EUR'), 'too_many_decimals');
  moneyError(() => toMinorUnits('1.0005', 'BHD'), 'too_many_decimals');
  moneyError(() => toMinorUnitsBig('0.000000001', 'BTC'), 'too_many_decimals');
  assert.equal(toMinorUnits('1.500', 'EUR'), 150);
  assert.equal(toMinorUnits('1.0', 'KRW'), 1);
  assert.match(String(catchMessage(() => toMinorUnits('1.5', 'KRW'))), /no minor unit/);
});

test('malformed decimal strings are refused', () => {
  for (const bad of ['', ' 1', '1 ', '1e3', '1,00', '1.000,00', '+1', '.5', '1.', '0x10', 'NaN', 'Infinity', '١٢', '1_000', '--1']) {
    moneyError(() => toMinorUnits(bad, 'EUR'), 'malformed');
  }
  moneyError(() => toMinorUnits(1 as unknown as string, 'EUR'), 'malformed');
});

test('crypto: BTC satoshis and 18/24-decimal tokens exact with bigint', () => {
  assert.equal(toMinorUnitsBig('0.00000001', 'BTC'), 1n);
  assert.equal(toMinorUnits('0.00000001', 'BTC'), 1);
  assert.equal(toMinorUnits('21000000', 'BTC'), 2_100_000_000_000_000);
  assert.equal(toMinorUnitsBig('123456789.123456789012345678', 'ETH'), 123456789123456789012345678n);
  assert.equal(toMinorUnitsBig('1', 'NEAR'), 10n ** 24n);
  assert.equal(toMinorUnitsBig('0.000000000000000001', '437102F1-80DA-475E-A033-E79A40E3E8A5'), 1n);
  assert.equal(toMinorUnits('1.5', 'USDT'), 1_500_000);
  // 0.01 ETH is 10^16 wei: beyond 2^53, so the number API refuses rather than rounds.
  moneyError(() => toMinorUnits('0.01', 'ETH'), 'unsafe_integer');
  assert.equal(toMinorUnits('0.009007199254740991', 'ETH'), Number.MAX_SAFE_INTEGER);
  moneyError(() => toMinorUnits('0.009007199254740992', 'ETH'), 'unsafe_integer');
});

test('unknown currency codes are refused (codes are exact, fiat upper case)', () => {
  moneyError(() => currencyDecimals('eur'), 'unknown_currency');
  moneyError(() => toMinorUnits('1', 'XYZ'), 'unknown_currency');
  moneyError(() => formatMinorUnits(1, 'btc'), 'unknown_currency');
  assert.equal(currencyDecimals('BHD'), 3);
  assert.equal(currencyDecimals('KRW'), 0);
  assert.equal(currencyDecimals('BTC'), 8);
  assert.equal(currencyDecimals('TRC20USDT'), 6);
});

test('formatting minor units', () => {
  assert.equal(formatMinorUnits(150, 'EUR'), '1.50');
  assert.equal(formatMinorUnits(5, 'EUR'), '0.05');
  assert.equal(formatMinorUnits(-5, 'EUR'), '-0.05');
  assert.equal(formatMinorUnits(0, 'EUR'), '0.00');
  assert.equal(formatMinorUnits(1n, 'BTC'), '0.00000001');
  assert.equal(formatMinorUnits(100000, 'KRW'), '100000');
  assert.equal(formatMinorUnits(1234567, 'BHD'), '1234.567');
  assert.equal(formatMinorUnits('123456789123456789012345678', 'ETH'), '123456789.123456789012345678');
  assert.equal(formatMinorUnits(10n ** 24n, 'NEAR'), '1.000000000000000000000000');
  moneyError(() => formatMinorUnits(0.5, 'EUR'), 'unsafe_integer');
  moneyError(() => formatMinorUnits(2 ** 53, 'EUR'), 'unsafe_integer');
  moneyError(() => formatMinorUnits('1.5', 'EUR'), 'malformed');
});

test('round trip for every supported currency over many amounts', () => {
  let seed = 12345n;
  const next = (): bigint => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return seed;
  };
  const codes = [...FIAT_CURRENCIES.map((c) => c.code), ...CRYPTO_ASSETS.map((a) => a.symbol)];
  for (const code of codes) {
    for (let i = 0; i < 50; i++) {
      const minor = next() % 10n ** BigInt(1 + (i % 30));
      const text = formatMinorUnits(minor, code);
      assert.equal(toMinorUnitsBig(text, code), minor, `${code} ${text}`);
      assert.equal(decimalToMinor(minorToDecimal(minor, currencyDecimals(code)), currencyDecimals(code)), minor);
    }
  }
});

test('every fiat limit converts exactly and fits a safe integer', () => {
  for (const c of FIAT_CURRENCIES) {
    assert.equal(toMinorUnits(String(c.min), c.code), c.minMinor, c.code);
    assert.equal(toMinorUnits(String(c.max), c.code), c.maxMinor, c.code);
    assert.ok(Number.isSafeInteger(c.maxMinor));
  }
});

function catchMessage(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

test('MinorUnits: a number when safe, a bigint beyond; minorToBigInt is exact', () => {
  assert.equal(minorUnits(10_000), 10_000);
  assert.equal(minorUnits(10_000n), 10_000);
  assert.equal(minorUnits('9007199254740991'), Number.MAX_SAFE_INTEGER);
  assert.equal(minorUnits('9007199254740992'), 9_007_199_254_740_992n);
  assert.equal(minorUnits(1_500_000_000_000_000_000n), 1_500_000_000_000_000_000n);
  assert.equal(minorToBigInt(10_000), 10_000n);
  assert.equal(minorToBigInt(1_234_567_890_123_456_789n), 1_234_567_890_123_456_789n);
  assert.equal(minorToBigInt('1234567890123456789'), 1_234_567_890_123_456_789n);
  moneyError(() => minorToBigInt(1.5e18), 'unsafe_integer'); // already rounded: refused, not passed on
  moneyError(() => minorToBigInt(10.5), 'unsafe_integer');
  moneyError(() => minorUnits('1.5'), 'malformed');
  assert.equal(formatMinorUnits(minorUnits('1500000000000000000'), 'ETH'), '1.500000000000000000');
});
