/**
 * The order panel's actions (Admin_Order_Panel::act) without WordPress
 * (test/php/admin.php): a refresh whose answer cannot be stored (the
 * database has gone away) is caught, noted and logged, never thrown to
 * admin-post.php; the next refresh applies the answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const PENDING = {
  status: 'pending',
  status_code: 2,
  operation_info: {
    id: 'op-1',
    from: { amount: 7900, currency: { code: 'EUR', decimals: 2 } },
    to: { currency: { code: 'BTC', decimals: 8 }, withdrawal_method_info: { blockchain_address: WALLET } },
  },
  partner_info: { operation_id: POID },
};

interface Step {
  returned?: boolean;
  error?: string;
  status: string;
  new_notes: string[];
  log: string[];
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Admin_Order_Panel`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('a refresh that fails on the database is noted and logged, not thrown; the next one applies the answer', async () => {
      const [failed, retried] = await php.runJson<Step[]>('admin.php', {
        'scenario.json': JSON.stringify(
          orderScenario({
            steps: [
              { do: 'refresh', service: [{ operation_data: PENDING }], db_fail: '/^INSERT IGNORE/' },
              { do: 'refresh', service: [{ operation_data: PENDING }] },
            ],
          }),
        ),
      });
      assert.equal(failed!.error, undefined, failed!.error);
      assert.equal(failed!.returned, false);
      assert.equal(failed!.status, 'pending');
      assert.equal(failed!.new_notes.length, 1);
      assert.match(failed!.new_notes[0]!, /shopadmin refreshed the payment from the service\. The answer could not be applied because of an internal error/);
      assert.ok(!failed!.new_notes[0]!.includes('MySQL'), 'database details stay in the log');
      assert.ok(failed!.log.some((l) => l.startsWith('error: Order 7: the refresh could not be applied') && l.includes('MySQL server has gone away')));

      assert.equal(retried!.returned, true);
      assert.equal(retried!.status, 'on-hold');
    });
  });
}
