/**
 * Named locks per site in a real store (issue 33, point 3): WordPress,
 * WooCommerce with its Action Scheduler, our plugins and the sandbox on the
 * native runtime (PHP-FPM, nginx, MariaDB). A named lock of MariaDB is one
 * for the whole server, so every lock of the plugin carries a hash of the
 * database and the table prefix (Shared_Store->lock_name()).
 *
 * A second connection to the site's MariaDB stands for the other stores of
 * the server and for this store's other servers, holding locks while the
 * store's steps run:
 *
 * - Another site's batch lock (the same database under another table
 *   prefix: a multisite network's second site), and the one name global to
 *   the server of the versions before, never stop this site's batch.
 * - This site's own batch lock busy: the batch queues exactly one next batch
 *   10 s later, however many tries find it busy, and that batch checks what
 *   is due once the lock is free.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/site-locks.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { partnerSecret, serviceKnows, storeStep, type Outcome, type Pending, type Seeded } from '../support/reconcile-store.js';
import { harness, needsNative, startTestStore, type TestStore } from '../support/test-store.js';

interface Run {
  rounds: Array<{ hook: 'batch' | 'per_order'; after: Pending; ended: number }>;
  pending: Pending;
}
interface State {
  orders: Record<string, { status: string; attempt: { checks: string; next_check_at: string | null } }>;
  pending: Pending;
}
interface LockNames {
  mine: string;
  other: string;
  global: string;
}

const ids = (seed: Seeded) => Array.from({ length: seed.last - seed.first + 1 }, (_, i) => seed.first + i);
const PAID = ['wc-processing', 'wc-completed'];

/**
 * One connection of its own to the site's MariaDB (the mariadb client, fed
 * one statement at a time): its named locks are held until it closes.
 */
class Connection {
  private out = '';
  private waiting: Array<(line: string) => void> = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<void>;

  constructor(socket: string) {
    const { name, user, password } = harness.DATABASE;
    this.child = spawn(
      harness.detectNative().programs.mariadb,
      ['--no-defaults', `--socket=${socket}`, `-u${user}`, `-p${password}`, name, '--batch', '--skip-column-names', '--unbuffered'],
      { stdio: 'pipe' },
    );
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.out += chunk;
      let end;
      while ((end = this.out.indexOf('\n')) >= 0 && this.waiting.length > 0) {
        const line = this.out.slice(0, end);
        this.out = this.out.slice(end + 1);
        this.waiting.shift()!(line);
      }
    });
  }

  /** The one-row answer of $sql, its columns tab-separated. */
  query(sql: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${sql}`)), 10_000);
      this.waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      this.child.stdin.write(`${sql};\n`);
    });
  }

  /** Takes the named locks (at once, or fails). */
  async hold(...names: string[]): Promise<void> {
    const got = await this.query(`SELECT ${names.map((n) => `GET_LOCK('${n}', 0)`).join(', ')}`);
    assert.equal(got, names.map(() => '1').join('\t'), `this connection holds ${names.join(', ')}`);
  }

  /** Ends the connection: the server releases its locks. */
  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill(), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

describe('named locks per site in a real store', { skip: needsNative, timeout: 5 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  let names: LockNames;
  const connections: Connection[] = [];
  /** A second connection to the site's database (closed after the tests at the latest). */
  const connect = (): Connection => {
    const c = new Connection(s.native!.dbSocket);
    connections.push(c);
    return c;
  };
  before(async () => {
    s = await startTestStore({ name: 'test-site-locks', port: 9741, sandboxPort: 9801 });
    secret = partnerSecret(s.dirs.harnessDir);
    await storeStep(s, 'settings', { reconcile_rate: '10' });
    names = await storeStep<LockNames>(s, 'lock_names');
  });
  after(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await s?.stop();
  });

  /** `count` stale attempts due now, the service knowing each as paid; one batch action due now. */
  const paidAttempts = async (count: number, tag: string): Promise<number[]> => {
    const seed = await storeStep<Seeded>(s, 'seed', { count, age: 7200, tag });
    const orders = ids(seed);
    await serviceKnows(
      s,
      secret,
      seed,
      orders.map((id) => [id, 'paid'] as [number, Outcome]),
    );
    return orders;
  };

  test('the batch lock is named per site: database and table prefix, at most 64 characters', () => {
    assert.match(names.mine, /^c2c:checkout_reconcile_batch:[0-9a-f]{20}$/);
    assert.notEqual(names.mine, names.other);
    assert.notEqual(names.mine, names.global);
  });

  test("another site's batch lock (another table prefix) and the old global name never stop this site's batch", async () => {
    const orders = await paidAttempts(3, 'a');
    const other = connect();
    await other.hold(names.other, names.global);

    const run = await storeStep<Run>(s, 'run', { seconds: 30, batch_seconds: 5 });
    assert.equal(run.rounds.length, 1, JSON.stringify(run.rounds));
    const state = await storeStep<State>(s, 'state', { orders });
    assert.deepEqual(
      orders.map((id) => state.orders[id]!.status).filter((x) => !PAID.includes(x)),
      [],
      "this site's batch checked every due attempt while the other locks were held",
    );
    assert.equal(
      await other.query(`SELECT CONCAT(IS_USED_LOCK('${names.other}') = CONNECTION_ID(), IS_FREE_LOCK('${names.mine}'))`),
      '11',
      'theirs still held, ours released',
    );
    await other.close();
  });

  test('its own batch lock busy: exactly one next batch 10 s later, however many tries; it checks once the lock is free', async () => {
    const orders = await paidAttempts(2, 'b');
    const other = connect();
    await other.hold(names.mine);

    const run = await storeStep<Run>(s, 'run', { seconds: 30, batch_seconds: 5 });
    assert.equal(run.rounds.length, 1, `the queued batch is not due yet: ${JSON.stringify(run.rounds)}`);
    const round = run.rounds[0]!;
    assert.equal(round.after.batch, 1, 'one batch queued');
    assert.ok(
      round.after.first! >= round.ended + 9 && round.after.first! <= round.ended + 10,
      `10 s later: queued for ${round.after.first}, the batch ended at ${round.ended}`,
    );

    // More tries at once (runners of several servers): still one batch pending, no sooner.
    const pending = await storeStep<Pending>(s, 'batch_now', { times: 3 });
    assert.deepEqual(pending, { batch: 1, per_order: 0, first: round.after.first }, 'never one batch per try');
    const waiting = await storeStep<State>(s, 'state', { orders });
    for (const id of orders) {
      assert.equal(waiting.orders[id]!.status, 'wc-pending', 'not checked while the lock is held');
      assert.equal(waiting.orders[id]!.attempt.checks, '0');
    }

    // The lock free, the queued batch (its time come) checks them.
    await other.close();
    const afterwards = await storeStep<Pending>(s, 'run_next');
    const state = await storeStep<State>(s, 'state', { orders });
    assert.deepEqual(
      orders.map((id) => state.orders[id]!.status).filter((x) => !PAID.includes(x)),
      [],
    );
    assert.equal(afterwards.batch, 0, 'nothing left due, nothing queued');
  });
});
