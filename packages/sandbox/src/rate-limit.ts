/**
 * Per-partner request rate limit for the partner API: a token bucket per
 * partner token holding `perSecond` tokens (the burst) and refilling
 * `perSecond` tokens a second, on real time (decisions.md, "Sandbox: request
 * rate limit"). A request that finds the bucket empty gets 429 with
 * Retry-After: the whole seconds until a token is back.
 */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds to wait (>= 1) when not allowed. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `perSecond` 0 (or less) turns the limit off. */
  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateDecision {
    if (!(this.perSecond > 0)) {
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.perSecond, updatedAt: now };
      this.buckets.set(key, bucket);
    } else {
      const refill = ((now - bucket.updatedAt) / 1000) * this.perSecond;
      bucket.tokens = Math.min(this.perSecond, bucket.tokens + refill);
      bucket.updatedAt = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const waitMs = ((1 - bucket.tokens) / this.perSecond) * 1000;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /**
   * Spend a partner's rate as other traffic of the same partner would: the
   * bucket is empty now and holds its next token `forMs` from now (a
   * request meanwhile gets 429 with Retry-After of ceil(forMs / 1000)).
   * Tests use it instead of racing a real refill (dashboard
   * `POST /dashboard/api/partners/{token}/rate`).
   */
  spend(key: string, forMs: number): void {
    if (!(this.perSecond > 0)) {
      return;
    }
    this.buckets.set(key, { tokens: 1 - (forMs / 1000) * this.perSecond, updatedAt: this.now() });
  }

  /** Forget a partner's bucket (e.g. after unblocking from the dashboard). */
  reset(key: string): void {
    this.buckets.delete(key);
  }
}

/** A partner's requests a second as the sandbox saw them (dashboard state `api_rate`). */
export interface RateView {
  /** The most partner API requests received within one wall-clock second (refused ones included). */
  peak_per_second: number;
  /** That second (ms since the epoch, its start), or null before any request. */
  peak_second: number | null;
  /** Requests answered 429 since the sandbox started. */
  limited: number;
  /** The last seconds with requests, oldest first: [second start (ms), requests]. */
  recent: Array<[number, number]>;
}

/**
 * Counts each partner's API requests per wall-clock second (real time, like
 * the bucket), so a test or a benchmark can read the peak rate a store
 * reached and how many of its requests were refused with 429. The test
 * helper (POST /sandbox/operations) is not counted: it is no partner traffic.
 */
export class RateCounter {
  private readonly partners = new Map<string, { peak: number; peakSecond: number | null; limited: number; recent: Array<[number, number]> }>();

  constructor(private readonly keep = 120) {}

  count(key: string, nowMs: number): void {
    const second = Math.floor(nowMs / 1000) * 1000;
    const p = this.of(key);
    const last = p.recent[p.recent.length - 1];
    if (last && last[0] === second) {
      last[1] += 1;
    } else {
      p.recent.push([second, 1]);
      if (p.recent.length > this.keep) {
        p.recent.shift();
      }
    }
    const now = p.recent[p.recent.length - 1]!;
    if (now[1] > p.peak) {
      p.peak = now[1];
      p.peakSecond = second;
    }
  }

  limited(key: string): void {
    this.of(key).limited += 1;
  }

  view(key: string): RateView {
    const p = this.partners.get(key);
    return p
      ? { peak_per_second: p.peak, peak_second: p.peakSecond, limited: p.limited, recent: p.recent.map(([s, n]) => [s, n]) }
      : { peak_per_second: 0, peak_second: null, limited: 0, recent: [] };
  }

  /** Forgets a partner's counts (the dashboard's reset of its bucket). */
  reset(key: string): void {
    this.partners.delete(key);
  }

  private of(key: string) {
    let p = this.partners.get(key);
    if (!p) {
      p = { peak: 0, peakSecond: null, limited: 0, recent: [] };
      this.partners.set(key, p);
    }
    return p;
  }
}
