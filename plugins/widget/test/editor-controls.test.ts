/**
 * The block editor's controls: their choices come from core's reference
 * data, a block's attributes are judged by core's settings rules merged
 * with the site's defaults exactly as the server signs them, and the
 * preview follows the site's colours.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CRYPTO_ASSETS, FIAT_CURRENCIES, THEME_DEFAULTS } from '@card2crypto/core/browser';
import {
  COLOR_FIELDS,
  SCHEMA_DEFAULTS,
  type SiteDefaults,
  cryptoOptions,
  effectivePurchase,
  fiatOptions,
  languageOptions,
  previewModel,
  purchaseProblems,
  redirectProblem,
} from '../src/editor/controls.js';

const SITE: SiteDefaults = { title: 'Buy crypto', amount: '100.00', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', lang: '' };
const EMPTY = { amount: '', fiatCurrency: '', cryptoCurrency: '', lang: '' };

describe('editor controls', () => {
  test('the schema defaults stand in when the editor received no site data', () => {
    assert.deepEqual(SCHEMA_DEFAULTS, { title: 'Buy crypto', amount: '', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', lang: '' });
  });

  test('currency and language choices are the supported lists, after a "site default" choice', () => {
    const fiat = fiatOptions(SITE);
    assert.deepEqual(fiat[0], { value: '', label: 'Site default (EUR)' });
    assert.deepEqual(
      fiat.slice(1).map((o) => o.value),
      FIAT_CURRENCIES.map((c) => c.code),
    );
    assert.ok(fiat.some((o) => o.label === 'Euro (EUR)'));

    const crypto = cryptoOptions({ ...SITE, cryptoCurrency: '437102F1-80DA-475E-A033-E79A40E3E8A5' });
    assert.deepEqual(crypto[0], { value: '', label: 'Site default (DAI)' });
    assert.deepEqual(
      crypto.slice(1).map((o) => o.value),
      CRYPTO_ASSETS.map((a) => a.symbol),
    );
    assert.ok(crypto.some((o) => o.value === '437102F1-80DA-475E-A033-E79A40E3E8A5' && o.label === 'Dai Stablecoin (DAI, Ethereum)'));

    assert.equal(languageOptions(SITE)[0]!.label, 'Site default (language of the page)');
    assert.equal(languageOptions({ ...SITE, lang: 'de' })[0]!.label, 'Site default (German)');
    // The languages the payment page is offered in (issue 32, point 7), not every ISO 639-1 code.
    assert.deepEqual(
      languageOptions(SITE).map((o) => [o.value, o.label]),
      [
        ['', 'Site default (language of the page)'],
        ['en', 'English (en)'],
        ['de', 'German (de)'],
        ['es', 'Spanish (es)'],
        ['fr', 'French (fr)'],
      ],
    );
    // A block or site saved earlier with another code keeps it, and is told what the buyer sees.
    assert.deepEqual(languageOptions(SITE, 'ja').at(-1), { value: 'ja', label: 'Japanese (ja): shown in English' });
    assert.equal(languageOptions(SITE, 'de').length, 5);
    assert.equal(languageOptions({ ...SITE, lang: 'ja' })[0]!.label, 'Site default (Japanese (ja): shown in English)');
  });

  test('an empty block takes the site defaults; another currency does not inherit the site amount', () => {
    assert.deepEqual(effectivePurchase(EMPTY, SITE), { amount: '100.00', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', lang: '' });
    assert.equal(effectivePurchase({ ...EMPTY, fiatCurrency: 'USD' }, SITE).amount, '');
    assert.equal(effectivePurchase({ ...EMPTY, fiatCurrency: 'EUR' }, SITE).amount, '100.00');
    assert.equal(effectivePurchase({ ...EMPTY, amount: ' 75 ' }, SITE).amount, '75');
  });

  test('valid attributes have no problems', () => {
    assert.deepEqual(purchaseProblems(EMPTY, SITE), {});
    assert.deepEqual(purchaseProblems({ amount: '30.5', fiatCurrency: 'BHD', cryptoCurrency: 'ETH', lang: 'fr' }, SITE), {});
    assert.deepEqual(purchaseProblems({ ...EMPTY, amount: '100000', fiatCurrency: 'KRW' }, SITE), {});
  });

  test('amounts outside the currency limits or with too many decimals are reported on the amount control', () => {
    assert.match(purchaseProblems({ ...EMPTY, amount: '10' }, SITE).amount ?? '', /between 50\.00 and 5000\.00 EUR/);
    assert.match(purchaseProblems({ ...EMPTY, amount: '5000.01' }, SITE).amount ?? '', /between/);
    assert.ok(purchaseProblems({ ...EMPTY, amount: '99.999' }, SITE).amount);
    assert.ok(purchaseProblems({ ...EMPTY, amount: '1,5' }, SITE).amount);
    // The site's EUR amount is valid; the same number in KRW is not, so it is not inherited (no problem, no amount).
    assert.deepEqual(purchaseProblems({ ...EMPTY, fiatCurrency: 'KRW' }, SITE), {});
    assert.ok(purchaseProblems({ ...EMPTY, fiatCurrency: 'KRW', amount: '100' }, SITE).amount);
  });

  test('unsupported currencies and languages are reported on their control', () => {
    const problems = purchaseProblems({ amount: '', fiatCurrency: 'XYZ', cryptoCurrency: 'btc', lang: 'EN' }, SITE);
    assert.deepEqual(Object.keys(problems).sort(), ['cryptoCurrency', 'fiatCurrency', 'lang']);
    assert.match(problems.cryptoCurrency!, /not a supported crypto currency/);
  });

  test('redirect addresses must be absolute http(s) URLs or empty', () => {
    assert.equal(redirectProblem(''), undefined);
    assert.equal(redirectProblem('https://shop.example/thanks/'), undefined);
    assert.equal(redirectProblem('http://127.0.0.1:9700/?p=2'), undefined);
    for (const bad of ['/thanks', 'javascript:alert(1)', 'shop.example', 'https://', 'https://a b.example']) {
      assert.ok(redirectProblem(bad), bad);
    }
  });

  test('the preview shows what the widget will start with, in the site colours or the defaults', () => {
    const model = previewModel({ ...EMPTY, cryptoCurrency: 'TRC20USDT' }, SITE, { color_primary_fill: '#ff0000', color_box_shadow: '' });
    assert.equal(model.title, 'Buy crypto');
    assert.equal(model.amount, '100.00');
    assert.equal(model.fiatCode, 'EUR');
    assert.equal(model.cryptoTicker, 'USDT');
    assert.equal(model.cryptoName, 'Tether USD (TRC20)');
    assert.equal(model.style['--primaryFill'], '#ff0000');
    assert.equal(model.style['--boxShadow'], THEME_DEFAULTS.boxShadow);
    assert.equal(Object.keys(model.style).length, 8);
    assert.equal(COLOR_FIELDS.length, 8);
    assert.equal(previewModel({ ...EMPTY, title: '' }, SITE, {}).title, '');
    assert.equal(previewModel({ ...EMPTY, title: 'Get bitcoin' }, SITE, {}).title, 'Get bitcoin');
  });
});
