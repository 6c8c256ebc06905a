/**
 * The plugin's fiat table and exact order-total conversion against core's
 * reference data and toMinorUnits(), and the payment page's language for the
 * site's locale against core's PAYMENT_PAGE_LANGUAGES.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIAT_CURRENCIES, PAYMENT_PAGE_LANGUAGES, toMinorUnits } from '@card2crypto/core';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Currencies`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('decimals and limits equal core reference data, currency by currency', async () => {
      const table = await php.one<Record<string, [number, number, number]>>('fiat');
      const expected = Object.fromEntries(FIAT_CURRENCIES.map((c) => [c.code, [c.decimals, c.minMinor, c.maxMinor]]));
      assert.deepEqual(table, expected);
    });

    test("the payment page's language for the site's locale: a language it is offered in, else none (English; issue 32, point 7)", async () => {
      const locales: Array<[string, string]> = [
        ['de_DE', 'de'],
        ['de_CH_informal', 'de'],
        ['fr_FR', 'fr'],
        ['es_ES', 'es'],
        ['en_US', 'en'],
        ['ja', ''],
        ['it_IT', ''],
        ['', ''],
        ...PAYMENT_PAGE_LANGUAGES.map((l): [string, string] => [l.code, l.code]),
      ];
      const got = await php.call(locales.map(([locale]) => ['page_language', locale]));
      assert.deepEqual(
        got.map((r, i) => [locales[i]![0], r.error ?? r.value]),
        locales,
      );
    });

    test('order totals convert exactly, as core does', async () => {
      const cases: Array<[string, string]> = [
        ['123.45', 'EUR'],
        ['0.10', 'USD'],
        ['1.005', 'BHD'],
        ['100000', 'KRW'],
        ['19.900000', 'EUR'],
        ['4999.99', 'GBP'],
        ['0.07', 'EUR'],
      ];
      const refused: Array<[string, string]> = [
        ['1.234', 'EUR'],
        ['1.5', 'KRW'],
        ['1e3', 'EUR'],
        ['12,50', 'EUR'],
      ];
      const got = await php.call([...cases, ...refused].map(([amount, code]) => ['to_minor', amount, code]));
      assert.deepEqual(
        got.slice(0, cases.length).map((r, i) => [...cases[i]!, r.error ?? r.value]),
        cases.map(([amount, code]) => [amount, code, toMinorUnits(amount, code)]),
      );
      refused.forEach(([amount, code], i) => {
        assert.ok(got[cases.length + i]!.error, `${amount} ${code} must be refused`);
        assert.throws(() => toMinorUnits(amount, code));
      });
    });

    test('limits: one minor unit outside is refused, the edges are accepted', async () => {
      const got = await php.call([
        ['limit_problem', 4999, 'EUR'],
        ['limit_problem', 5000, 'EUR'],
        ['limit_problem', 500000, 'EUR'],
        ['limit_problem', 500001, 'EUR'],
        ['limit_problem', 5000, 'XYZ'],
      ]);
      assert.deepEqual(
        got.map((r) => r.error ?? r.value),
        [{ rule: 'min', limit: 5000 }, null, null, { rule: 'max', limit: 500000 }, { rule: 'currency', limit: 0 }],
      );
    });
  });
}
