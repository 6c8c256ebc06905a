// The e2e lanes split from measured times (scripts/lib/spec-times.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimator, readSpecTimes, recordSpecTimes, slowest, splitLanes } from '../lib/spec-times.mjs';

const times = { runs: {}, specs: { 'a.spec.ts': 300, 'b.spec.ts': 200, 'c.spec.ts': 100, 'd.spec.ts': 100, 'e.spec.ts': 50 } };

test('longest first, each file to the lane with less to do; the fixed runs of a lane count', () => {
  const files = ['specs/a.spec.ts', 'specs/b.spec.ts', 'specs/c.spec.ts', 'specs/d.spec.ts', 'specs/e.spec.ts'];
  const even = splitLanes(files, times, [0, 0]);
  assert.deepEqual(
    even.map((l) => [l.files, l.seconds]),
    [
      [['specs/a.spec.ts', 'specs/d.spec.ts'], 400],
      [['specs/b.spec.ts', 'specs/c.spec.ts', 'specs/e.spec.ts'], 350],
    ],
  );
  // Lane b carries 300 s of other runs (the oldest pair, the smoke run): it gets less of the suite.
  const loaded = splitLanes(files, times, [0, 300]);
  assert.deepEqual(
    loaded.map((l) => [l.files, l.seconds]),
    [
      [['specs/a.spec.ts', 'specs/b.spec.ts', 'specs/e.spec.ts'], 550],
      [['specs/c.spec.ts', 'specs/d.spec.ts'], 500],
    ],
  );
  // Every file once.
  assert.deepEqual(loaded.flatMap((l) => l.files).sort(), files);
});

test('a new spec file counts as the median of the known ones', () => {
  const estimate = estimator(times);
  assert.equal(estimate('specs/new.spec.ts'), 100);
  assert.equal(estimate('specs/a.spec.ts'), 300);
  assert.equal(estimator({ runs: {}, specs: {} })('specs/x.spec.ts'), 60);
});

test('a run writes the mean of what was kept and what it measured, keeps what it did not, drops files that are gone; the slowest ten', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'c2c-spec-times-')), 'spec-times.json');
  assert.deepEqual(readSpecTimes(file), { runs: {}, specs: {} });
  writeFileSync(file, JSON.stringify({ about: 'kept', runs: { smoke: 100 }, specs: { 'a.spec.ts': 300, 'gone.spec.ts': 5, 'b.spec.ts': 200 } }));
  const changed = recordSpecTimes(file, {
    specs: [
      ['specs/a.spec.ts', 120.4],
      ['specs/b.spec.ts', 199],
    ],
    runs: { oldest: 190.6, smoke: 151 },
    existing: ['specs/a.spec.ts', 'specs/b.spec.ts'],
  });
  assert.equal(changed, true);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  // a: (300 + 120.4) / 2; b: (200 + 199) / 2, rounded; the oldest run had no figure: the measured one.
  assert.deepEqual(written, { about: 'kept', runs: { smoke: 126, oldest: 191 }, specs: { 'a.spec.ts': 210, 'b.spec.ts': 200 } });
  assert.equal(recordSpecTimes(file, { specs: [['a.spec.ts', 210]] }), false, 'the same figures change nothing');
  // One slow run moves a figure half way, not all the way.
  recordSpecTimes(file, { specs: [['a.spec.ts', 410]] });
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).specs['a.spec.ts'], 310);
  const many = Array.from({ length: 12 }, (_, i) => [`s${i}.spec.ts`, i * 10]);
  assert.deepEqual(
    slowest(many).map(([f]) => f),
    ['s11.spec.ts', 's10.spec.ts', 's9.spec.ts', 's8.spec.ts', 's7.spec.ts', 's6.spec.ts', 's5.spec.ts', 's4.spec.ts', 's3.spec.ts', 's2.spec.ts'],
  );
});
