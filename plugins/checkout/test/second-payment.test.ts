/**
 * No second payment while one may be under way (issue 15, point 4): before a
 * new attempt starts (or the current one is signed again), the store asks the
 * service about every earlier attempt that is not final here, applies the
 * answer (a success completes the order) and decides: Attempt_Policy's pure
 * verdict on the oldest and newest PHP, and Payment_Flows::start() /
 * fitting() against a fake service (what is asked, what starts, what
 * the buyer is told, the order note).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';

interface Held {
  kind: string;
  type: string;
  message: string;
  retry: boolean;
}
interface Step {
  cancelled?: string[];
  started?: string;
  held?: Held;
  error?: string;
  status: string;
  new_notes: string[];
  attempts: string[];
  service_calls: number;
  budget: number;
}

const STATUS_OF: Record<number, string> = { 1: 'pending', 2: 'pending', 3: 'pending', 0: 'success', 6: 'success', 8: 'awaiting confirm' };
const UNKNOWN = { status: 400, error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no such operation' } };

/** Card data as the service shows it once the buyer entered a card (before that: {}). */
const CARD = { number: '424242******4242', type: 'VISA' };

function op(code: number, createdAt?: string, id = 'op-1', extra: { card?: Record<string, string>; statusUrl?: string } = {}) {
  return {
    operation_data: {
      status: STATUS_OF[code] ?? 'declined',
      status_code: code,
      operation_info: {
        id,
        ...(createdAt ? { created_at: createdAt } : {}),
        ...(extra.statusUrl ? { status_url: extra.statusUrl } : {}),
        from: { amount: 7900, currency: { code: 'EUR', decimals: 2 }, ...(extra.card ? { payment_method_info: extra.card } : {}) },
        to: {
          amount: 120000,
          currency: { code: 'BTC', decimals: 8 },
          withdrawal_method_info: {
            blockchain_address: WALLET,
            blockchain_tx_id: 'ab12cd',
            blockchain_explorer_url: 'https://mempool.space/testnet/tx/ab12cd',
          },
        },
      },
      partner_info: { operation_id: POID },
    },
  };
}

/** A time as the service writes it, `minutes` ago. */
const serviceTime = (minutes: number) => `${new Date(Date.now() - minutes * 60_000).toISOString().slice(0, 23)}0000Z`;
/** HH:MM in UTC (the fakes have no wp_date(): the site's zone is UTC). */
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

const HOUR = 3600;

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: no second payment while one may be under way`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    // Many presses within a second: the store-wide budget (service_rate) is set out of the way; it is not what these test.
    const play = (steps: unknown[], order: { status?: string } = {}) =>
      php.runJson<Step[]>('second.php', {
        'scenario.json': JSON.stringify(orderScenario({ settings: { auto_confirm: 'no', service_rate: '100' }, order, steps })),
      });

    test('the verdict: unknown and final failures never block, the strongest reason wins, created blocks only within its window', async () => {
      const now = 1_800_000_000;
      const answered = (status: string, status_code: number, started = now - 600) => ({ asked: 'answered', status, status_code, started });
      const cases: Array<[boolean, unknown[], unknown, string]> = [
        [false, [], { verdict: 'clear' }, 'no earlier attempt'],
        [false, [{ asked: 'unknown' }], { verdict: 'clear' }, 'the buyer never created an operation'],
        [false, [answered('declined', 101), answered('declined', 102)], { verdict: 'clear' }, 'final failures'],
        [false, [answered('pending', 2)], { verdict: 'under_way', answer: 0 }, 'money received'],
        [false, [answered('awaiting confirm', 8)], { verdict: 'under_way', answer: 0 }, 'awaiting the partner'],
        [false, [answered('success', 6)], { verdict: 'under_way', answer: 0 }, 'a success the order did not take'],
        [false, [answered('pending', 99)], { verdict: 'under_way', answer: 0 }, 'a pair outside the model'],
        [false, [{ asked: 'unreachable' }], { verdict: 'unconfirmed', answer: 0 }, 'the service could not be asked'],
        [false, [answered('pending', 1)], { verdict: 'open', answer: 0, started: now - 600, until: now - 600 + HOUR }, 'created 10 minutes ago'],
        [false, [answered('pending', 1, now - HOUR)], { verdict: 'clear' }, 'created an hour ago: the window has ended'],
        [false, [answered('pending', 1), { asked: 'unreachable' }], { verdict: 'unconfirmed', answer: 1 }, 'unreachable outranks open'],
        [false, [{ asked: 'unreachable' }, answered('pending', 3), answered('pending', 1)], { verdict: 'under_way', answer: 1 }, 'under way outranks all'],
        [
          false,
          [answered('pending', 1, now - 900), answered('pending', 1, now - 60)],
          { verdict: 'open', answer: 1, started: now - 60, until: now - 60 + HOUR },
          'the later window',
        ],
        [false, [{ ...answered('pending', 1), card: false }], { verdict: 'clear', cancel: [0] }, 'created, no card entered: start again, ending it first'],
        [
          false,
          [answered('declined', 101), { ...answered('pending', 1), card: false }, { ...answered('pending', 1, now - 2 * HOUR), card: false }],
          { verdict: 'clear', cancel: [1, 2] },
          'every card-less created one is ended',
        ],
        [
          false,
          [{ ...answered('pending', 1), card: false }, answered('pending', 2)],
          { verdict: 'under_way', answer: 1 },
          'nothing is ended when another blocks',
        ],
        [true, [answered('pending', 2)], { verdict: 'paid', answer: 0 }, 'the order is paid'],
        [true, [answered('declined', 101)], { verdict: 'paid' }, 'paid, nothing else in the way'],
      ];
      const got = await php.call(cases.map(([paid, answers]) => ['before_new_payment', paid, answers, now, HOUR]));
      got.forEach((r, i) => assert.deepEqual(r.value, cases[i]![2], `${cases[i]![3]}: ${JSON.stringify(r)}`));
    });

    test('two presses of Pay at once: the one that finds an attempt started while it asked the service joins it, no second attempt', async () => {
      // Issue 26: the second press (on this web server or another) passed the gate while the first started its attempt.
      const [press] = await play([{ call: 'start', service: [UNKNOWN], meanwhile: true }]);
      assert.equal(press!.started, 'wc-7-meanwhile', JSON.stringify(press));
      assert.deepEqual(press!.attempts, [`${POID}  -1`, 'wc-7-meanwhile  -1'], 'no third attempt');
      // A press after that one, with nothing started meanwhile, is a new payment as before (the service asked about the current one).
      const [later] = await play([{ call: 'start', service: [UNKNOWN] }]);
      assert.match(later!.started ?? '', /^wc-7-[0-9a-f]{24}$/);
    });

    test('pending 2 at the service, no callback received: asked once, applied, no new attempt, the buyer told it is under way', async () => {
      const [step] = await play([{ service: [op(2)] }]);
      assert.equal(step!.error, undefined, step!.error);
      assert.equal(step!.service_calls, 1);
      assert.equal(step!.held!.kind, 'in_progress');
      assert.match(step!.held!.message, /^A card payment for this order is already under way\..*do not pay again/);
      assert.equal(step!.held!.retry, false);
      assert.deepEqual(step!.attempts, [`${POID} pending 2`], 'no second attempt');
      assert.equal(step!.status, 'on-hold', 'money received: the order waits for the service (the order mapping)');
      assert.ok(
        step!.new_notes.some((n) => n.includes('found when the buyer asked to pay again')),
        step!.new_notes.join('\n'),
      );
      assert.ok(
        step!.new_notes.some((n) => n.includes('asked to pay again') && n.includes('The buyer was told: "A card payment for this order is already under way.')),
      );
    });

    test('success at the service: the order is recorded paid and the buyer sent to it, no new attempt', async () => {
      for (const call of ['start', 'fitting']) {
        const [step] = await play([{ call, service: [op(6)] }]);
        assert.equal(step!.error, undefined, step!.error);
        assert.equal(step!.held!.kind, 'paid', call);
        assert.equal(step!.status, 'processing');
        assert.deepEqual(step!.attempts, [`${POID} success 6`]);
      }
    });

    test('created 1 within its window: finish it or start again after the time; past the window a new attempt starts', async () => {
      const startedMs = Date.now() - 10 * 60_000;
      const status = 'https://status.service.test/op/op-1';
      const [open] = await play([
        { attempt: { status: '', status_code: -1, minutes_ago: 12 }, service: [op(1, serviceTime(10), 'op-1', { card: CARD, statusUrl: status })] },
      ]);
      assert.equal(open!.error, undefined, open!.error);
      assert.equal(open!.held!.kind, 'open');
      assert.equal(
        open!.held!.message,
        `A payment for this order was started at ${hhmm(startedMs)} and card details were entered, so it may still go through. Finish it in the window where you started it, or start again after ${hhmm(startedMs + HOUR * 1000)}, when it ends.`,
      );
      assert.deepEqual((open!.held as unknown as { link: unknown }).link, { url: status, text: 'See how that payment stands' });
      assert.deepEqual(open!.attempts, [`${POID} pending 1`]);
      assert.deepEqual(open!.cancelled, []);
      assert.ok(open!.new_notes.some((n) => n.includes('The buyer was told: "A payment for this order was started at')));

      const [late] = await play([{ attempt: { status: '', status_code: -1, minutes_ago: 70 }, service: [op(1, serviceTime(65), 'op-1', { card: CARD })] }]);
      assert.equal(late!.error, undefined, late!.error);
      assert.ok(late!.started && late!.started !== POID, JSON.stringify(late));
      assert.equal(late!.attempts.length, 2);
    });

    test('a created_at in the future never lengthens the payment window: it is counted from now', async () => {
      const nowMs = Date.now();
      const [open] = await play([{ attempt: { status: '', status_code: -1, minutes_ago: 1 }, service: [op(1, serviceTime(-30), 'op-1', { card: CARD })] }]);
      assert.equal(open!.held!.kind, 'open');
      const afterTime = /start again after (\d\d:\d\d)/.exec(open!.held!.message)?.[1];
      // Now plus the window (not 30 minutes later still): the minute it was asked in, or the next.
      assert.ok([hhmm(nowMs + HOUR * 1000), hhmm(nowMs + HOUR * 1000 + 60_000)].includes(afterTime!), `${afterTime} in ${open!.held!.message}`);
    });

    test('the service is asked about the attempt every time, even to sign it again a moment later: a payment may just have started there', async () => {
      const [signed, again, moving] = await play([
        { call: 'fitting', service: [UNKNOWN] },
        { call: 'fitting', service: [UNKNOWN] },
        { call: 'fitting', service: [op(2)] },
      ]);
      assert.equal(signed!.started, POID);
      assert.equal(again!.started, POID, 'signed again');
      assert.equal(again!.service_calls, 1);
      assert.equal(moving!.service_calls, 1);
      assert.equal(moving!.held!.kind, 'in_progress', 'money moving a moment after: not signed again');
    });

    test('one pass through the gate per start: the budget is charged once per start, and past it the service is not asked', async () => {
      // Signed again eleven times (a reuse), then a new start: each counts once; the thirteenth is refused before any call.
      const steps = [...Array.from({ length: 12 }, () => ({ call: 'fitting', service: [UNKNOWN] })), { call: 'start', service: [UNKNOWN] }];
      const got = await play(steps);
      got.slice(0, 12).forEach((step, i) => {
        assert.equal(step.error, undefined, `start ${i + 1}: ${step.error}`);
        assert.equal(step.started, POID, `start ${i + 1} signs the attempt again`);
        assert.equal(step.budget, i + 1, `start ${i + 1} is charged once`);
        assert.equal(step.service_calls, 1, `start ${i + 1} asks the service once`);
      });
      const over = got[12]!;
      assert.equal(over.budget, 13, 'the refused start is counted too');
      assert.equal(over.service_calls, 0, 'past the budget nothing is asked');
      assert.equal(over.started, undefined);
      assert.match(over.error ?? '', /Payment_Refused: Too many payment requests for this order in a short time/);
    });

    test('the budget holds across web servers: a server whose object cache never saw the earlier requests still counts them', async () => {
      // Issue 26: each step on "another server" (no transient of the earlier steps); the thirteenth is still refused.
      const got = await play(Array.from({ length: 13 }, () => ({ call: 'fitting', service: [UNKNOWN], other_server: true })));
      got.slice(0, 12).forEach((step, i) => assert.equal(step.budget, i + 1, `start ${i + 1} is counted`));
      assert.match(got[12]!.error ?? '', /Payment_Refused: Too many payment requests for this order in a short time/);
      assert.equal(got[12]!.service_calls, 0);
    });

    test('the buyer closed the payment window before entering a card: the earlier operation is cancelled and a new payment starts at once', async () => {
      const [again] = await play([
        { attempt: { status: '', status_code: -1, minutes_ago: 2 }, service: [op(1, serviceTime(1), 'op-1', { card: {} }), { empty: true }] },
      ]);
      assert.equal(again!.error, undefined, again!.error);
      assert.ok(again!.started && again!.started !== POID, JSON.stringify(again));
      assert.deepEqual(again!.cancelled, ['op-1']);
      assert.ok(
        again!.new_notes.some((n) => n.includes('no card had been entered, was cancelled at the service')),
        again!.new_notes.join('\n'),
      );
      // The service refuses the cancellation: nothing was charged, the buyer still starts again; the owner is told what could happen.
      const [refused] = await play([
        {
          attempt: { status: '', status_code: -1, minutes_ago: 2 },
          service: [op(1, serviceTime(1), 'op-1', { card: {} }), { status: 400, error: { code: 'invalid_state', message: 'cannot be cancelled' } }],
        },
      ]);
      assert.ok(refused!.started && refused!.started !== POID);
      assert.ok(refused!.new_notes.some((n) => n.includes('could not be cancelled at the service') && n.includes('paid twice')));
    });

    test('after a final decline, and for an attempt the service does not know, a new payment starts normally', async () => {
      const [declined] = await play([{ service: [op(101)] }]);
      assert.equal(declined!.error, undefined, declined!.error);
      assert.ok(declined!.started && declined!.started !== POID);
      assert.deepEqual(declined!.attempts.slice(0, 1), [`${POID} declined 101`]);
      const [unknown] = await play([{ service: [UNKNOWN] }]);
      assert.ok(unknown!.started && unknown!.started !== POID, JSON.stringify(unknown));
      // Reused (fitting): the attempt the service does not know is signed again, after asking once.
      const [reused] = await play([{ call: 'fitting', service: [UNKNOWN] }]);
      assert.equal(reused!.started, POID);
      assert.equal(reused!.service_calls, 1);
      // Known final here for longer than a payment window: not asked again.
      const [known] = await play([{ attempt: { status: 'declined', status_code: 104, minutes_ago: 61 } }]);
      assert.equal(known!.service_calls, 0);
      assert.ok(known!.started && known!.started !== POID);
      // Declined a moment ago: asked once more (the buyer may have tried again inside the widget), then a new payment.
      const [recent] = await play([{ attempt: { status: 'declined', status_code: 104 }, service: [op(104)] }]);
      assert.equal(recent!.service_calls, 1);
      assert.ok(recent!.started && recent!.started !== POID);
    });

    test('declined, then the buyer paid again inside the widget: Pay again finds the new operation and does not start a third payment', async () => {
      const [paid] = await play([{ attempt: { status: 'declined', status_code: 104 }, service: [op(6, undefined, 'op-2')] }]);
      assert.equal(paid!.error, undefined, paid!.error);
      assert.equal(paid!.service_calls, 1);
      assert.equal(paid!.held!.kind, 'paid');
      assert.equal(paid!.status, 'processing');
      assert.deepEqual(paid!.attempts, [`${POID} success 6`], 'no new attempt');
      const [moving] = await play([{ attempt: { status: 'declined', status_code: 104 }, service: [op(2, undefined, 'op-2')] }]);
      assert.equal(moving!.held!.kind, 'in_progress');
      assert.deepEqual(moving!.attempts, [`${POID} pending 2`]);
    });

    test('the service cannot be asked: no second payment, "try again in a few minutes"', async () => {
      const [step] = await play([{ service: [{ network: true }] }]);
      assert.equal(step!.error, undefined, step!.error);
      assert.equal(step!.held!.kind, 'unconfirmed');
      assert.match(step!.held!.message, /try again in a few minutes/);
      assert.deepEqual(step!.attempts, [`${POID}  -1`]);
      assert.ok(step!.new_notes.some((n) => n.includes('the service could not be asked')));
    });

    test('what the store knows already blocks too: money moving locally is never paid twice', async () => {
      const [step] = await play([{ attempt: { status: 'pending', status_code: 3 }, service: [op(3)] }]);
      assert.equal(step!.held!.kind, 'in_progress');
      assert.equal(step!.attempts.length, 1);
    });
  });
}
