/**
 * Test fixtures shared by every suite that plays the service's side of a
 * payment (the WordPress-level tests, the end-to-end specs): the
 * operation_data the service sends for a payment a store signed, and the
 * signed body that makes the sandbox know that operation (its test helper,
 * `POST /sandbox/operations`), so that the store's operation-info call finds
 * what the callback said.
 */
import { sign } from '@card2crypto/core';

/** What a store signed for a payment (the landing URL's params, the widget's settings). */
export interface SignedPayment {
  partner_operation_id: string;
  partner_token: string;
  from_currency: string;
  from_amount: number;
  to_account: string;
}

export interface OperationFixtureOptions {
  /** The operation's id (default `op-` + the payment's partner_operation_id). */
  id?: string;
  /** Another amount than the payment's (a short payment). */
  amount?: number;
  /** Another wallet than the payment's. */
  wallet?: string;
  /** Another currency than the payment's. */
  currency?: string;
  /** The bitcoin bought, in satoshi (default 123456). */
  toAmount?: number;
}

/**
 * operation_data as the service sends it for `payment` at `status`/`code`:
 * a card payment from Germany, the bitcoin to the payment's wallet, with a
 * transaction once it is sent (codes 6 and 0).
 */
export function operationDataFor(payment: SignedPayment, status: string, code: number, options: OperationFixtureOptions = {}): Record<string, unknown> {
  const id = options.id ?? `op-${payment.partner_operation_id}`;
  const tx = code === 6 || code === 0 ? { blockchain_tx_id: `tx${id}`, blockchain_explorer_url: `https://mempool.space/tx/tx${id}` } : {};
  return {
    status,
    status_code: code,
    operation_info: {
      id,
      created_at: '2026-11-21T22:00:00.0000000Z',
      from: {
        payment_method: 1,
        payment_method_info: { type: 'VISA', country: { code: 'DE', name: 'Germany' } },
        currency: { code: options.currency ?? payment.from_currency, decimals: 2 },
        amount: options.amount ?? payment.from_amount,
      },
      to: {
        withdrawal_method: 1,
        withdrawal_method_info: { blockchain_address: options.wallet ?? payment.to_account, ...tx },
        currency: { code: 'BTC', decimals: 8 },
        amount: options.toAmount ?? 123456,
      },
      currency_rate: 64000.5,
      status_url: `http://127.0.0.1/status/${id}`,
    },
    partner_info: { operation_id: payment.partner_operation_id, token: payment.partner_token },
  };
}

/**
 * The signed body of `POST /sandbox/operations` that makes the sandbox know
 * `operation` (an operation_data, as operationDataFor() makes) for the
 * partner `token`, signed with its `secret`.
 */
export function knownOperationBody(operation: Record<string, unknown>, token: string, secret: string, now = Date.now()): Record<string, unknown> {
  const info = operation.operation_info as {
    id: string;
    from: { currency: { code: string }; amount: number };
    to: { currency: { code: string }; amount: number; withdrawal_method_info: { blockchain_address: string; blockchain_tx_id?: string } };
  };
  const partnerInfo = operation.partner_info as { operation_id: string };
  const tx = info.to.withdrawal_method_info.blockchain_tx_id;
  const body: Record<string, unknown> = {
    partner_token: token,
    timestamp: now,
    operation_id: info.id,
    partner_operation_id: partnerInfo.operation_id,
    status: operation.status,
    status_code: operation.status_code,
    from_currency: info.from.currency.code,
    from_amount: info.from.amount,
    to_currency: info.to.currency.code,
    to_amount: info.to.amount,
    to_account: info.to.withdrawal_method_info.blockchain_address,
    ...(tx !== undefined ? { blockchain_tx_id: tx } : {}),
  };
  body.signature = sign(body, secret, { form: 'general' });
  return body;
}
