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
      for (const [locale, lang] of [
        ['de_DE', 'de'],
        ['de_CH_informal', 'de'],
        ['fr_FR', 'fr'],
        ['es_ES', 'es'],
        ['en_US', 'en'],
        ['ja', ''],
        ['it_IT', ''],
        ['', ''],
      ]) {
        assert.equal(await php.one('page_language', locale), lang, locale);
      }
      for (const l of PAYMENT_PAGE_LANGUAGES) {
        assert.equal(await php.one('page_language', l.code), l.code);
      }
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
      for (const [amount, code] of cases) {
        assert.equal(await php.one('to_minor', amount, code), toMinorUnits(amount, code), `${amount} ${code}`);
      }
      for (const [amount, code] of [
        ['1.234', 'EUR'],
        ['1.5', 'KRW'],
        ['1e3', 'EUR'],
        ['12,50', 'EUR'],
      ]) {
        const [r] = await php.call([['to_minor', amount, code]]);
        assert.ok(r!.error, `${amount} ${code} must be refused`);
        assert.throws(() => toMinorUnits(amount!, code!));
      }
    });

    test('limits: one minor unit outside is refused, the edges are accepted', async () => {
      assert.deepEqual(await php.one('limit_problem', 4999, 'EUR'), { rule: 'min', limit: 5000 });
      assert.equal(await php.one('limit_problem', 5000, 'EUR'), null);
      assert.equal(await php.one('limit_problem', 500000, 'EUR'), null);
      assert.deepEqual(await php.one('limit_problem', 500001, 'EUR'), { rule: 'max', limit: 500000 });
      assert.deepEqual(await php.one('limit_problem', 5000, 'XYZ'), { rule: 'currency', limit: 0 });
    });
  });
}
