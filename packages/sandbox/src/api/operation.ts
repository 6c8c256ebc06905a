/**
 * The three operation endpoints: info, confirmation, cancellation. The
 * operation is named by operation_id, partner_operation_id or both (then they
 * must agree); an id of no operation of this partner is 400 naming that member
 * (decisions.md, "Operation endpoints: which id").
 */
import { OperationStateError } from '../operations.js';
import type { SandboxContext } from '../context.js';
import type { OperationRecord, PartnerRecord } from '../store.js';
import { ApiError, invalid } from './errors.js';
import { optionalString, type Body } from './params.js';
import type { Endpoint } from './pipeline.js';

export function resolveOperation(body: Body, partner: PartnerRecord, ctx: SandboxContext): OperationRecord {
  const operationId = optionalString(body, 'operation_id');
  const partnerOperationId = optionalString(body, 'partner_operation_id');
  if (operationId === undefined && partnerOperationId === undefined) {
    throw new ApiError(400, 'missing_parameter', 'give operation_id, partner_operation_id or both', 'operation_id');
  }
  if (operationId !== undefined) {
    const op = ctx.store.getOperation(operationId);
    if (!op || op.partnerToken !== partner.token) {
      throw invalid('operation_id', `no operation ${operationId} for this partner`);
    }
    if (partnerOperationId !== undefined && op.partnerOperationId !== partnerOperationId) {
      throw invalid('partner_operation_id', 'operation_id and partner_operation_id name different operations');
    }
    return op;
  }
  // The latest operation carrying this partner_operation_id (a buyer may try again after a failure).
  const op = ctx.store.findByPartnerOperationId(partner.token, partnerOperationId!);
  if (!op) {
    throw invalid('partner_operation_id', `no operation with partner_operation_id ${partnerOperationId} for this partner`);
  }
  return op;
}

function stateChange(change: (op: OperationRecord, ctx: SandboxContext) => void): Endpoint['handle'] {
  return (body, partner, ctx) => {
    const op = resolveOperation(body, partner, ctx);
    try {
      change(op, ctx);
    } catch (error) {
      if (error instanceof OperationStateError) {
        throw new ApiError(400, 'invalid_state', error.message);
      }
      throw error;
    }
    return { empty: true };
  };
}

export const operation: Endpoint = {
  name: 'operation',
  timestamp: 'required',
  handle(body, partner, ctx) {
    const op = resolveOperation(body, partner, ctx);
    return { body: { operation_data: ctx.operations.data(op) } };
  },
};

export const confirm: Endpoint = {
  name: 'confirm',
  timestamp: 'required',
  handle: stateChange((op, ctx) => ctx.operations.confirm(op)),
};

export const cancel: Endpoint = {
  name: 'cancel',
  timestamp: 'required',
  handle: stateChange((op, ctx) => ctx.operations.cancel(op)),
};
