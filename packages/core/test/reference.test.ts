import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COUNTRIES, COUNTRY_CURRENCY, findCountry } from '../src/reference/countries.js';
import { CRYPTO_ASSETS, cryptoSymbolCaseInsensitive, findCryptoAsset } from '../src/reference/crypto.js';
import { FIAT_CURRENCIES, findFiatCurrency, isFiatCurrencyCode } from '../src/reference/fiat.js';
import { LANGUAGES, PAYMENT_PAGE_LANGUAGES, isLanguageCode, isPaymentPageLanguage, paymentPageLanguage } from '../src/reference/languages.js';
import { PAYMENT_METHODS } from '../src/reference/payment-methods.js';

test('fiat table: the spec rows, limits read as whole units', () => {
  assert.equal(FIAT_CURRENCIES.length, 32);
  const eur = findFiatCurrency('EUR')!;
  assert.deepEqual([eur.min, eur.max, eur.decimals, eur.minMinor, eur.maxMinor], [50, 5000, 2, 5000, 500000]);
  const krw = findFiatCurrency('KRW')!;
  assert.deepEqual([krw.min, krw.max, krw.decimals, krw.minMinor, krw.maxMinor], [100000, 20000000, 0, 100000, 20000000]);
  const bhd = findFiatCurrency('BHD')!;
  assert.deepEqual([bhd.min, bhd.max, bhd.decimals, bhd.minMinor, bhd.maxMinor], [30, 2000, 3, 30000, 2000000]);
  assert.equal(findFiatCurrency('VND')!.minMinor, 2000000);
  assert.equal(findFiatCurrency('HUF')!.decimals, 2);
  assert.equal(findFiatCurrency('TWD')!.decimals, 2);
  assert.equal(isFiatCurrencyCode('eur'), false);
  const codes = new Set<string>();
  for (const c of FIAT_CURRENCIES) {
    assert.match(c.code, /^[A-Z]{3}$/);
    assert.ok(!codes.has(c.code), `duplicate ${c.code}`);
    codes.add(c.code);
    assert.ok(c.min > 0 && c.min < c.max, c.code);
    assert.equal(c.minMinor, c.min * 10 ** c.decimals);
    assert.equal(c.maxMinor, c.max * 10 ** c.decimals);
    const expectedDecimals = c.code === 'BHD' ? 3 : c.code === 'KRW' || c.code === 'VND' ? 0 : 2;
    assert.equal(c.decimals, expectedDecimals, `ISO 4217 exponent of ${c.code}`);
  }
});

test('crypto assets: spec symbols and chains; identifier-style symbols mapped in the spec order', () => {
  assert.equal(CRYPTO_ASSETS.length, 27);
  const guids = [
    '1E37B77-E0F5-4023-A98E-03156595A80B',
    '437102F1-80DA-475E-A033-E79A40E3E8A5',
    'F64F07D7-638C-497D-939C-833CF9024732',
    '890BBA7A-0690-4A58-B831-CC55BF2CB90F',
    '6FA79730-4DBB-4EE6-BC88-C8E5123CECAA',
    'FC1D920C-4C0F-49C6-89A9-D8F78CD48991',
    '056075bf-715f-4174-b841-e9a77c18328e',
    '74a1df38-605d-46bc-9d4f-6af2e692add4',
    '29391308-09b9-466e-a368-cac98942b3f2',
    'edea2b7a-0032-4730-90b4-04b6c6ec5a3c',
    '9ab09e1b-71e9-4fdc-8f98-a294733c0f44',
  ];
  const names = [
    'XCAD Network',
    'Dai Stablecoin',
    'Euro Tether',
    'Bancor',
    'Curve DAO Token',
    'Merit Circle',
    'Yield Guild Games',
    'Injective',
    'Render',
    'Phala Network',
    'blur',
  ];
  guids.forEach((guid, i) => {
    const asset = findCryptoAsset(guid);
    assert.ok(asset, guid);
    assert.equal(asset.name, names[i]);
    assert.equal(asset.chain, 'Ethereum');
  });
  const chains: Record<string, string[]> = {
    Bitcoin: ['BTC'],
    'Binance Smart Chain': ['BNB', 'BEP20USDT', 'BEP20GMT'],
    Everscale: ['EVERTIP3USDT', 'TON'],
    Near: ['NEAR'],
    Polygon: ['PERC20BOB', 'MATIC'],
    TON: ['TONCOIN'],
    TRON: ['TRC20USDC', 'TRC20USDT', 'TRX'],
    Ethereum: ['ETH', 'USDT', 'ERC20GMT2', ...guids],
  };
  for (const [chain, symbols] of Object.entries(chains)) {
    assert.deepEqual(
      CRYPTO_ASSETS.filter((a) => a.chain === chain).map((a) => a.symbol),
      symbols,
      chain,
    );
  }
  assert.equal(findCryptoAsset('BTC')!.decimals, 8);
  assert.equal(findCryptoAsset('ETH')!.decimals, 18);
  assert.equal(findCryptoAsset('USDT')!.decimals, 6);
  assert.equal(findCryptoAsset('NEAR')!.decimals, 24);
  assert.equal(findCryptoAsset('btc'), undefined);
  assert.equal(cryptoSymbolCaseInsensitive('btc'), 'BTC');
  assert.equal(cryptoSymbolCaseInsensitive('056075BF-715F-4174-B841-E9A77C18328E'), '056075bf-715f-4174-b841-e9a77c18328e');
  for (const a of CRYPTO_ASSETS) {
    assert.ok(Number.isInteger(a.decimals) && a.decimals >= 0 && a.decimals <= 24, a.symbol);
  }
});

test('countries: unique ISO codes, EEA + UK + CH + US, and every fiat currency has a country', () => {
  const a2 = new Set(COUNTRIES.map((c) => c.alpha2));
  const a3 = new Set(COUNTRIES.map((c) => c.alpha3));
  const num = new Set(COUNTRIES.map((c) => c.code));
  assert.equal(a2.size, COUNTRIES.length);
  assert.equal(a3.size, COUNTRIES.length);
  assert.equal(num.size, COUNTRIES.length);
  for (const c of COUNTRIES) {
    assert.match(c.alpha2, /^[A-Z]{2}$/);
    assert.match(c.alpha3, /^[A-Z]{3}$/);
    assert.ok(Number.isInteger(c.code) && c.code > 0 && c.code < 1000);
    assert.ok(c.name.length > 0);
  }
  const eea = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' ');
  for (const code of [...eea, 'GB', 'CH', 'US']) {
    assert.ok(a2.has(code), code);
  }
  assert.deepEqual(findCountry('DE'), { code: 276, name: 'Germany', alpha2: 'DE', alpha3: 'DEU' });
  assert.equal(findCountry('TW')!.code, 158);
  for (const [country, currency] of Object.entries(COUNTRY_CURRENCY)) {
    assert.ok(a2.has(country), country);
    assert.ok(isFiatCurrencyCode(currency), currency);
  }
  const covered = new Set(Object.values(COUNTRY_CURRENCY));
  for (const c of FIAT_CURRENCIES) {
    assert.ok(covered.has(c.code), `no listed country uses ${c.code}`);
  }
});

test('languages: the ISO 639-1 set', () => {
  assert.equal(LANGUAGES.length, 183);
  assert.equal(new Set(LANGUAGES.map((l) => l.code)).size, 183);
  for (const l of LANGUAGES) {
    assert.match(l.code, /^[a-z]{2}$/);
  }
  assert.ok(isLanguageCode('en'));
  assert.ok(isLanguageCode('zu'));
  for (const bad of ['EN', 'iw', 'in', 'ji', 'sh', 'xx', 'eng', '']) {
    assert.equal(isLanguageCode(bad), false, bad);
  }
});

test('languages: the payment page is offered in a short list of them, English first (issue 32, point 7)', () => {
  assert.deepEqual(
    PAYMENT_PAGE_LANGUAGES.map((l) => [l.code, l.name]),
    [
      ['en', 'English'],
      ['de', 'German'],
      ['es', 'Spanish'],
      ['fr', 'French'],
    ],
  );
  assert.ok(Object.isFrozen(PAYMENT_PAGE_LANGUAGES));
  for (const l of PAYMENT_PAGE_LANGUAGES) {
    assert.ok(isLanguageCode(l.code), l.code);
    assert.ok(isPaymentPageLanguage(l.code), l.code);
  }
  // Valid ISO 639-1 codes outside the list are shown in English; so is no lang at all (the spec's default).
  assert.equal(isPaymentPageLanguage('ja'), false);
  assert.equal(isPaymentPageLanguage('DE'), false);
  assert.equal(paymentPageLanguage('fr'), 'fr');
  assert.equal(paymentPageLanguage('ja'), 'en');
  assert.equal(paymentPageLanguage(undefined), 'en');
});

test('payment methods as the spec lists them', () => {
  assert.deepEqual(
    PAYMENT_METHODS.map((m) => m.name),
    ['Visa', 'Maestro', 'MasterCard', 'SEPA', 'Google Pay'],
  );
});
