/**
 * Clock_Refusal on the oldest and newest supported PHP: which refusal of
 * the service is one for the request's timestamp (the store's clock is off,
 * no news about a payment), and how far off the clock is, in the owner's
 * words (behind: a positive offset, the service's clock minus ours).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Clock_Refusal`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('only a 400 invalid_parameter on the timestamp field is a clock refusal', async () => {
      const base = { kind: 'http', endpoint: 'operation/info', status: 400, code: 'invalid_parameter', field: 'timestamp' };
      const cases: Array<[Record<string, unknown>, boolean]> = [
        [base, true],
        [{ ...base, field: 'amount' }, false],
        [{ ...base, code: 'invalid_signature' }, false],
        [{ ...base, status: 401 }, false],
        [{ ...base, kind: 'timeout', status: 0 }, false],
      ];
      const got = await php.call(cases.map(([details]) => ['clock_refusal', details]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], JSON.stringify(cases[i]![0])));
    });

    test('the offset in words: behind, ahead, one second, unknown', async () => {
      const cases: Array<[number | null, string]> = [
        [12_000, "this server's clock is 12 seconds behind the service's (5 seconds behind at most are accepted)."],
        [1_000, "this server's clock is 1 second behind the service's (5 seconds behind at most are accepted)."],
        [-45_000, "this server's clock is 45 seconds ahead of the service's (30 seconds ahead at most are accepted)."],
        [null, "this server's clock is off (the service did not say its own time)."],
      ];
      const got = await php.runJson<Array<{ value?: string; error?: string }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify(cases.map(([offset]) => ['clock', offset])),
      });
      assert.deepEqual(
        got.map((r) => r.value ?? r.error),
        cases.map(([, words]) => words),
      );
    });
  });
}
