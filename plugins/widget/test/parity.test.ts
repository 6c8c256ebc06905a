/**
 * The plugin's PHP writes the partner CSS and the landing addresses exactly
 * as @card2crypto/core does (partnerCss, buildLandingUrl), and core reads
 * them back (parseLandingUrl).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { THEME_PROPERTIES, buildLandingUrl, parseLandingUrl, partnerCss, sign } from '@card2crypto/core';
import { TEST_PHP_VERSIONS, PluginPhp } from './support/php.js';

/** Theme name (primaryFill) => settings field id (color_primary_fill). */
const fieldId = (name: string): string => `color_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

const COLOR_VECTORS: Record<string, string>[] = [
  {},
  { primaryFill: '#FF0000' },
  { primaryFill: '#6A42E9', boxShadow: 'rgba(40,51,78,0.3)' },
  { boxShadow: '  RGBA( 0,  0, 0 , 0.5 ) ' },
  { primaryText: 'rebeccapurple', secondaryText: 'hsl(120deg 50% 50% / 40%)', formStrokeColor: '#abcd' },
  { backgroundColor: 'Transparent', successColor: 'rgb(0 210 168)', warningColor: '#df3e6f' },
  Object.fromEntries(THEME_PROPERTIES.map((t, i) => [t.name, `#${(i + 1).toString(16).repeat(6)}`])),
];

const PARAMS = {
  target_element: 'c2c-landing-0123456789ab',
  partner_token: 'partner-token-1',
  from_currency: 'EUR',
  from_amount: 10000,
  to_currency: 'BTC',
  lang: 'de',
  partner_css: 'https://shop.example/wp-json/card2crypto-widget/v1/partner.css?v=abc',
  timestamp: 1_767_225_600_123,
};
const signed = { ...PARAMS, signature: sign(PARAMS, 'secret', { form: 'simple' }) };

const LANDINGS = [
  'http://127.0.0.1:8787/landing',
  'https://pay.example/landing/',
  'https://pay.example',
  'https://pay.example/l?partner=shop&x=1',
  'https://pay.example:8443/a/b',
];
const CALLBACKS = [
  ['https://shop.example/?card2crypto=success', 'https://shop.example/?card2crypto=fail'],
  ['https://shop.example/thank-you/', 'https://shop.example/sorry/?a=1&b=ü'],
];

for (const version of TEST_PHP_VERSIONS) {
  describe(`parity with core on PHP ${version}`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php.exit());

    test('partner CSS is byte for byte core partnerCss() (empty when nothing differs from the defaults)', async () => {
      const results = await php.call(COLOR_VECTORS.map((v) => ['partner_css', Object.fromEntries(Object.entries(v).map(([k, x]) => [fieldId(k), x]))]));
      COLOR_VECTORS.forEach((values, i) => {
        const expected = partnerCss(values);
        assert.equal(results[i]!.value, expected === '.widgetColor {\n}\n' ? '' : expected, JSON.stringify(values));
      });
    });

    test('an invalid colour is left out and the others are kept', async () => {
      const css = await php.one<string>('partner_css', { color_primary_fill: 'red;}body{display:none', color_primary_text: '#000000' });
      assert.equal(css, partnerCss({ primaryText: '#000000' }));
    });

    test('landing addresses are byte for byte core buildLandingUrl(), and core reads them back', async () => {
      for (const landing of LANDINGS) {
        for (const [success, fail] of CALLBACKS) {
          const url = await php.one<string>('landing_url', landing, signed, success, fail);
          assert.equal(url, buildLandingUrl(landing, { params: signed, callbacks: { success: success!, fail: fail! } }));
          const parsed = parseLandingUrl(url, { validateParams: true });
          assert.ok(parsed.ok, JSON.stringify(parsed));
          assert.deepEqual(parsed.payload, { params: signed, callbacks: { success, fail } });
        }
      }
    });

    test('a landing address that cannot carry the payload is refused', async () => {
      const results = await php.call([
        ['landing_url', 'ftp://pay.example/landing', signed, 'https://a.example', 'https://b.example'],
        ['landing_url', 'https://pay.example/landing#top', signed, 'https://a.example', 'https://b.example'],
        ['landing_url', 'https://pay.example/landing?i=1', signed, 'https://a.example', 'https://b.example'],
      ]);
      for (const r of results) assert.match(String(r.error), /InvalidArgumentException/);
    });
  });
}
