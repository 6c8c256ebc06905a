/**
 * The status parity vectors: every (from, to) pair over core's OPERATION_FLOW
 * plus unknown pairs and "nothing recorded yet", with core's decideTransition()
 * and classify() answers. Committed as test/vectors/status-transitions.json
 * (regenerate: `npm run vectors -w plugins/checkout`); the TS test checks the
 * file is current, the PHP test checks Status_Flow gives the same answers.
 */
import { OPERATION_FLOW, classify, decideTransition, type OperationState } from '@card2crypto/core';

/** Pairs outside the table: unknown status, unknown code, known code under another status, non-integral code. */
const UNKNOWN: OperationState[] = [
  { status: 'pending', status_code: 0 },
  { status: 'success', status_code: 2 },
  { status: 'declined', status_code: 8 },
  { status: 'awaiting confirm', status_code: 9 },
  { status: 'refunded', status_code: 5 },
  { status: 'pending', status_code: 5 },
  { status: 'Pending', status_code: 2 },
  { status: 'declined', status_code: 107 },
  { status: 'pending', status_code: 2.5 },
];

export interface StatusVectors {
  version: 1;
  classify: Array<{ state: OperationState; expect: ReturnType<typeof classify> }>;
  transitions: Array<{ from: OperationState | null; to: OperationState; expect: ReturnType<typeof decideTransition> }>;
}

export function buildStatusVectors(): StatusVectors {
  const known = OPERATION_FLOW.map((s) => ({ status: s.status, status_code: s.status_code }) as OperationState);
  const all = [...known, ...UNKNOWN];
  const froms: Array<OperationState | null> = [null, ...all];
  return {
    version: 1,
    classify: all.map((state) => ({ state, expect: classify(state.status, state.status_code) })),
    transitions: froms.flatMap((from) => all.map((to) => ({ from, to, expect: decideTransition(from, to) }))),
  };
}
