/**
 * The plugin's PHP writes the partner CSS exactly as @card2crypto/core's
 * partnerCss() does. (Landing addresses come from the shared library's one
 * builder, proved equal to core's buildLandingUrl() by
 * packages/php/test/suites/landing-url.ts.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { THEME_PROPERTIES, partnerCss } from '@card2crypto/core';
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
  });
}
