import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  retrySchedule,
  retryDelayMs,
  retryDelaySeconds,
  nextRetryAt,
  RETRY_CAP_SECONDS,
  RETRY_MAX_ATTEMPTS,
  RETRY_WINDOW_SECONDS,
} from '../src/retry-schedule.js';

test('first 10 rows of the schedule are pinned (attempt, delay ms, time since first ms)', () => {
  const rows = retrySchedule()
    .slice(0, 10)
    .map((r) => [r.attempt, r.delayMs, r.sinceFirstMs]);
  assert.deepEqual(rows, [
    [1, 0, 0],
    [2, 10_000, 10_000],
    [3, 10_000, 20_000],
    [4, 10_000, 30_000],
    [5, 10_000, 40_000],
    [6, 10_000, 50_000],
    [7, 84_049, 134_049], // 70 + 10 * 1.12^3 = 84.04928 s
    [8, 85_735, 219_784], // 70 + 10 * 1.12^4 = 85.73519 s
    [9, 87_623, 307_407], // 70 + 10 * 1.12^5 = 87.62342 s
    [10, 89_738, 397_145], // 70 + 10 * 1.12^6 = 89.73823 s
  ]);
});

test('the growing interval follows 70 + 10 * 1.12^(n-4) rounded to whole milliseconds', () => {
  for (let n = 7; n <= 68; n++) {
    assert.equal(retryDelayMs(n), Math.round((70 + 10 * 1.12 ** (n - 4)) * 1000), `attempt ${n}`);
    assert.equal(retryDelaySeconds(n), retryDelayMs(n) / 1000);
  }
});

test('the four-hour cap starts at attempt 69 (the first interval that would exceed 14400 s)', () => {
  assert.equal(retryDelayMs(68), 14_193_862); // 70 + 10 * 1.12^64 = 14193.86 s, still under 4 h
  assert.ok(70 + 10 * 1.12 ** 65 > RETRY_CAP_SECONDS);
  const rows = retrySchedule();
  const firstCapped = rows.find((r) => r.capped);
  assert.equal(firstCapped?.attempt, 69);
  assert.equal(firstCapped?.delayMs, 14_400_000);
  for (const r of rows) {
    assert.equal(r.capped, r.attempt >= 69, `attempt ${r.attempt}`);
  }
  assert.equal(rows[68 - 1]?.sinceFirstMs, 136_095_630);
  assert.equal(rows[69 - 1]?.sinceFirstMs, 150_495_630);
});

test('the last attempt is 120, about 10.24 days after the first, inside both limits', () => {
  const rows = retrySchedule();
  assert.equal(rows.length, RETRY_MAX_ATTEMPTS);
  const last = rows.at(-1);
  assert.equal(last?.attempt, 120);
  assert.equal(last?.sinceFirstMs, 884_895_630);
  assert.ok(last.sinceFirstMs <= RETRY_WINDOW_SECONDS * 1000);
  // 11 days would have allowed 4 more capped attempts; the 120-attempt limit binds first.
  assert.ok(last.sinceFirstMs + 4 * 14_400_000 <= RETRY_WINDOW_SECONDS * 1000);
  assert.ok(last.sinceFirstMs + 5 * 14_400_000 > RETRY_WINDOW_SECONDS * 1000);
});

test('rows are consistent: attempts are consecutive, times are the running sum of delays', () => {
  let sum = 0;
  retrySchedule().forEach((r, i) => {
    assert.equal(r.attempt, i + 1);
    sum += r.delayMs;
    assert.equal(r.sinceFirstMs, sum);
    assert.equal(r.sinceFirstSeconds, r.sinceFirstMs / 1000);
    assert.ok(Number.isInteger(r.delayMs));
  });
});

test('the table is frozen and shared', () => {
  const rows = retrySchedule();
  assert.equal(retrySchedule(), rows);
  assert.throws(() => {
    (rows as unknown as unknown[]).push(1);
  });
  assert.throws(() => {
    (rows[0] as { delayMs: number }).delayMs = 5;
  });
});

test('nextRetryAt gives absolute due times and null when the schedule is over', () => {
  const first = Date.UTC(2024, 0, 1);
  assert.equal(nextRetryAt(0, first), first);
  assert.equal(nextRetryAt(1, first), first + 10_000);
  assert.equal(nextRetryAt(6, first), first + 134_049);
  assert.equal(nextRetryAt(119, first), first + 884_895_630);
  assert.equal(nextRetryAt(120, first), null);
  assert.throws(() => nextRetryAt(-1, first), RangeError);
});

test('invalid attempt numbers are rejected', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => retryDelayMs(bad), RangeError);
  }
});
