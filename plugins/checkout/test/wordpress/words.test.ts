/**
 * What the owner reads, in a real store (issue 32, points 5 and 6):
 * WordPress, WooCommerce, our plugins and the sandbox on the native runtime
 * (PHP-FPM, nginx, MariaDB); each screen rendered as the admin renders it.
 *
 * - An order paid twice (two operations succeeded; the owner is mailed
 *   "paid twice: refund one") says so in its order panel: both payments,
 *   which one is the duplicate, and "paid twice" beside the amount.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/words.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { phpStep } from '../support/reconcile-store.js';
import { REPO_DIR } from '../support/php.js';
import { needsNative, startTestStore, type TestStore } from '../support/test-store.js';

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'words-steps.php');

/** A panel row's text by its data-card2crypto name (tags dropped, entities of the money decoded). */
function row(panel: string, name: string): string | null {
  const found = new RegExp(`<dd data-card2crypto="${name}">([\\s\\S]*?)</dd>`).exec(panel);
  return found
    ? found[1]!
        .replace(/<\/li><li>/g, '\n')
        .replace(/<[^>]+>/g, '')
        .replace(/&euro;/g, '€')
        .replace(/&#8364;/g, '€')
    : null;
}

describe('what the owner reads, in a real store', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);
  before(async () => {
    s = await startTestStore({ name: 'test-words', port: 9931, sandboxPort: 9981 });
  });
  after(() => s?.stop());

  test('an order paid twice: both payments in its panel, the duplicate named, "paid twice" beside the amount', async () => {
    const order = await step<{ id: number; status: string; outcomes: string[]; notes: string[]; panel: string }>('paid_twice');
    assert.deepEqual(order.outcomes, ['applied', 'applied']);
    assert.ok(
      order.notes.some((n) => n.includes('The buyer paid twice: refund one of them.')),
      order.notes.join('\n'),
    );
    const first = `op-first-${order.id}`;
    const second = `op-second-${order.id}`;

    const paid = row(order.panel, 'paid');
    assert.ok(paid, order.panel);
    assert.match(paid, /^€79\.00 \+ €79\.00: paid twice\. Refund the duplicate payment\.$/, paid);
    const payments = row(order.panel, 'payments');
    assert.equal(payments, `${first}: €79.00, paid the order\n${second}: €79.00, duplicate: refund it`, order.panel);
    assert.equal(row(order.panel, 'other-operations'), null, 'each payment once, in its list');
  });

  test('one address for every order: a testnet wallet links to the testnet explorer; a sandbox transaction is never linked', async () => {
    const wallet = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
    const explorer = 'https://mempool.space/testnet/tx/tx-live';
    type Paid = { id: number; status: string; outcomes: string[]; notes: string[]; panel: string };
    const live = await step<Paid>('paid_once', { wallet, explorer, test: false });
    assert.deepEqual(live.outcomes, ['applied']);
    assert.match(live.panel, new RegExp(`href="https://mempool\\.space/testnet/address/${wallet}"`), live.panel);
    assert.ok(
      live.notes.some((n) => n.includes(`Explorer: ${explorer}`)),
      live.notes.join('\n'),
    );

    const simulated = await step<Paid>('paid_once', { wallet, explorer, test: true });
    assert.deepEqual(simulated.outcomes, ['applied']);
    const note = simulated.notes.find((n) => n.includes('BTC transaction:')) ?? '';
    assert.match(note, /the sandbox simulated this transaction; it is not on the blockchain/, simulated.notes.join('\n'));
    assert.ok(!note.includes('mempool.space'), note);
    assert.ok(!simulated.panel.includes('/tx/'), simulated.panel);
  });
});
