/**
 * POST /sandbox/operations: a test helper, like Stripe's, with no counterpart
 * in the real service. A test puts an operation into the service's state so
 * that the operation-info endpoint answers with it, e.g. before it sends a
 * hand-made callback that a store confirms with that endpoint (docs/decisions.md,
 * "Sandbox: test helper for an operation's state"). It sends no callback.
 *
 * The body is a partner API request (partner_token, timestamp, general-form
 * signature with the partner's secret; the same pipeline, so the same refusals)
 * describing the whole operation; a second request for the same operation_id
 * replaces it. Every member is checked, naming it; a member this helper does
 * not know is refused too (a typo must not pass silently). The answer is
 * operation info's: 200 with the signed operation_data.
 */
import { findCountry, findCryptoAsset, findFiatCurrency, findStep, isOperationStatus, LosslessNumber } from '@card2crypto/core';
import { checkBuyer } from '../buyer.js';
import type { SandboxContext } from '../context.js';
import { cardType, luhnValid, maskCardNumber } from '../scenarios.js';
import type { MaskedCard } from '../store.js';
import { invalid, missing } from './errors.js';
import { describe, has, optionalAmount, optionalString, requiredString, type Body } from './params.js';
import type { Endpoint } from './pipeline.js';

export const SANDBOX_OPERATIONS_PATH = '/sandbox/operations';

const REQUEST_MEMBERS = ['partner_token', 'timestamp', 'signature'];
const MEMBERS = [
  'operation_id',
  'partner_operation_id',
  'status',
  'status_code',
  'from_currency',
  'from_amount',
  'to_currency',
  'to_amount',
  'fee_amount',
  'to_account',
  'email',
  'customer_country',
  'card_number',
  'blockchain_tx_id',
];

/** Ids end up in URLs and in signed canonical strings: plain characters only, never ";" or ":". */
const ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** The card a test gets when it names none: the first success test card. */
const DEFAULT_CARD = '4242424242424242';
const DEFAULT_EMAIL = 'buyer@example.com';
const DEFAULT_COUNTRY = 'DE';

function id(body: Body, field: string, required: boolean): string | undefined {
  const value = required ? requiredString(body, field) : optionalString(body, field);
  if (value !== undefined && !ID.test(value)) {
    throw invalid(field, `${field} must be 1 to 128 letters, digits, ".", "_", "~" or "-"`);
  }
  return value;
}

function amount(body: Body, field: string): bigint {
  const value = optionalAmount(body, field);
  if (value === undefined) {
    throw missing(field);
  }
  return value;
}

function statusCode(body: Body): number {
  if (!has(body, 'status_code')) {
    throw missing('status_code');
  }
  const value = body.status_code;
  if (!(value instanceof LosslessNumber) || !/^(0|[1-9][0-9]{0,2})$/.test(value.text)) {
    throw invalid(
      'status_code',
      `status_code must be a whole number of the status model, not ${value instanceof LosslessNumber ? value.text : describe(value)}`,
    );
  }
  return Number(value.text);
}

/** The card a paid operation carries, masked as the widget stores it. */
function card(body: Body, code: number, country: string, now: number): MaskedCard | null {
  const given = optionalString(body, 'card_number');
  // Pending 1: not paid yet; declined 102: the card data never reached the payment processor.
  if (code === 1 || code === 102) {
    if (given !== undefined) {
      throw invalid('card_number', `an operation at status code ${code} has not been paid with a card; leave card_number out`);
    }
    return null;
  }
  const digits = given ?? DEFAULT_CARD;
  if (!luhnValid(digits)) {
    throw invalid('card_number', 'card_number must be 12 to 19 digits passing the Luhn check (a test card of the README)');
  }
  return {
    number: maskCardNumber(digits),
    type: cardType(digits),
    card_holder: 'TEST BUYER',
    expiry_month: '12',
    expiry_year: String(new Date(now).getUTCFullYear() + 3),
    country,
  };
}

export const sandboxOperations: Endpoint = {
  name: 'sandbox-operations',
  timestamp: 'required',
  handle(body, partner, ctx: SandboxContext) {
    for (const field of Object.keys(body)) {
      if (!REQUEST_MEMBERS.includes(field) && !MEMBERS.includes(field)) {
        throw invalid(field, `${field} is not a member of ${SANDBOX_OPERATIONS_PATH}; its members are ${MEMBERS.join(', ')}`);
      }
    }
    const operationId = id(body, 'operation_id', true)!;
    const existing = ctx.store.getOperation(operationId);
    if (existing && existing.partnerToken !== partner.token) {
      throw invalid('operation_id', `operation_id ${operationId} names an operation of another partner`);
    }
    const partnerOperationId = id(body, 'partner_operation_id', false) ?? null;

    const status = requiredString(body, 'status');
    if (!isOperationStatus(status)) {
      throw invalid('status', `status must be "pending", "awaiting confirm", "success" or "declined", not "${status}"`);
    }
    const code = statusCode(body);
    const step = findStep(status, code);
    if (!step) {
      throw invalid('status_code', `"${status}" ${code} is not a pair of the status model (docs/decisions.md, "Status / status_code pairing and sequence")`);
    }

    const fromCurrency = requiredString(body, 'from_currency');
    const fiat = findFiatCurrency(fromCurrency);
    if (!fiat) {
      throw invalid('from_currency', `from_currency "${fromCurrency}" is not a supported fiat currency`);
    }
    const fromAmount = amount(body, 'from_amount');
    const toCurrency = requiredString(body, 'to_currency');
    const asset = findCryptoAsset(toCurrency);
    if (!asset) {
      throw invalid('to_currency', `to_currency "${toCurrency}" is not a supported crypto asset`);
    }
    const toAmount = amount(body, 'to_amount');
    const feeAmount = optionalAmount(body, 'fee_amount') ?? 0n;

    const toAccount = requiredString(body, 'to_account');
    const email = optionalString(body, 'email') ?? DEFAULT_EMAIL;
    checkBuyer(toAccount, asset.symbol, email);
    const customerCountry = optionalString(body, 'customer_country') ?? DEFAULT_COUNTRY;
    if (!findCountry(customerCountry)) {
      throw invalid('customer_country', `customer_country must be an ISO 3166-1 alpha-2 code of the spec's list (e.g. DE), not "${customerCountry}"`);
    }

    const txId = id(body, 'blockchain_tx_id', false) ?? null;
    if (txId !== null && step.status !== 'success') {
      throw invalid('blockchain_tx_id', `blockchain_tx_id: the withdrawal transaction exists from success 6 on; an operation at "${status}" ${code} has none`);
    }

    const op = ctx.operations.put({
      id: operationId,
      partnerToken: partner.token,
      partnerOperationId,
      status: step.status,
      statusCode: step.status_code,
      fromCurrency: fiat.code,
      fromAmount,
      toCurrency: asset.symbol,
      toAmount,
      feeAmount,
      currencyRate: ctx.pricing.rate(fiat, asset),
      toAccount,
      email,
      customerCountry,
      card: card(body, code, customerCountry, ctx.clock.now()),
      txId,
    });
    return { body: { operation_data: ctx.operations.data(op) } };
  },
};
