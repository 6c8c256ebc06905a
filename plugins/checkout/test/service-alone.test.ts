/**
 * A class tested alone (issue 34, point 2): Service_Health built with only
 * what its constructor takes, a service door of the test's own (the
 * Service_Door interface the plugin's Service_Gateway implements), whose
 * clients answer from recorded answers signed as the service signs them; no
 * Plugin::boot(), no other service, no WordPress beyond the options
 * (test/php/alone.php). It asks in the buyer's lane, applies the answer,
 * reports a refusal of the store, and after a 429 asks nobody until the
 * Retry-After has passed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface Step {
  result: boolean;
  lanes: string[];
  sent: string[];
  state: string | null;
  reason: string | null;
  waits: number | null;
  actions: string[];
  left: number;
}

const PARAMS_OK = { signed: { service_fee: 0.01 } };
const BLOCKED = { status: 403, body: { error: { code: 'partner_blocked', message: 'this partner is blocked' } } };
const BUSY = { status: 429, body: { error: { code: 'too_many_requests', message: 'slow down', retry_after: 30 } } };

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Service_Health alone, with a door of the test's own`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const run = (steps: unknown[]) => {
      const { settings } = orderScenario();
      return php.runJson<{ steps: Step[]; buyer: string }>('alone.php', {
        'scenario.json': JSON.stringify({ settings, class: 'Service_Health', steps }),
      });
    };

    test('a buyer starting to pay: one signed params request in the start lane, the acceptance recorded, then trusted', async () => {
      const { steps } = await run([
        { do: 'confirm', answers: [PARAMS_OK] },
        { do: 'available', answers: [] },
      ]);
      assert.deepEqual(steps[0], {
        result: true,
        lanes: ['start'],
        sent: ['/api/partner/params'],
        state: 'ok',
        reason: '',
        waits: null,
        actions: [],
        left: 0,
      });
      // A checkout page reads the fresh acceptance: the method is offered, nothing is asked.
      assert.equal(steps[1]!.result, true);
      assert.deepEqual(steps[1]!.sent, []);
    });

    test('a refusal of the store: reported (withdrawn, the owner told through the action), the buyer in plain words', async () => {
      const { steps, buyer } = await run([
        { do: 'confirm', answers: [PARAMS_OK] },
        { do: 'confirm', answers: [BLOCKED] },
        { do: 'available', answers: [] },
      ]);
      assert.equal(steps[1]!.result, false);
      assert.deepEqual(steps[1]!.sent, ['/api/partner/params']);
      assert.equal(steps[1]!.state, 'refused');
      assert.match(steps[1]!.reason ?? '', /block/i);
      assert.deepEqual(steps[1]!.actions, ['card2crypto_checkout_service_refused']);
      assert.equal(steps[2]!.result, false, 'the method is withdrawn from the checkout');
      assert.equal(buyer, 'Card payment is unavailable right now. Please try again later.');
    });

    test("a 429 before any answer: the method stays offered and nobody asks again before the service's Retry-After", async () => {
      const { steps } = await run([
        { do: 'confirm', answers: [BUSY] },
        { do: 'confirm', answers: [PARAMS_OK] },
      ]);
      assert.equal(steps[0]!.result, true);
      assert.equal(steps[0]!.state, 'busy');
      assert.ok(steps[0]!.waits !== null && steps[0]!.waits > 0 && steps[0]!.waits <= 60, `waits ${steps[0]!.waits}`);
      assert.deepEqual(steps[1]!.sent, [], 'not asked while the service said to wait');
      assert.equal(steps[1]!.left, 1);
    });
  });
}
