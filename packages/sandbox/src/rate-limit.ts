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

  /** Forget a partner's bucket (e.g. after unblocking from the dashboard). */
  reset(key: string): void {
    this.buckets.delete(key);
  }
}
