/**
 * Callback retry schedule (spec, Events > Callbacks, item 4):
 * "6 attempts at 10-second intervals; then intervals following 70 + 10 * 1.12^(n-4)
 * with n the attempt number, until an interval would exceed 4 hours; then every
 * 4 hours; at most 120 attempts within 11 days."
 *
 * Reading (docs/decisions.md, "Callback retry schedule"):
 * - attempt 1 is the first delivery, at t = 0;
 * - attempts 2..6 each follow the previous one by 10 s;
 * - for n >= 7 the interval before attempt n is 70 + 10 * 1.12^(n-4) seconds,
 *   until that value would exceed 14 400 s (first at n = 69); from then on 14 400 s;
 * - the schedule stops after attempt 120, or earlier if an attempt would fall later
 *   than 11 days after the first (it does not: attempt 120 is at about 10.24 days).
 * Intervals are kept in whole milliseconds (rounded half up), so the table's times
 * are exact integers and sums never drift.
 */

/** Interval used once the growing interval would exceed four hours. */
export const RETRY_CAP_SECONDS = 4 * 60 * 60;
/** The last attempt number (attempt 1 is the first delivery). */
export const RETRY_MAX_ATTEMPTS = 120;
/** No attempt is later than this after the first delivery. */
export const RETRY_WINDOW_SECONDS = 11 * 24 * 60 * 60;
/** Attempts 2..RETRY_FIXED_ATTEMPTS follow the previous one by RETRY_FIXED_INTERVAL_SECONDS. */
export const RETRY_FIXED_ATTEMPTS = 6;
export const RETRY_FIXED_INTERVAL_SECONDS = 10;

export interface RetryScheduleRow {
  /** Attempt number; 1 is the first delivery. */
  attempt: number;
  /** Delay before this attempt, counted from the previous attempt, in milliseconds (0 for attempt 1). */
  delayMs: number;
  /** Same delay in seconds (millisecond precision). */
  delaySeconds: number;
  /** Time from the first delivery to this attempt, in milliseconds. */
  sinceFirstMs: number;
  /** Same time in seconds (millisecond precision). */
  sinceFirstSeconds: number;
  /** True when the delay is the four-hour cap. */
  capped: boolean;
}

function assertAttempt(attempt: number): void {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be an integer >= 1, got ${String(attempt)}`);
  }
}

/**
 * Delay before attempt `attempt` (counted from the previous attempt), in whole
 * milliseconds, following the formula without the 120-attempt / 11-day stop.
 */
export function retryDelayMs(attempt: number): number {
  assertAttempt(attempt);
  if (attempt === 1) {
    return 0;
  }
  if (attempt <= RETRY_FIXED_ATTEMPTS) {
    return RETRY_FIXED_INTERVAL_SECONDS * 1000;
  }
  const seconds = 70 + 10 * Math.pow(1.12, attempt - 4);
  if (seconds > RETRY_CAP_SECONDS) {
    return RETRY_CAP_SECONDS * 1000;
  }
  return Math.round(seconds * 1000);
}

/** Delay before attempt `attempt` in seconds (millisecond precision); see retryDelayMs. */
export function retryDelaySeconds(attempt: number): number {
  return retryDelayMs(attempt) / 1000;
}

let cached: readonly RetryScheduleRow[] | undefined;

/** The whole schedule: one row per attempt, from attempt 1 to the last one. */
export function retrySchedule(): readonly RetryScheduleRow[] {
  if (cached) {
    return cached;
  }
  const rows: RetryScheduleRow[] = [];
  let sinceFirstMs = 0;
  for (let attempt = 1; attempt <= RETRY_MAX_ATTEMPTS; attempt++) {
    const delayMs = retryDelayMs(attempt);
    if (sinceFirstMs + delayMs > RETRY_WINDOW_SECONDS * 1000) {
      break;
    }
    sinceFirstMs += delayMs;
    rows.push(
      Object.freeze({
        attempt,
        delayMs,
        delaySeconds: delayMs / 1000,
        sinceFirstMs,
        sinceFirstSeconds: sinceFirstMs / 1000,
        capped: delayMs === RETRY_CAP_SECONDS * 1000,
      }),
    );
  }
  cached = Object.freeze(rows);
  return cached;
}

/**
 * When the next attempt is due after `attemptsMade` attempts (the first of them at
 * `firstAttemptAt`, milliseconds since the epoch), or null when the schedule is over.
 */
export function nextRetryAt(attemptsMade: number, firstAttemptAt: number): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be an integer >= 0, got ${String(attemptsMade)}`);
  }
  const row = retrySchedule()[attemptsMade];
  return row ? firstAttemptAt + row.sinceFirstMs : null;
}
