/**
 * operation_data as the sandbox writes it (operation-info answers, callbacks,
 * widget handlers), built from a stored operation. Members that do not exist
 * yet are left out: paid_at until the money is received, transaction ids and
 * explorer links until the withdrawal transaction exists (code 6), the card
 * until the buyer has paid (payment_method_info is then {}), the partner's
 * operation id when the widget had none (decisions.md, "Sandbox: operation_data").
 */
import { currencyDecimals, findCountry } from '@card2crypto/core';
import { explorerUrl, partnerWallet } from './chain.js';
import { serviceTime } from './clock.js';
import { amountValue } from './json.js';
import type { OperationRecord } from './store.js';

/** Payment and withdrawal method: 1 is the only value the spec documents; the sandbox always writes it. */
export const METHOD_ID = 1;

function countryRef(alpha2: string): { code: string; name: string } {
  const country = findCountry(alpha2);
  return { code: alpha2, name: country ? country.name : alpha2 };
}

export function statusUrl(statusPageUrl: string, operationId: string): string {
  return `${statusPageUrl}/${encodeURIComponent(operationId)}`;
}

export function buildOperationData(op: OperationRecord, statusPageUrl: string): Record<string, unknown> {
  const fromInfo: Record<string, unknown> = {};
  if (op.card) {
    fromInfo.number = op.card.number;
    fromInfo.type = op.card.type;
    fromInfo.card_holder = op.card.card_holder;
    fromInfo.expiry_month = op.card.expiry_month;
    fromInfo.expiry_year = op.card.expiry_year;
    fromInfo.country = countryRef(op.card.country);
  }
  const toInfo: Record<string, unknown> = { blockchain_address: op.toAccount };
  if (op.txId) {
    toInfo.blockchain_tx_id = op.txId;
    toInfo.blockchain_explorer_url = explorerUrl(op.toCurrency, op.txId, op.toAccount);
  }
  const feeWallet = partnerWallet(op.toCurrency, op.partnerToken);
  const feeInfo: Record<string, unknown> = { blockchain_address: feeWallet };
  if (op.feeTxId) {
    feeInfo.blockchain_tx_id = op.feeTxId;
    feeInfo.blockchain_explorer_url = explorerUrl(op.toCurrency, op.feeTxId, feeWallet);
  }
  const operationInfo: Record<string, unknown> = {
    id: op.id,
    created_at: serviceTime(op.createdAt),
  };
  if (op.paidAt !== null) {
    operationInfo.paid_at = serviceTime(op.paidAt);
  }
  operationInfo.from = {
    payment_method: METHOD_ID,
    payment_method_info: fromInfo,
    currency: { code: op.fromCurrency, decimals: currencyDecimals(op.fromCurrency) },
    amount: amountValue(op.fromAmount),
  };
  operationInfo.to = {
    withdrawal_method: METHOD_ID,
    withdrawal_method_info: toInfo,
    currency: { code: op.toCurrency, decimals: currencyDecimals(op.toCurrency) },
    amount: amountValue(op.toAmount),
  };
  operationInfo.currency_rate = Number(op.currencyRate);
  operationInfo.status_url = statusUrl(statusPageUrl, op.id);

  const partnerInfo: Record<string, unknown> = {};
  if (op.partnerOperationId !== null) {
    partnerInfo.operation_id = op.partnerOperationId;
  }
  partnerInfo.token = op.partnerToken;
  partnerInfo.fee_info = {
    withdrawal_method: METHOD_ID,
    withdrawal_method_info: feeInfo,
    currency: { code: op.toCurrency, decimals: currencyDecimals(op.toCurrency) },
    amount: amountValue(op.feeAmount),
  };

  return {
    status: op.status,
    status_code: op.statusCode,
    operation_info: operationInfo,
    partner_info: partnerInfo,
    customer_info: {
      id: op.customerId,
      account: op.email,
      country: countryRef(op.customerCountry),
    },
  };
}
