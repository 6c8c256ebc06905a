/**
 * The callback route (Callback_Controller::handle) without WordPress
 * (test/php/callback.php): answers per the spec for received, repeated and
 * forged callbacks; bodies over 64 KB refused with 413 before they are
 * parsed; an address with 20 refused callbacks in a minute answered 429
 * before its body is read; a signed but ambiguous body refused with 400.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
  order: string;
}

function op(holder = 'TEST BUYER') {
  return {
    status: 'pending',
    status_code: 2,
    operation_info: {
      id: 'op-1',
      from: { amount: 7900, currency: { code: 'EUR', decimals: 2 }, payment_method_info: { card_holder: holder } },
      to: { currency: { code: 'BTC', decimals: 8 }, withdrawal_method_info: { blockchain_address: WALLET } },
    },
    partner_info: { operation_id: POID },
  };
}

function scenario(requests: unknown[]) {
  return orderScenario({ requests });
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: callback route`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const send = (requests: unknown[]) => php.runJson<Answer[]>('callback.php', { 'scenario.json': JSON.stringify(scenario(requests)) });
    const brief = (a: Answer) => `${a.status} ${a.body}`;

    test('received, received again, forged: 200, 200 "already received", 401', async () => {
      const answers = await send([
        { ip: '10.0.0.1', sign: 'wrong', operation: op() },
        { ip: '10.0.0.1', sign: 'right', operation: op() },
        { ip: '10.0.0.1', sign: 'right', operation: op() },
      ]);
      assert.deepEqual(answers.map(brief), ['401 Wrong signature', '200 OK', '200 OK (already received)']);
      assert.deepEqual(
        answers.map((a) => a.order),
        ['pending', 'on-hold', 'on-hold'],
      );
    });

    test('a body over 64 KB is refused with 413 before it is parsed (by its declared length, or by what was read)', async () => {
      const answers = await send([
        { ip: '10.0.0.2', raw: 'x', raw_times: 65537 },
        { ip: '10.0.0.2', raw: '{}', headers: { 'Content-Length': '1048576' } },
        { ip: '10.0.0.2', raw: 'x', raw_times: 65536 },
      ]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [413, 413, 400],
        'junk of exactly 64 KB is read and refused as unparseable; one byte more is never parsed',
      );
    });

    test('20 refused callbacks in a minute: the address gets 429 before its body is read; other addresses do not', async () => {
      const answers = await send([
        { ip: '10.0.0.9', sign: 'wrong', operation: op(), repeat: 20 },
        { ip: '10.0.0.9', sign: 'wrong', operation: op() },
        { ip: '10.0.0.9', raw: 'x', raw_times: 70000 },
        { ip: '10.0.0.1', sign: 'right', operation: op() },
      ]);
      assert.deepEqual(
        answers.slice(0, 20).map((a) => a.status),
        Array(20).fill(401),
      );
      assert.equal(brief(answers[20]!), '429 Too Many Requests');
      assert.equal(answers[20]!.headers['Retry-After'], '60');
      assert.equal(answers[21]!.status, 429, 'the limit is checked before the body is read');
      assert.equal(brief(answers[22]!), '200 OK');
    });

    test('a signed body whose canonical string could stand for another body is refused with 400, nothing changed', async () => {
      const [answer] = await send([{ ip: '10.0.0.3', sign: 'right', operation: op('x;operation_data:status:success') }]);
      assert.equal(answer!.status, 400);
      assert.match(answer!.body, /card_holder/);
      assert.equal(answer!.order, 'pending');
    });
  });
}
