/**
 * The sandbox's sense of time.
 *
 * Wall-clock readings (`now()`) are real: partners sign real timestamps,
 * and operation dates shown to them are real; a tester may set the service's
 * clock off this computer's (setOffset(), the dashboard's clock action) to
 * see what a partner with a wrong clock meets. Only the sandbox's own waits are
 * sped up by `speed` (decisions.md, "Sandbox: fast clock"): callback retry
 * delays, rate-fix lifetimes and the pauses between automatic operation steps.
 * A wait of `ms` sandbox milliseconds lasts `ms / speed` real milliseconds.
 */
export interface Clock {
  /** Real time (plus the offset a tester set: setOffset()), milliseconds since the epoch. */
  now: () => number;
  /** This computer's time, whatever the offset: what the request rate limit counts in. */
  real: () => number;
  /** How far the service's clock is set from this computer's (ms; 0 unless a tester moved it). */
  readonly offsetMs: number;
  /**
   * Sets the service's clock `ms` ahead of this computer's (negative: behind), as a
   * partner whose server clock is off meets it: timestamps are judged against it and
   * the API's Date header says it.
   */
  setOffset: (ms: number) => void;
  /** How many times faster than real time the sandbox's own waits run (>= 1 usually). */
  readonly speed: number;
  /** Real milliseconds that `ms` sandbox milliseconds take. */
  scale: (ms: number) => number;
}

export function createClock(speed = 1, now: () => number = Date.now): Clock {
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  }
  let offset = 0;
  return {
    now: () => now() + offset,
    real: now,
    get offsetMs() {
      return offset;
    },
    setOffset(ms: number) {
      if (!Number.isSafeInteger(ms)) {
        throw new RangeError(`clock offset must be a whole number of milliseconds, got ${ms}`);
      }
      offset = ms;
    },
    speed,
    scale: (ms: number) => ms / speed,
  };
}

/**
 * A UTC time as the service writes it: ISO 8601 with seven fractional digits and
 * a trailing Z (the spec's expired_at form), e.g. 2024-05-01T12:00:00.1230000Z.
 */
export function serviceTime(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-05-01T12:00:00.123Z
  return `${iso.slice(0, 23)}0000Z`;
}
