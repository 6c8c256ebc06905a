/**
 * Operation status model.
 *
 * The spec lists the `status` values and the `status_code` values with their
 * meanings but not how they pair or in which order they occur. The project's
 * reading is recorded in docs/decisions.md ("Status / status_code pairing and
 * sequence", "Status precedence") and is the data below: the SDK, the sandbox and
 * both plugins use exactly this table.
 */

export type OperationStatus = 'pending' | 'awaiting confirm' | 'success' | 'declined';
export type OperationStatusCode = 0 | 1 | 2 | 3 | 4 | 6 | 7 | 8 | 9 | 101 | 102 | 103 | 104 | 105 | 106;
export type OperationPhase = 'in_progress' | 'needs_partner_action' | 'succeeded' | 'failed';
export type FailureReason =
  'payment_refused' | 'user_opt_out' | 'user_failed_verification' | 'card_failed_verification' | 'rate_expired' | 'cancelled_by_partner';

/** Meaning of each `status` value, as the spec words it. */
export const STATUS_MEANINGS: Readonly<Record<OperationStatus, string>> = Object.freeze({
  success: 'Blockchain transaction was created.',
  pending: "Funds were debited from the client's card.",
  declined: 'Cancellation.',
  'awaiting confirm': 'Pending partner confirmation.',
});

export interface OperationStep {
  status: OperationStatus;
  status_code: OperationStatusCode;
  /** The spec's meaning of the status code. */
  meaning: string;
  phase: OperationPhase;
  /** True when nothing can follow (0 complete, every declined code). */
  final: boolean;
  /**
   * Progress rank used by compareProgress: higher is further along. All final
   * outcomes (complete and every declined code) share the top rank.
   */
  rank: number;
  /** Machine-readable failure reason (declined codes only). */
  reason?: FailureReason;
}

function step(s: OperationStep): OperationStep {
  return Object.freeze(s);
}

/**
 * Every valid (status, status_code) pair in the order an operation goes through
 * them, followed by the declined outcomes. 8/9 appear only when the partner's
 * account requires confirmation; any step may be skipped, none is ever undone.
 */
export const OPERATION_FLOW: readonly OperationStep[] = Object.freeze([
  step({ status: 'pending', status_code: 1, meaning: 'Created; operation has just been created.', phase: 'in_progress', final: false, rank: 1 }),
  step({ status: 'pending', status_code: 2, meaning: 'Money received from the user.', phase: 'in_progress', final: false, rank: 2 }),
  step({ status: 'pending', status_code: 3, meaning: 'User verified.', phase: 'in_progress', final: false, rank: 3 }),
  step({ status: 'awaiting confirm', status_code: 8, meaning: 'Waiting for partner confirmation.', phase: 'needs_partner_action', final: false, rank: 4 }),
  step({ status: 'pending', status_code: 9, meaning: 'Verified by partner.', phase: 'in_progress', final: false, rank: 5 }),
  step({ status: 'pending', status_code: 4, meaning: 'Order executed on the exchange.', phase: 'in_progress', final: false, rank: 6 }),
  step({ status: 'pending', status_code: 7, meaning: 'Withdrawal request created.', phase: 'in_progress', final: false, rank: 7 }),
  step({ status: 'success', status_code: 6, meaning: 'Withdrawal transaction created.', phase: 'succeeded', final: false, rank: 8 }),
  step({ status: 'success', status_code: 0, meaning: 'Complete; withdrawal transaction completed.', phase: 'succeeded', final: true, rank: 9 }),
  step({ status: 'declined', status_code: 101, meaning: 'Payment refused.', phase: 'failed', final: true, rank: 9, reason: 'payment_refused' }),
  step({
    status: 'declined',
    status_code: 102,
    meaning:
      'User opt-out, declined by the customer (causes: timeout, payment not finalised, user navigated back); card data did not reach the payment processor.',
    phase: 'failed',
    final: true,
    rank: 9,
    reason: 'user_opt_out',
  }),
  step({
    status: 'declined',
    status_code: 103,
    meaning: 'User failed verification.',
    phase: 'failed',
    final: true,
    rank: 9,
    reason: 'user_failed_verification',
  }),
  step({
    status: 'declined',
    status_code: 104,
    meaning: "User's bank card failed verification.",
    phase: 'failed',
    final: true,
    rank: 9,
    reason: 'card_failed_verification',
  }),
  step({ status: 'declined', status_code: 105, meaning: 'Rate hold time expired.', phase: 'failed', final: true, rank: 9, reason: 'rate_expired' }),
  step({ status: 'declined', status_code: 106, meaning: 'Cancelled by the partner.', phase: 'failed', final: true, rank: 9, reason: 'cancelled_by_partner' }),
]);

export type CallbackCondition = 'payment_refused' | 'partner_confirmation_pending' | 'partner_cancelled' | 'funds_debited' | 'withdrawal_transaction_created';

export interface CallbackConditionEntry {
  condition: CallbackCondition;
  /** The spec's wording of the condition. */
  description: string;
  status: OperationStatus;
  status_code: OperationStatusCode;
}

/**
 * When the service sends a callback, and with which pair: exactly the spec's
 * five conditions, nothing more. The operation still moves on to success 0
 * (operation info reports it), but no callback is sent for it: success 6
 * already carries the transaction id and explorer URL (decisions.md,
 * "Callback conditions").
 */
const conditions: CallbackConditionEntry[] = [
  { condition: 'payment_refused', description: 'The payment system refuses the payment.', status: 'declined', status_code: 101 },
  { condition: 'partner_confirmation_pending', description: 'Partner confirmation is pending.', status: 'awaiting confirm', status_code: 8 },
  { condition: 'partner_cancelled', description: 'The partner cancels the operation.', status: 'declined', status_code: 106 },
  { condition: 'funds_debited', description: "Funds are debited from the client's card.", status: 'pending', status_code: 2 },
  { condition: 'withdrawal_transaction_created', description: 'The blockchain withdrawal transaction is created.', status: 'success', status_code: 6 },
];
export const CALLBACK_CONDITIONS: readonly CallbackConditionEntry[] = Object.freeze(conditions.map((entry) => Object.freeze(entry)));

/** Meaning of every status code, as the spec words it. */
export const STATUS_CODE_MEANINGS: Readonly<Record<OperationStatusCode, string>> = Object.freeze(
  Object.fromEntries(OPERATION_FLOW.map((s) => [s.status_code, s.meaning])) as Record<OperationStatusCode, string>,
);

const BY_CODE = new Map<number, OperationStep>(OPERATION_FLOW.map((s) => [s.status_code, s]));

export function isOperationStatus(value: unknown): value is OperationStatus {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(STATUS_MEANINGS, value);
}

export function isOperationStatusCode(value: unknown): value is OperationStatusCode {
  return typeof value === 'number' && BY_CODE.has(value);
}

/** The table entry for a pair, or undefined when the pair is not in OPERATION_FLOW. */
export function findStep(status: unknown, code: unknown): OperationStep | undefined {
  if (typeof code !== 'number') {
    return undefined;
  }
  const s = BY_CODE.get(code);
  return s && s.status === status ? s : undefined;
}

export interface Classification {
  phase: OperationPhase | 'unknown';
  /** True when the operation can no longer change (complete or declined). */
  final: boolean;
  /** Failure reason for declined codes. */
  reason?: FailureReason;
  /** Human-readable meaning of the pair. */
  meaning: string;
}

/**
 * Classify a (status, status_code) pair. A pair not in OPERATION_FLOW (unknown
 * status, unknown code or a known code with a different status) is 'unknown' and
 * must never be applied automatically.
 */
export function classify(status: unknown, code: unknown): Classification {
  const s = findStep(status, code);
  if (!s) {
    return {
      phase: 'unknown',
      final: false,
      meaning: `Unknown status/status_code pair (${JSON.stringify(status) ?? 'undefined'}, ${JSON.stringify(code) ?? 'undefined'}); not applied automatically.`,
    };
  }
  const c: Classification = { phase: s.phase, final: s.final, meaning: `${s.status}: ${s.meaning}` };
  if (s.reason) {
    c.reason = s.reason;
  }
  return c;
}

/** A state as stored by a consumer, or as received in operation_data. */
export interface OperationState {
  status: string;
  status_code: number;
}

function rankOf(state: OperationState | number): number {
  const s = typeof state === 'number' ? BY_CODE.get(state) : findStep(state.status, state.status_code);
  if (!s) {
    const shown = typeof state === 'number' ? String(state) : `${state.status}/${state.status_code}`;
    throw new RangeError(`compareProgress: unknown status/status_code ${shown}`);
  }
  return s.rank;
}

/**
 * Orders two states (or status codes) by progress: negative when `a` is behind
 * `b`, 0 when equally far (the same step, or two final outcomes), positive when
 * ahead. Throws RangeError for pairs not in OPERATION_FLOW. To decide whether an
 * event may be applied use decideTransition, which also handles conflicts.
 */
export function compareProgress(a: OperationState | number, b: OperationState | number): number {
  return rankOf(a) - rankOf(b);
}

export type TransitionDecision =
  { action: 'apply' } | { action: 'ignore'; why: 'duplicate' | 'stale' | 'after_final' } | { action: 'review'; why: 'unknown' | 'conflict' };

/**
 * Whether an event carrying `to` may change an operation currently at `from`
 * (null/undefined: nothing recorded yet).
 * - unknown pair (either side): review, never applied;
 * - same pair: ignore (duplicate);
 * - success after declined or declined after success: review (conflict);
 * - anything else after a final state, or after success 6 other than 0: ignore;
 * - declined after an in-progress state: apply;
 * - otherwise apply only when `to` is further along than `from` (older events
 *   never move an operation backwards).
 */
export function decideTransition(from: OperationState | null | undefined, to: OperationState): TransitionDecision {
  const target = findStep(to.status, to.status_code);
  if (!target) {
    return { action: 'review', why: 'unknown' };
  }
  if (from === null || from === undefined) {
    return { action: 'apply' };
  }
  const current = findStep(from.status, from.status_code);
  if (!current) {
    return { action: 'review', why: 'unknown' };
  }
  if (current.status_code === target.status_code) {
    return { action: 'ignore', why: 'duplicate' };
  }
  const outcome = (s: OperationStep) => (s.phase === 'succeeded' ? 'success' : s.phase === 'failed' ? 'failure' : 'open');
  const a = outcome(current);
  const b = outcome(target);
  if ((a === 'success' && b === 'failure') || (a === 'failure' && b === 'success')) {
    return { action: 'review', why: 'conflict' };
  }
  if (current.final) {
    return { action: 'ignore', why: 'after_final' };
  }
  if (b === 'failure') {
    return { action: 'apply' };
  }
  return target.rank > current.rank ? { action: 'apply' } : { action: 'ignore', why: 'stale' };
}

/** True when decideTransition(from, to) says 'apply'. */
export function canTransition(from: OperationState | null | undefined, to: OperationState): boolean {
  return decideTransition(from, to).action === 'apply';
}
