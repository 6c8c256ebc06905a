/**
 * The rules of the signing route, on the plugin's own PHP (Block_Reference
 * and Widget_Signer) run in php-wasm, checked against @card2crypto/core:
 * what the route signs must be exactly what the block stored and the
 * server validated, signed so that core verifies it, without the secret.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalString, hmacSha512Hex, validateWidgetSettings } from '@card2crypto/core';
import { TEST_PHP_VERSIONS, PluginPhp } from './support/php.js';

const KEY = 'test-salt-for-block-references';
const SECRET = 'sandbox-secret-Ω-42';
const NOW = 1_767_225_600_123;
const SITE = {
  title: 'Buy crypto',
  partner_token: 'partner-token-1',
  partner_secret: SECRET,
  default_fiat_currency: 'EUR',
  default_amount: '100.00',
  default_crypto_currency: 'BTC',
  default_language: '',
  environment: 'sandbox',
};

interface SignResult {
  settings: Record<string, string | number>;
  problems: { field: string; rule: string; message: string }[];
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`signing rules on PHP ${version}`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php.exit());

    const sign = (attributes: Record<string, string>, settings: Record<string, string> = SITE, lang = '', css: string | null = null) =>
      php.one<SignResult>('sign', settings, attributes, 'c2c-widget-0123456789ab-1', lang, css, NOW);

    test('a block reference depends on the attributes that are signed, not on their order or on display-only ones', async () => {
      const [a, b, c] = await php.call([
        ['payload', { amount: '50', fiatCurrency: 'EUR', title: 'Hello', cryptoCurrency: 'ETH' }],
        ['payload', { cryptoCurrency: 'ETH', fiatCurrency: 'EUR', amount: ' 50 ', lang: '' }],
        ['payload', { amount: '50', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', text: 'Buy', unknown: 'x' }],
      ]);
      assert.equal(a!.value, '{"a":"50","f":"EUR","c":"ETH"}');
      assert.equal(b!.value, a!.value);
      assert.equal(c!.value, a!.value);
      const [r1, r2, r3] = await php.call([
        ['ref', KEY, a!.value],
        ['ref', KEY, a!.value],
        ['ref', 'another-site', a!.value],
      ]);
      assert.match(String(r1!.value), /^[0-9a-f]{64}$/);
      assert.equal(r1!.value, r2!.value);
      assert.notEqual(r1!.value, r3!.value);
    });

    test('only a payload with its own reference is accepted: altered, forged or foreign ones are refused', async () => {
      const payload = '{"a":"50","f":"EUR","c":"ETH"}';
      const ref = await php.one<string>('ref', KEY, payload);
      const results = await php.call([
        ['attributes', KEY, payload, ref],
        ['attributes', KEY, '{"a":"5000","f":"EUR","c":"ETH"}', ref],
        ['attributes', KEY, payload, ref.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))],
        ['attributes', 'another-site', payload, ref],
        ['attributes', KEY, payload, ref.toUpperCase()],
        ['attributes', KEY, ['not', 'a', 'string'], ref],
        ['attributes', KEY, payload, null],
      ]);
      assert.deepEqual(results[0]!.value, { amount: '50', fiatCurrency: 'EUR', cryptoCurrency: 'ETH' });
      for (const r of results.slice(1)) {
        assert.equal(r.value, null);
      }
    });

    test('the widget element id must be derived from the same reference', async () => {
      const ref = 'ab'.repeat(32);
      const [id, ok, other, bad, zero] = await php.call([
        ['element_id', ref, 3],
        ['is_element_id', 'c2c-widget-abababababab-3', ref],
        ['is_element_id', 'c2c-widget-cdcdcdcdcdcd-3', ref],
        ['is_element_id', 'c2c-widget-abababababab-3"><script>', ref],
        ['is_element_id', 'c2c-widget-abababababab-0', ref],
      ]);
      assert.equal(id!.value, 'c2c-widget-abababababab-3');
      assert.deepEqual([ok!.value, other!.value, bad!.value, zero!.value], [true, false, false, false]);
    });

    test('an empty block signs the site defaults, stamped with the time of the request, verifiable by core', async () => {
      const { settings, problems } = await sign({});
      assert.deepEqual(problems, []);
      const { signature, ...unsigned } = settings;
      assert.deepEqual(unsigned, {
        target_element: 'c2c-widget-0123456789ab-1',
        partner_token: 'partner-token-1',
        from_currency: 'EUR',
        from_amount: 10000,
        to_currency: 'BTC',
        timestamp: NOW,
      });
      assert.equal(signature, hmacSha512Hex(canonicalString(unsigned, { form: 'simple' }), SECRET));
      assert.deepEqual(validateWidgetSettings(settings), []);
      assert.ok(!JSON.stringify(settings).includes(SECRET), 'the secret is never part of the settings');
    });

    test('block attributes override the defaults; amounts convert exactly to minor units', async () => {
      const cases: [Record<string, string>, Record<string, string | number>][] = [
        [{ amount: '99.99' }, { from_currency: 'EUR', from_amount: 9999 }],
        [{ amount: '50.1' }, { from_currency: 'EUR', from_amount: 5010 }],
        [
          { fiatCurrency: 'BHD', amount: '30.5' },
          { from_currency: 'BHD', from_amount: 30500 },
        ],
        [
          { fiatCurrency: 'KRW', amount: '100000' },
          { from_currency: 'KRW', from_amount: 100000 },
        ],
        [{ cryptoCurrency: '056075bf-715f-4174-b841-e9a77c18328e' }, { to_currency: '056075bf-715f-4174-b841-e9a77c18328e' }],
        [{ lang: 'de' }, { lang: 'de' }],
      ];
      for (const [attributes, expected] of cases) {
        const { settings, problems } = await sign(attributes);
        assert.deepEqual(problems, [], JSON.stringify(attributes));
        for (const [name, value] of Object.entries(expected)) {
          assert.equal(settings[name], value, `${JSON.stringify(attributes)} ${name}`);
        }
        assert.deepEqual(validateWidgetSettings(settings), [], JSON.stringify(attributes));
      }
    });

    test("the site's amount is not carried into another currency", async () => {
      const { settings, problems } = await sign({ fiatCurrency: 'USD' });
      assert.deepEqual(problems, []);
      assert.equal(settings.from_currency, 'USD');
      assert.equal(settings.from_amount, undefined);
    });

    test('the page language is used unless the site or the block chose one', async () => {
      assert.equal((await sign({}, SITE, 'fr')).settings.lang, 'fr');
      assert.equal((await sign({}, { ...SITE, default_language: 'es' }, 'fr')).settings.lang, 'es');
      assert.equal((await sign({ lang: 'it' }, { ...SITE, default_language: 'es' }, 'fr')).settings.lang, 'it');
      assert.equal((await sign({}, SITE, '')).settings.lang, undefined);
    });

    test('partner_css is signed when the site has colours', async () => {
      const css = 'https://shop.example/wp-json/card2crypto-widget/v1/partner.css?v=0123456789ab';
      const { settings } = await sign({}, SITE, '', css);
      assert.equal(settings.partner_css, css);
      assert.deepEqual(validateWidgetSettings(settings), []);
    });

    test('invalid block attributes are refused by the settings rules, named after the block attribute, and nothing is signed', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ amount: '1' }, 'block.amount', 'minor_amount'],
        [{ amount: '99.999' }, 'block.amount', 'minor_amount'],
        [{ amount: '1e3' }, 'block.amount', 'minor_amount'],
        [{ amount: '10000' }, 'block.amount', 'minor_amount'],
        [{ fiatCurrency: 'XYZ' }, 'block.fiatCurrency', 'fiat_currency'],
        [{ cryptoCurrency: 'btc' }, 'block.cryptoCurrency', 'crypto_currency'],
        [{ cryptoCurrency: 'DOGE' }, 'block.cryptoCurrency', 'crypto_currency'],
        [{ lang: 'english' }, 'block.lang', 'lang'],
      ];
      for (const [attributes, field, rule] of cases) {
        const { settings, problems } = await sign(attributes);
        assert.deepEqual(settings, [], JSON.stringify(attributes));
        assert.ok(
          problems.some((p) => p.field === field && p.rule === rule),
          `${JSON.stringify(attributes)}: ${JSON.stringify(problems)}`,
        );
      }
    });

    test('without credentials nothing is signed, and the problem names the setting', async () => {
      const { problems } = await sign({}, { ...SITE, partner_secret: '' });
      assert.deepEqual(
        problems.map((p) => [p.field, p.rule]),
        [['partner_secret', 'required']],
      );
      const noToken = await sign({}, { ...SITE, partner_token: '' });
      assert.deepEqual(
        noToken.problems.map((p) => [p.field, p.rule]),
        [['partner_token', 'required']],
      );
      assert.ok(!JSON.stringify(noToken).includes(SECRET));
    });
  });
}
