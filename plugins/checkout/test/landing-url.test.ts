/**
 * The PHP landing URL (Landing_Url::build, with settings signed by the
 * shared Signer) read back by core's parseLandingUrl and compared byte for
 * byte with core's buildLandingUrl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandingUrl, parseLandingUrl, verify } from '@card2crypto/core';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const SECRET = 'landing-secret-ünïcode';
const SETTINGS = {
  target_element: 'card2crypto-widget',
  partner_token: 'tok_123',
  from_currency: 'EUR',
  from_amount: 12345,
  to_currency: 'BTC',
  to_account: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  partner_operation_id: 'wc-42-0123456789abcdef01234567',
  user_login: 'buyer+test@example.com',
  lang: 'de',
  timestamp: 1763762000123,
};
const SUCCESS = 'http://127.0.0.1:9600/checkout/order-received/42/?key=wc_order_abc';
const FAIL = 'http://127.0.0.1:9600/checkout/order-pay/42/?pay_for_order=true&key=wc_order_abc';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Landing_Url`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('core parses it back: signed params and both callbacks', async () => {
      const signed = await php.one<Record<string, unknown>>('sign_settings', SETTINGS, SECRET);
      const url = await php.one<string>('landing_url', 'http://127.0.0.1:8787/landing', signed, SUCCESS, FAIL);
      const parsed = parseLandingUrl(url);
      assert.equal(parsed.ok, true, JSON.stringify(parsed));
      if (!parsed.ok) return;
      assert.deepEqual(parsed.payload.params, signed);
      assert.deepEqual(parsed.payload.callbacks, { success: SUCCESS, fail: FAIL });
      assert.equal(verify(parsed.payload.params as Record<string, unknown>, SECRET).ok, true);
    });

    test('byte for byte what core builds, with and without a path slash or query', async () => {
      const signed = await php.one<Record<string, unknown>>('sign_settings', { ...SETTINGS, partner_operation_id: 'wc-42/jürgen-ø-\u2028' }, SECRET);
      for (const landing of ['http://127.0.0.1:8787/landing', 'https://pay.example.com/', 'https://pay.example.com', 'https://pay.example.com/l/?ref=store']) {
        const php_url = await php.one<string>('landing_url', landing, signed, SUCCESS, FAIL);
        const core_url = buildLandingUrl(landing, { params: signed as never, callbacks: { success: SUCCESS, fail: FAIL } }, { validateParams: { signed: true } as never });
        assert.equal(php_url, core_url, landing);
      }
    });

    test('refuses a landing address core refuses', async () => {
      for (const bad of ['ftp://x/landing', 'http://x/landing#frag', 'http://x/landing?i=1', 'not a url']) {
        const [r] = await php.call([['landing_url', bad, {}, SUCCESS, FAIL]]);
        assert.match(r!.error ?? '', /InvalidArgumentException/, bad);
      }
    });
  });
}
