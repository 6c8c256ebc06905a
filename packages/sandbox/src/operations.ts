/**
 * Operations and their state machine. Every change of status goes through
 * applyStep, which asks core's status model (decideTransition over
 * OPERATION_FLOW) whether the step is allowed, records it in the history and,
 * when the new pair is one of core's CALLBACK_CONDITIONS, stores a signed
 * callback for the dispatcher, all in one transaction.
 *
 * Automatic steps (the plan chosen by the test card) are persisted with their
 * due time, so a restart continues where the sandbox stopped.
 *
 * The one exception is put(), behind the test helper POST /sandbox/operations:
 * it sets an operation to the state a test names, walks no step and stores no
 * callback (the test sends the callbacks it wants itself).
 */
import { randomUUID } from 'node:crypto';
import { CALLBACK_CONDITIONS, decideTransition, findStep, OPERATION_FLOW, sign, type OperationStatus, type OperationStatusCode } from '@card2crypto/core';
import { transactionId } from './chain.js';
import type { Clock } from './clock.js';
import { toJson } from './json.js';
import { buildOperationData } from './operation-data.js';
import type { PartnerRegistry } from './partners.js';
import type { Quote } from './pricing.js';
import { AFTER_CONFIRM, PLANS, type Scenario } from './scenarios.js';
import type { MaskedCard, OperationRecord, Store } from './store.js';
import { DueTimer } from './timer.js';

export class OperationStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperationStateError';
  }
}

export interface NewOperationInput {
  partnerToken: string;
  partnerOperationId: string | null;
  quote: Quote;
  toAccount: string;
  email: string;
  /** ISO 3166-1 alpha-2. */
  customerCountry: string;
  calculationId: string | null;
  sessionId: string | null;
}

/** An operation's whole state as a test sets it (POST /sandbox/operations); the caller has checked every member. */
export interface OperationState {
  id: string;
  partnerToken: string;
  partnerOperationId: string | null;
  status: OperationStatus;
  statusCode: OperationStatusCode;
  fromCurrency: string;
  fromAmount: bigint;
  toCurrency: string;
  toAmount: bigint;
  feeAmount: bigint;
  currencyRate: string;
  toAccount: string;
  email: string;
  /** ISO 3166-1 alpha-2. */
  customerCountry: string;
  /** The card paid with, or null when the buyer has not paid (pending 1, declined 102). */
  card: MaskedCard | null;
  /** The withdrawal transaction (success 6 and 0 only); null derives it as the flow does. */
  txId: string | null;
}

/** Codes the flow reaches only after the money was received (pending 2): paid_at exists. */
const PAID_CODES: ReadonlySet<number> = new Set([2, 3, 8, 9, 4, 7, 6, 0, 103, 106]);
/** Codes at which the withdrawal transaction exists (set at success 6). */
const WITHDRAWN_CODES: ReadonlySet<number> = new Set([6, 0]);

/** Outcomes the dashboard can move an operation to. */
export const FORCEABLE_CODES: readonly number[] = Object.freeze([0, 8, 101, 102, 103, 104, 105, 106]);

const SUCCESS_PATH: readonly number[] = [2, 3, 4, 7, 6, 0];
const CONFIRM_PATH: readonly number[] = [2, 3, 8];
const CALLBACK_CODES = new Map(CALLBACK_CONDITIONS.map((c) => [c.status_code as number, c]));

export interface OperationsOptions {
  /** Sandbox milliseconds between two automatic steps. */
  stepDelayMs: number;
  /** Sandbox milliseconds an operation may stay created (pending 1) unpaid before it ends in declined 102 (the buyer left). Default 3600 s. */
  unpaidLifetimeMs?: number;
  statusPageUrl: string;
}

export class Operations {
  private readonly timer: DueTimer;
  /** Called after a callback was stored (the dispatcher wakes up). */
  onCallbackStored: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly partners: PartnerRegistry,
    private readonly options: OperationsOptions,
  ) {
    this.timer = new DueTimer(() => this.runDue(), clock.now);
  }

  start(): void {
    this.timer.wake();
  }

  stop(): void {
    this.timer.stop();
  }

  get(id: string): OperationRecord | undefined {
    return this.store.getOperation(id);
  }

  data(op: OperationRecord): Record<string, unknown> {
    return buildOperationData(op, this.options.statusPageUrl);
  }

  /**
   * Registers a new operation: pending 1 (created). Unpaid, it ends in
   * declined 102 (the buyer left) after the unpaid lifetime (--unpaid-lifetime,
   * sandbox time): a planned step that paying replaces.
   */
  create(input: NewOperationInput): OperationRecord {
    const now = this.clock.now();
    const created = this.store.transaction(() => {
      const op = this.store.insertOperation({
        id: randomUUID(),
        partnerToken: input.partnerToken,
        partnerOperationId: input.partnerOperationId,
        status: 'pending',
        statusCode: 1,
        fromCurrency: input.quote.fromCurrency,
        fromAmount: input.quote.fromAmount.toString(),
        toCurrency: input.quote.toCurrency,
        toAmount: input.quote.toAmount.toString(),
        feeAmount: input.quote.feeAmount.toString(),
        currencyRate: input.quote.rate,
        toAccount: input.toAccount,
        email: input.email,
        customerCountry: input.customerCountry,
        calculationId: input.calculationId,
        sessionId: input.sessionId,
        createdAt: now,
      });
      this.store.addHistory({ operationId: op.id, status: 'pending', statusCode: 1, at: now, source: 'widget', note: 'operation created' });
      const planned: OperationRecord = { ...op, plan: [102], nextStepAt: now + this.clock.scale(this.options.unpaidLifetimeMs ?? 3_600_000) };
      this.store.updateOperation(planned);
      return planned;
    });
    this.timer.wake();
    return created;
  }

  /**
   * The buyer pressed Pay: the card (already validated and masked) is stored and
   * the scenario's plan starts. A fixed rate that has expired ends in 105
   * whatever the card.
   */
  pay(op: OperationRecord, card: MaskedCard, scenario: Scenario, rateExpired: boolean): OperationRecord {
    if (op.statusCode !== 1 || op.card !== null) {
      throw new OperationStateError('this operation has already been paid or has ended');
    }
    const now = this.clock.now();
    const chosen: Scenario = rateExpired ? 'rate_expired' : scenario;
    const updated: OperationRecord = {
      ...op,
      card,
      scenario: chosen,
      plan: [...PLANS[chosen]],
      nextStepAt: now + this.clock.scale(this.options.stepDelayMs),
      updatedAt: now,
    };
    this.store.transaction(() => {
      this.store.updateOperation(updated);
      this.store.addHistory({ operationId: op.id, status: op.status, statusCode: op.statusCode, at: now, source: 'widget', note: `payment sent (${chosen})` });
    });
    this.timer.wake();
    return updated;
  }

  /** The buyer left before paying (back, close, timeout): declined 102. */
  abandon(op: OperationRecord, note: string): OperationRecord {
    if (op.statusCode !== 1 || op.card !== null) {
      throw new OperationStateError('only an operation that has not been paid can be abandoned');
    }
    return this.apply(op, [102], 'widget', note);
  }

  /** Partner confirmation: only from awaiting confirm 8; repeated after success it is a no-op. */
  confirm(op: OperationRecord): OperationRecord {
    if (op.statusCode === 8) {
      const stepped = this.apply(op, [AFTER_CONFIRM[0]!], 'partner', 'confirmed by the partner');
      return this.plan(stepped, AFTER_CONFIRM.slice(1));
    }
    if (op.status !== 'declined' && this.store.history(op.id).some((h) => h.statusCode === 9)) {
      return op; // already confirmed: answering 200 again lets a partner retry safely
    }
    throw new OperationStateError(`the operation is ${op.status} ${op.statusCode}; only an operation awaiting confirm (8) can be confirmed`);
  }

  /**
   * Partner cancellation: from awaiting confirm 8, or from created 1 while no card was entered (nothing can have
   * been charged: a store whose buyer started again elsewhere ends the first one); repeated it is a no-op.
   */
  cancel(op: OperationRecord): OperationRecord {
    if (op.statusCode === 8 || (op.statusCode === 1 && op.card === null)) {
      return this.apply({ ...op, plan: [], nextStepAt: null }, [106], 'partner', 'cancelled by the partner');
    }
    if (op.statusCode === 106) {
      return op;
    }
    throw new OperationStateError(
      `the operation is ${op.status} ${op.statusCode}; only an operation awaiting confirm (8), or created (1) with no card entered, can be cancelled`,
    );
  }

  /** Dashboard: move an operation that has not ended to an outcome, walking the steps in between at once. */
  force(op: OperationRecord, target: number): OperationRecord {
    if (!FORCEABLE_CODES.includes(target)) {
      throw new OperationStateError(`status code ${target} is not an outcome the dashboard can set`);
    }
    const current = findStep(op.status, op.statusCode);
    if (!current || current.final) {
      throw new OperationStateError(`the operation has ended (${op.status} ${op.statusCode})`);
    }
    const rank = (code: number) => OPERATION_FLOW.find((s) => s.status_code === code)!.rank;
    let codes: number[];
    if (target === 0) {
      const path = op.statusCode === 8 || op.statusCode === 9 ? AFTER_CONFIRM : SUCCESS_PATH;
      codes = path.filter((code) => rank(code) > current.rank);
    } else if (target === 8) {
      if (current.rank >= rank(8)) {
        throw new OperationStateError(`the operation is past the partner-confirmation step (${op.status} ${op.statusCode})`);
      }
      codes = CONFIRM_PATH.filter((code) => rank(code) > current.rank);
    } else {
      codes = [target];
    }
    const moved = this.apply({ ...op, plan: [], nextStepAt: null }, codes, 'dashboard', `moved to ${target} from the dashboard`);
    return moved;
  }

  /**
   * Test helper: the operation becomes exactly `state` (created when new;
   * otherwise its creation time, widget session and fixed rate are kept), at
   * once and in any order of the status model. Automatic steps stop, no
   * callback is stored; paid_at and the transaction ids exist exactly when the
   * flow would have them.
   */
  put(state: OperationState): OperationRecord {
    const now = this.clock.now();
    return this.store.transaction(() => {
      const existing = this.store.getOperation(state.id);
      const withdrawn = WITHDRAWN_CODES.has(state.statusCode);
      const stored = this.store.putOperation({
        id: state.id,
        partnerToken: state.partnerToken,
        partnerOperationId: state.partnerOperationId,
        status: state.status,
        statusCode: state.statusCode,
        fromCurrency: state.fromCurrency,
        fromAmount: state.fromAmount.toString(),
        toCurrency: state.toCurrency,
        toAmount: state.toAmount.toString(),
        feeAmount: state.feeAmount.toString(),
        currencyRate: state.currencyRate,
        toAccount: state.toAccount,
        email: state.email,
        customerCountry: state.customerCountry,
        card: state.card,
        scenario: existing?.scenario ?? null,
        plan: [],
        nextStepAt: null,
        calculationId: existing?.calculationId ?? null,
        sessionId: existing?.sessionId ?? null,
        createdAt: existing?.createdAt ?? now,
        paidAt: PAID_CODES.has(state.statusCode) ? (existing?.paidAt ?? now) : null,
        updatedAt: now,
        txId: withdrawn ? (state.txId ?? transactionId(state.toCurrency, state.id)) : null,
        feeTxId: withdrawn ? transactionId(state.toCurrency, `${state.id}:fee`) : null,
      });
      this.store.addHistory({
        operationId: state.id,
        status: state.status,
        statusCode: state.statusCode,
        at: now,
        source: 'test',
        note: 'set by POST /sandbox/operations',
      });
      return stored;
    });
  }

  /** Runs every automatic step that is due, then arms the timer for the next one. */
  private runDue(): void {
    const now = this.clock.now();
    for (;;) {
      const due = this.store.dueOperations(now, 200);
      for (const op of due) {
        const [code, ...rest] = op.plan;
        if (code === undefined) {
          this.store.updateOperation({ ...op, nextStepAt: null });
          continue;
        }
        try {
          const stepped = this.apply(op, [code], 'flow', op.statusCode === 1 && code === 102 ? 'not paid within the unpaid lifetime' : '');
          this.plan(stepped, rest);
        } catch (error) {
          // A plan step the model refuses (e.g. after a dashboard move): drop the rest of the plan.
          this.store.updateOperation({ ...op, plan: [], nextStepAt: null });
          if (!(error instanceof OperationStateError)) {
            throw error;
          }
        }
      }
      if (due.length < 200) {
        break;
      }
    }
    this.timer.schedule(this.store.nextStepAt());
  }

  private plan(op: OperationRecord, codes: readonly number[]): OperationRecord {
    const now = this.clock.now();
    const updated: OperationRecord = { ...op, plan: [...codes], nextStepAt: codes.length > 0 ? now + this.clock.scale(this.options.stepDelayMs) : null };
    this.store.updateOperation(updated);
    if (codes.length > 0) {
      this.timer.wake();
    }
    return updated;
  }

  /** Applies status codes in order, atomically; each must be allowed by core's decideTransition. */
  private apply(op: OperationRecord, codes: readonly number[], source: string, note: string): OperationRecord {
    const now = this.clock.now();
    let stored = false;
    const result = this.store.transaction(() => {
      let current = op;
      for (const code of codes) {
        const step = OPERATION_FLOW.find((s) => s.status_code === code);
        if (!step) {
          throw new OperationStateError(`status code ${code} is not in the status model`);
        }
        const decision = decideTransition({ status: current.status, status_code: current.statusCode }, step);
        if (decision.action !== 'apply') {
          throw new OperationStateError(
            `cannot go from ${current.status} ${current.statusCode} to ${step.status} ${code} (${decision.action}: ${decision.why})`,
          );
        }
        current = {
          ...current,
          status: step.status,
          statusCode: step.status_code as OperationStatusCode,
          updatedAt: now,
          paidAt: code === 2 && current.paidAt === null ? now : current.paidAt,
          txId: code === 6 ? transactionId(current.toCurrency, current.id) : current.txId,
          feeTxId: code === 6 ? transactionId(current.toCurrency, `${current.id}:fee`) : current.feeTxId,
          plan: step.final ? [] : current.plan,
          nextStepAt: step.final ? null : current.nextStepAt,
        };
        this.store.updateOperation(current);
        this.store.addHistory({ operationId: current.id, status: step.status, statusCode: code, at: now, source, note });
        if (this.storeCallback(current, now)) {
          stored = true;
        }
      }
      return current;
    });
    if (stored) {
      this.onCallbackStored();
    }
    return result;
  }

  /** Stores the signed callback for the operation's new state when it is a callback condition. */
  private storeCallback(op: OperationRecord, now: number): boolean {
    if (!CALLBACK_CODES.has(op.statusCode)) {
      return false;
    }
    const partner = this.partners.get(op.partnerToken);
    if (!partner) {
      return false;
    }
    const unsigned = { operation_data: this.data(op) };
    const body = toJson({ ...unsigned, signature: sign(unsigned, partner.secret, { form: 'general' }) });
    this.store.insertCallback({
      operationId: op.id,
      partnerToken: op.partnerToken,
      status: op.status,
      statusCode: op.statusCode,
      body,
      state: partner.callbackUrl ? 'pending' : 'no_url',
      nextAttemptAt: partner.callbackUrl ? now : null,
      createdAt: now,
    });
    return true;
  }
}
