/**
 * The one PHP landing-URL builder (Landing\Landing_Url, which both plugins
 * carry) against core's buildLandingUrl(): for every landing address of the
 * table, the same URL to the byte, or a refusal where core refuses. Expected
 * values are computed here by core, never written down.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLandingUrl, parseLandingUrl, sign } from '@card2crypto/core';
import { PhpSandbox } from '../support/php.js';

const SECRET = 'landing-secret-ünïcode';
const UNSIGNED = {
  target_element: 'c2c-landing-0123456789ab',
  partner_token: 'tok_123',
  from_currency: 'EUR',
  from_amount: 12345,
  to_currency: 'BTC',
  partner_operation_id: 'wc-42/jürgen-ø-\u2028',
  user_login: 'buyer+test@example.com',
  lang: 'de',
  timestamp: 1763762000123,
};
const PARAMS = { ...UNSIGNED, signature: sign(UNSIGNED, SECRET, { form: 'simple' }) };
const SUCCESS = 'http://127.0.0.1:9600/checkout/order-received/42/?key=wc_order_abc';
const FAIL = 'https://shop.example/checkout/order-pay/42/?pay_for_order=true&key=wc_order_abc';

/** Landing addresses core accepts: PHP must write exactly what core writes. */
const ACCEPTED = [
  'http://127.0.0.1:8787/landing',
  'https://pay.example.com/',
  'https://pay.example.com',
  'https://pay.example.com/l/?ref=store',
  'https://pay.example.com/l?ref=store&lang=de',
  // The two the checkout's own copy got wrong: the scheme in capitals, and user info (not part of the origin).
  'HTTPS://pay.example.com/landing',
  'https://user@pay.example.com/landing',
  'https://user:pa55@pay.example.com:8443/landing',
  'HtTp://Pay.EXAMPLE.com/Landing/Path',
  'https://pay.example.com:443/landing',
  'http://pay.example.com:80/landing',
  'http://pay.example.com:0080/landing',
  'http://pay.example.com:08080/landing',
  'http://pay.example.com:/landing',
  'https://pay.example.com/landing#',
  'https://pay.example.com/a/./b/../c',
  'https://pay.example.com/a/b/..',
  'https://pay.example.com/a/%2e%2E/b/%2E',
  'https://pay.example.com/l/%7e%41?x=%7e',
  'https://pay.example.com/ä/ö?q=ü&r=€',
  'https://pay.example.com/a"b<c>d`e{f}g|h^i\'j?k"l<m>n\'o`p{q}r|s^t',
  'https://pay.example.com/l?',
  'https://pay.example.com/l?&',
  'https://pay.example.com/l?x=i&ii=1&j=i',
  'http://pay.example.com./landing',
  'http://under_score.example/landing',
  'http://127.1/landing',
  'http://0x7f.0.0.1/landing',
  'http://0177.0.0.01/landing',
  'http://2130706433/landing',
  'http://192.168.257/landing',
  'http://[::1]:8080/landing',
  'http://[2001:DB8:0:0:1:0:0:1]/landing',
  'http://[0:0:0:0:0:ffff:1.2.3.4]/landing',
  'http://[1:0:0:2:0:0:0:3]/landing',
  'http://[1:2:3:4:5:6:7:8]/landing',
];

/** Landing addresses core refuses: PHP must refuse them too. */
const REFUSED = [
  'ftp://pay.example.com/landing',
  'not a url',
  'https://pay.example.com/landing#frag',
  'https://pay.example.com/landing?i=1',
  'https://pay.example.com/landing?a=1&i',
  'https://pay.example.com/landing?%69=1',
  'https://pay.example.com/landing?a&i=2',
  'https://pay.example.com:99999/landing',
  'http://256.0.0.1/landing',
  'http://1.2.3.4.5/landing',
  'http://08.0.0.1/landing',
  'http://foo.1/landing',
  'http://[1::2::3]/landing',
  'https://pay.example.com/a b',
];

/**
 * Core accepts these; PHP refuses them rather than write them otherwise: an
 * international host (WHATWG writes it in punycode by UTS #46, which PHP has
 * only with intl), and an address the URL parser repairs (Http_Url is
 * stricter there on purpose).
 */
const REFUSED_BY_PHP_ONLY: [string, RegExp][] = [
  ['https://bücher.example/landing', /punycode/],
  ['http:///landing', /must be an absolute http\(s\) URL/],
];

const core = (landing: string, success = SUCCESS, fail = FAIL) => buildLandingUrl(landing, { params: PARAMS, callbacks: { success, fail } });

export function landingUrlSuite(version: string): void {
  describe(`PHP ${version}: Landing_Url`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test(`${ACCEPTED.length} landing addresses: byte for byte what core builds`, async () => {
      const results = await php.call(ACCEPTED.map((landing) => ['landing_url', landing, PARAMS, SUCCESS, FAIL]));
      const differences = ACCEPTED.flatMap((landing, i) => {
        const expected = core(landing);
        const got = results[i]!;
        return got.value === expected ? [] : [`${landing}\n  core: ${expected}\n  php:  ${got.value ?? got.error}`];
      });
      assert.deepEqual(differences, []);
    });

    test('core reads the payload back: the signed params and both callbacks', async () => {
      const url = await php.one<string>('landing_url', 'https://pay.example.com/landing', PARAMS, SUCCESS, FAIL);
      const parsed = parseLandingUrl(url, { validateParams: true });
      assert.ok(parsed.ok, JSON.stringify(parsed));
      assert.deepEqual(parsed.payload.params, PARAMS);
      assert.deepEqual(parsed.payload.callbacks, { success: SUCCESS, fail: FAIL });
    });

    test(`${REFUSED.length} landing addresses core refuses are refused, with core's reason`, async () => {
      const results = await php.call(REFUSED.map((landing) => ['landing_url', landing, PARAMS, SUCCESS, FAIL]));
      REFUSED.forEach((landing, i) => {
        assert.throws(() => core(landing), /Cannot build the landing URL/, `core refuses ${landing}`);
        assert.match(results[i]!.error ?? '', /^InvalidArgumentException: The landing address (must|has)/, landing);
      });
      assert.match(results[2]!.error!, /must not have a #fragment/);
      for (const i of [3, 4, 5, 6]) {
        assert.match(results[i]!.error!, /must not already carry an "i" parameter/, REFUSED[i]);
      }
    });

    test('an international host or a repaired address is refused with why, never written otherwise than core', async () => {
      for (const [landing, reason] of REFUSED_BY_PHP_ONLY) {
        assert.doesNotThrow(() => core(landing));
        const [r] = await php.call([['landing_url', landing, PARAMS, SUCCESS, FAIL]]);
        assert.match(r!.error ?? '', reason, landing);
      }
    });

    test('callbacks must be absolute http(s) URLs, named in the refusal', async () => {
      const results = await php.call([
        ['landing_url', 'https://pay.example.com/', PARAMS, '/thanks', FAIL],
        ['landing_url', 'https://pay.example.com/', PARAMS, SUCCESS, 'javascript:alert(1)'],
      ]);
      assert.throws(() => core('https://pay.example.com/', '/thanks'));
      assert.match(results[0]!.error ?? '', /callbacks\.success must be an absolute http\(s\) URL/);
      assert.match(results[1]!.error ?? '', /callbacks\.fail must be an absolute http\(s\) URL/);
    });
  });
}
