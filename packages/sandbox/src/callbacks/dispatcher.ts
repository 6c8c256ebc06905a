/**
 * Callback delivery on core's retry schedule (retry-schedule.ts), sped up by the
 * clock (decisions.md, "Sandbox: fast clock", "Sandbox: callback delivery").
 *
 * - Every pending callback has its next due time in SQLite; one timer wakes the
 *   dispatcher at the earliest one, whatever the number waiting.
 * - Each partner has its own slots (`concurrency` deliveries at once): a slow or
 *   dead endpoint only ever holds its own partner's slots, never another's.
 * - Attempt n is due at anchor + sinceFirst(n) / speed, the anchor being the
 *   start of attempt 1. When an attempt starts more than a second late (the
 *   sandbox was stopped), the anchor moves by the delay, so a restart resumes the
 *   schedule instead of firing missed attempts in a burst. The schedule ends
 *   after core's last row (attempt 120) or when an attempt would fall beyond
 *   11 days (sandbox time) after the first.
 * - Only HTTP 200 counts as delivered.
 * - Outcomes are written in groups (one transaction per turn of the event loop),
 *   and the slot is given back only once its outcome is stored.
 */
import { setMaxListeners } from 'node:events';
import { RETRY_WINDOW_SECONDS, retrySchedule } from '@card2crypto/core';
import type { Clock } from '../clock.js';
import type { PartnerRegistry } from '../partners.js';
import type { AttemptRecord, AttemptUpdate, CallbackRecord, CallbackState, Store } from '../store.js';
import { DueTimer } from '../timer.js';
import { postCallback, type DeliveryResult } from './deliver.js';

export interface DispatcherOptions {
  /** Deliveries in flight per partner. */
  concurrency: number;
  /** Real milliseconds one delivery may take. */
  timeoutMs: number;
  /** Local address outgoing callbacks are sent from (--callback-ip). */
  localAddress?: string;
}

/** An attempt that starts this much (real ms) after its due time shifts the rest of the schedule. */
const LATE_MS = 1000;
/** Due callbacks claimed per partner per turn at most (bounds one turn's work). */
const CLAIM_LIMIT = 256;

interface Outcome {
  callback: CallbackRecord;
  attempt: Omit<AttemptRecord, 'id'>;
  update: AttemptUpdate;
  result: DeliveryResult;
}

export class CallbackDispatcher {
  private readonly timer: DueTimer;
  private readonly inFlight = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private outcomes: Outcome[] = [];
  private flushScheduled = false;
  private stopped = false;
  private readonly abort = new AbortController();
  /** Called after every attempt is stored (tests, tools). */
  onAttempt: (callback: CallbackRecord, result: DeliveryResult) => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly partners: PartnerRegistry,
    private readonly options: DispatcherOptions,
  ) {
    this.timer = new DueTimer(() => this.tick(), clock.now);
    // One listener per delivery in flight.
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    // Deliveries cut short by a stop are made again.
    this.store.releaseInFlight();
    this.timer.wake();
  }

  /** New callbacks were stored. */
  wake(): void {
    this.timer.wake();
  }

  /** Stops scheduling, cuts deliveries in flight short (they stay due) and stores the outcomes already known. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer.stop();
    this.abort.abort();
    await Promise.allSettled([...this.running]);
    this.flush();
  }

  /** The time the next delivery is due (real ms), if one is scheduled. */
  get nextDueAt(): number | undefined {
    return this.timer.nextAt;
  }

  private tick(): void {
    if (this.stopped) {
      return;
    }
    const now = this.clock.now();
    let next: number | null = null;
    const claimed: CallbackRecord[] = [];
    this.store.transaction(() => {
      for (const partner of this.partners.list()) {
        const free = Math.min(CLAIM_LIMIT, this.options.concurrency - (this.inFlight.get(partner.token) ?? 0));
        if (free <= 0) {
          continue;
        } // this partner's deliveries finishing will tick again
        const rows = this.store.claimDue(partner.token, now, free);
        claimed.push(...rows);
        if (rows.length === free) {
          continue;
        } // full again: its next completion ticks
        const due = this.store.nextDueFor(partner.token);
        if (due !== null && (next === null || due < next)) {
          next = due;
        }
      }
    });
    for (const callback of claimed) {
      this.launch(callback);
    }
    this.timer.schedule(next);
  }

  private launch(callback: CallbackRecord): void {
    const token = callback.partnerToken;
    this.inFlight.set(token, (this.inFlight.get(token) ?? 0) + 1);
    const run = this.attempt(callback)
      .then((outcome) => {
        if (outcome) {
          this.queue(outcome);
        } else {
          this.release(token);
        }
      })
      .catch((error: unknown) => {
        this.release(token);
        process.emitWarning(`card2crypto-sandbox: callback ${callback.id} attempt failed internally: ${String(error)}`);
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private release(token: string): void {
    this.inFlight.set(token, (this.inFlight.get(token) ?? 1) - 1);
    if (!this.stopped) {
      this.timer.wake();
    }
  }

  private queue(outcome: Outcome): void {
    this.outcomes.push(outcome);
    if (this.flushScheduled) {
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.outcomes;
    if (batch.length === 0) {
      return;
    }
    this.outcomes = [];
    this.store.transaction(() => {
      for (const o of batch) {
        this.store.writeAttempt(o.attempt, o.update);
      }
    });
    for (const o of batch) {
      this.inFlight.set(o.callback.partnerToken, (this.inFlight.get(o.callback.partnerToken) ?? 1) - 1);
      this.onAttempt({ ...o.callback, ...o.update }, o.result);
    }
    if (!this.stopped) {
      this.timer.wake();
    }
  }

  /** Makes one scheduled attempt; resolves to what to store, or null when the stop cut it short. */
  private async attempt(callback: CallbackRecord): Promise<Outcome | null> {
    const partner = this.partners.get(callback.partnerToken);
    const startedAt = this.clock.now();
    const attempt = callback.attempts + 1;
    if (!partner?.callbackUrl) {
      const result: DeliveryResult = { status: null, excerpt: '', error: 'the partner has no callback URL', durationMs: 0 };
      return {
        callback,
        result,
        attempt: { callbackId: callback.id, attempt, at: startedAt, url: '', httpStatus: null, excerpt: '', error: result.error, durationMs: 0 },
        update: { ...scheduleOf(callback), state: 'no_url', nextAttemptAt: null, finishedAt: startedAt },
      };
    }
    const result = await postCallback(partner.callbackUrl, callback.body, { ...this.options, signal: this.abort.signal });
    if (result.aborted) {
      return null;
    }
    const firstAttemptAt = callback.firstAttemptAt ?? startedAt;
    // The first attempt fixes the schedule's origin; later ones only move it when they are late.
    let anchorAt = attempt === 1 ? startedAt : (callback.anchorAt ?? startedAt);
    const rows = retrySchedule();
    const dueThis = anchorAt + this.clock.scale(rows[attempt - 1]?.sinceFirstMs ?? 0);
    if (startedAt - dueThis > LATE_MS) {
      anchorAt += startedAt - dueThis;
    }

    let state: CallbackState;
    let nextAttemptAt: number | null = null;
    if (result.status === 200) {
      state = 'delivered';
    } else {
      const row = rows[attempt]; // the row of attempt + 1
      const candidate = row ? anchorAt + this.clock.scale(row.sinceFirstMs) : null;
      const windowEnd = firstAttemptAt + this.clock.scale(RETRY_WINDOW_SECONDS * 1000);
      if (candidate === null || candidate > windowEnd) {
        state = 'exhausted';
      } else {
        state = 'pending';
        nextAttemptAt = candidate;
      }
    }
    return {
      callback,
      result,
      attempt: {
        callbackId: callback.id,
        attempt,
        at: startedAt,
        url: partner.callbackUrl,
        httpStatus: result.status,
        excerpt: result.excerpt,
        error: result.error,
        durationMs: result.durationMs,
      },
      update: {
        state,
        attempts: attempt,
        firstAttemptAt,
        anchorAt,
        nextAttemptAt,
        finishedAt: state === 'pending' ? null : this.clock.now(),
        lastHttpStatus: result.status,
      },
    };
  }

  /**
   * Dashboard "resend": one delivery now, outside the schedule (recorded as
   * attempt 0). A 200 ends the schedule of a callback that was still pending
   * or had given up.
   */
  async resend(callbackId: number): Promise<DeliveryResult> {
    const callback = this.store.getCallback(callbackId);
    if (!callback) {
      throw new RangeError(`no callback ${callbackId}`);
    }
    const partner = this.partners.get(callback.partnerToken);
    if (!partner?.callbackUrl) {
      throw new RangeError(`partner ${callback.partnerToken} has no callback URL`);
    }
    const startedAt = this.clock.now();
    const result = await postCallback(partner.callbackUrl, callback.body, this.options);
    const current = this.store.getCallback(callbackId)!;
    const delivered = result.status === 200;
    this.store.recordAttempt(
      {
        callbackId,
        attempt: 0,
        at: startedAt,
        url: partner.callbackUrl,
        httpStatus: result.status,
        excerpt: result.excerpt,
        error: result.error,
        durationMs: result.durationMs,
      },
      delivered && current.state !== 'delivered'
        ? { ...scheduleOf(current), state: 'delivered', nextAttemptAt: null, finishedAt: this.clock.now(), lastHttpStatus: result.status }
        : { ...scheduleOf(current), lastHttpStatus: result.status },
    );
    return result;
  }
}

function scheduleOf(c: CallbackRecord): AttemptUpdate {
  return {
    state: c.state,
    attempts: c.attempts,
    firstAttemptAt: c.firstAttemptAt,
    anchorAt: c.anchorAt,
    nextAttemptAt: c.nextAttemptAt,
    finishedAt: c.finishedAt,
    lastHttpStatus: c.lastHttpStatus,
  };
}
