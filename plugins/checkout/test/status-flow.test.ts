/**
 * PHP Status_Flow against core's status model: the committed vector file is
 * what core answers today, and PHP gives the same answer for every case, on
 * the oldest and newest PHP the plugin supports.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PLUGIN_DIR, PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';
import { buildStatusVectors, type StatusVectors } from './support/status-vectors.js';

const committed = JSON.parse(readFileSync(path.join(PLUGIN_DIR, 'test/vectors/status-transitions.json'), 'utf8')) as StatusVectors;

test('the committed status vectors are what core decides today', () => {
  assert.deepEqual(committed, JSON.parse(JSON.stringify(buildStatusVectors())), 'regenerate with npm run vectors -w plugins/checkout');
  assert.ok(committed.transitions.length >= 500);
  for (const action of ['apply', 'ignore', 'review']) {
    assert.ok(
      committed.transitions.some((t) => t.expect.action === action),
      action,
    );
  }
});

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Status_Flow`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('decide() equals core decideTransition() for every pair', async () => {
      const answers = await php.one<Array<{ action: string; why?: string }>>(
        'decide_all',
        committed.transitions.map(({ from, to }) => ({ from, to })),
      );
      const wrong = committed.transitions
        .map((t, i) => ({ t, got: answers[i] }))
        .filter(({ t, got }) => JSON.stringify(got) !== JSON.stringify(t.expect))
        .map(({ t, got }) => `${JSON.stringify(t.from)} -> ${JSON.stringify(t.to)}: core ${JSON.stringify(t.expect)}, PHP ${JSON.stringify(got)}`);
      assert.deepEqual(wrong, []);
    });

    test('leading(): which operation of an attempt speaks for it (a success, then one that may be paid, then the latest ending)', async () => {
      const op = (status: string, status_code: number) => ({ status, status_code });
      const none = op('', -1);
      const cases: Array<[Array<{ status: string; status_code: number }>, number | null, string]> = [
        [[], null, 'no operation'],
        [[none], null, 'no state yet'],
        [[op('declined', 104), op('pending', 1)], 1, 'tried again after a decline: the new one'],
        [[op('declined', 104), op('declined', 102)], 1, 'both ended: the latest'],
        [[op('success', 6), op('declined', 104)], 0, 'a late decline of another does not hide the success'],
        [[op('pending', 2), op('declined', 101)], 0, 'money moving outranks an ending'],
        [[op('pending', 2), op('awaiting confirm', 8)], 1, 'two under way: the latest'],
        [[op('declined', 101), op('pending', 99)], 0, 'a pair outside the model never speaks'],
        [[op('pending', 1), none], 0, 'an operation with no state yet never speaks'],
      ];
      const got = await php.call(cases.map(([ops]) => ['leading', ops]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], cases[i]![2]));
    });

    test('classify() equals core classify() for every pair', async () => {
      const results = await php.call(committed.classify.map(({ state }) => ['classify', state.status, state.status_code]));
      results.forEach((r, i) => assert.deepEqual(r.value, committed.classify[i]!.expect, JSON.stringify(committed.classify[i]!.state)));
    });

    test('replays, reorderings and conflicts: a success sequence delivered backwards moves forward once', async () => {
      // Apply a delivery order the way the plugin does: keep the last applied state, apply only "apply".
      const sequence = [0, 6, 7, 4, 3, 2, 2, 6, 101].map((code) => ({
        status: code === 0 || code === 6 ? 'success' : code === 101 ? 'declined' : 'pending',
        status_code: code,
      }));
      let state: { status: string; status_code: number } | null = null;
      const actions: string[] = [];
      for (const to of sequence) {
        const d = await php.one<{ action: string; why?: string }>('decide', state, to);
        actions.push(`${to.status_code}:${d.action}${d.why ? `/${d.why}` : ''}`);
        if (d.action === 'apply') {
          state = to;
        }
      }
      assert.deepEqual(actions, [
        '0:apply',
        '6:ignore/after_final',
        '7:ignore/after_final',
        '4:ignore/after_final',
        '3:ignore/after_final',
        '2:ignore/after_final',
        '2:ignore/after_final',
        '6:ignore/after_final',
        '101:review/conflict',
      ]);
    });
  });
}
