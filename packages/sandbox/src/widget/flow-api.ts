/**
 * The JSON endpoints the widget frame calls during the purchase flow
 * (same origin as the frame; every call names the frame's session):
 *
 *   POST /widget/api/quote                      amounts for the form
 *   POST /widget/api/operations                 create the operation (pending 1)
 *   POST /widget/api/operations/:id             operation_data (polling)
 *   POST /widget/api/operations/:id/pay         card (+ identity), starts the test-card plan
 *   POST /widget/api/operations/:id/abandon     the buyer left before paying: 102
 *
 * Inputs are checked here (the frame only shows what comes back); refusals are
 * 400 { error: { code, field, message } } naming the form field.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findCountry, findFiatCurrency } from '@card2crypto/core';
import { ApiError, invalid, missing } from '../api/errors.js';
import { BodyError, readBody } from '../body.js';
import { checkBuyer } from '../buyer.js';
import type { SandboxContext } from '../context.js';
import { sendError, sendJson } from '../http.js';
import { plain } from '../json.js';
import { OperationStateError } from '../operations.js';
import { QuoteError, type Quote } from '../pricing.js';
import { cardType, luhnValid, maskCardNumber, scenarioOf } from '../scenarios.js';
import type { OperationRecord, SessionRecord } from '../store.js';

type Input = Record<string, unknown>;

function text(input: Input, field: string, max = 256): string {
  const value = input[field];
  if (value === undefined || value === null || value === '') {
    throw missing(field);
  }
  if (typeof value !== 'string') {
    throw invalid(field, `${field} must be text`);
  }
  const trimmed = value.trim();
  if (trimmed === '') {
    throw missing(field);
  }
  if (trimmed.length > max) {
    throw invalid(field, `${field} is longer than ${max} characters`);
  }
  return trimmed;
}

function minorUnits(input: Input, field: string): bigint | undefined {
  const value = input[field];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string' || !/^[1-9][0-9]*$/.test(value)) {
    throw invalid(field, `${field} must be a whole number of minimum units`);
  }
  return BigInt(value);
}

function quoteFor(input: Input, session: SessionRecord, ctx: SandboxContext): Quote {
  const calculationId = session.settings.calculation_id;
  if (typeof calculationId === 'string') {
    const calc = ctx.store.getCalculation(calculationId)!;
    return {
      fromCurrency: calc.fromCurrency,
      toCurrency: calc.toCurrency,
      fromAmount: BigInt(calc.fromAmount),
      toAmount: BigInt(calc.toAmount),
      feeAmount: BigInt(calc.feeAmount),
      rate: calc.rate,
    };
  }
  const fromAmount = minorUnits(input, 'from_amount');
  const toAmount = fromAmount === undefined ? minorUnits(input, 'to_amount') : undefined;
  if (fromAmount === undefined && toAmount === undefined) {
    throw missing('from_amount');
  }
  try {
    return ctx.pricing.quote({
      fromCurrency: text(input, 'from_currency'),
      toCurrency: text(input, 'to_currency'),
      ...(fromAmount !== undefined ? { fromAmount } : { toAmount: toAmount! }),
    });
  } catch (error) {
    if (error instanceof QuoteError) {
      throw invalid(error.field, error.message);
    }
    throw error;
  }
}

function quoteJson(quote: Quote, ctx: SandboxContext) {
  const limits = ctx.pricing.limits(findFiatCurrency(quote.fromCurrency)!);
  return {
    from_currency: quote.fromCurrency,
    to_currency: quote.toCurrency,
    from_amount: quote.fromAmount.toString(),
    to_amount: quote.toAmount.toString(),
    fee_amount: quote.feeAmount.toString(),
    rate: quote.rate,
    kyc_required: quote.fromAmount > limits.maxWithoutKyc,
  };
}

function ownOperation(id: string, session: SessionRecord, ctx: SandboxContext): OperationRecord {
  const op = ctx.operations.get(id);
  if (!op || op.sessionId !== session.id) {
    throw new ApiError(404, 'not_found', 'no such operation in this widget session');
  }
  return op;
}

function checkCard(input: Input, now: number): { digits: string; holder: string; month: string; year: string } {
  const digits = text(input, 'card_number', 40).replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    throw invalid('card_number', 'This card number is not valid.');
  }
  const holder = text(input, 'card_holder', 64);
  // ";" separates the lines of the signed canonical string: a name carrying one could make a callback read as another body
  // (docs/decisions.md, "Callbacks: ambiguous bodies and the service's word"), so the sandbox never puts one in operation_data.
  if (holder.includes(';')) {
    throw invalid('card_holder', 'The card holder name may not contain ";".');
  }
  const month = text(input, 'expiry_month', 2);
  const yearText = text(input, 'expiry_year', 4);
  if (!/^(0?[1-9]|1[0-2])$/.test(month)) {
    throw invalid('expiry_month', 'The expiry month must be 01 to 12.');
  }
  if (!/^(\d{2}|\d{4})$/.test(yearText)) {
    throw invalid('expiry_year', 'The expiry year must have 2 or 4 digits.');
  }
  const year = yearText.length === 2 ? `20${yearText}` : yearText;
  const endOfMonth = Date.UTC(Number(year), Number(month), 1);
  if (endOfMonth <= now) {
    throw invalid('expiry_year', 'This card has expired.');
  }
  if (!/^\d{3,4}$/.test(text(input, 'cvc', 4))) {
    throw invalid('cvc', 'The CVC is 3 or 4 digits.');
  }
  return { digits, holder, month: month.padStart(2, '0'), year };
}

function checkIdentity(input: Input): void {
  const kyc = input.kyc;
  if (typeof kyc !== 'object' || kyc === null) {
    throw new ApiError(400, 'missing_parameter', 'Identity verification is required for this amount.', 'kyc');
  }
  const k = kyc as Input;
  for (const field of ['first_name', 'last_name', 'document_number']) {
    try {
      text(k, field, 64);
    } catch (error) {
      if (error instanceof ApiError) {
        throw new ApiError(400, error.code, error.message, `kyc.${field}`);
      }
      throw error;
    }
  }
  const birth = text(k, 'birth_date', 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birth) || Number.isNaN(Date.parse(birth))) {
    throw invalid('kyc.birth_date', 'The date of birth must be a date (YYYY-MM-DD).');
  }
}

export async function handleFlowApi(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, path: string): Promise<void> {
  try {
    if (req.method !== 'POST') {
      req.resume();
      throw new ApiError(405, 'method_not_allowed', 'POST only', undefined, { allow: 'POST' });
    }
    let input: Input;
    try {
      const parsed: unknown = JSON.parse(await readBody(req, ctx.settings.maxBodyBytes, 'json'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new ApiError(400, 'invalid_json', 'expected a JSON object');
      }
      input = parsed as Input;
    } catch (error) {
      if (error instanceof BodyError) {
        throw new ApiError(error.status, error.code, error.message);
      }
      if (error instanceof SyntaxError) {
        throw new ApiError(400, 'invalid_json', 'the body is not valid JSON');
      }
      throw error;
    }
    const session = typeof input.session === 'string' ? ctx.store.getSession(input.session) : undefined;
    if (!session) {
      throw new ApiError(403, 'invalid_session', 'This widget session is unknown; start the widget again.');
    }
    const partner = ctx.partners.get(session.partnerToken);
    if (!partner || partner.blocked) {
      throw new ApiError(403, 'partner_blocked', 'Partner blocked.');
    }
    sendJson(res, 200, answer(path, input, session, ctx));
  } catch (error) {
    if (error instanceof ApiError) {
      sendError(res, error.status, { code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}) }, error.headers);
      return;
    }
    throw error;
  }
}

function answer(path: string, input: Input, session: SessionRecord, ctx: SandboxContext): unknown {
  if (path === 'quote') {
    return quoteJson(quoteFor(input, session, ctx), ctx);
  }
  if (path === 'operations') {
    const quote = quoteFor(input, session, ctx);
    const toAccount = text(input, 'to_account', 128);
    const email = text(input, 'email', 254);
    checkBuyer(toAccount, quote.toCurrency, email);
    const country = text(input, 'country', 2);
    if (!findCountry(country)) {
      throw invalid('country', 'Choose a country from the list.');
    }
    const op = ctx.operations.create({
      partnerToken: session.partnerToken,
      partnerOperationId: typeof session.settings.partner_operation_id === 'string' ? session.settings.partner_operation_id : null,
      quote,
      toAccount,
      email,
      customerCountry: country,
      calculationId: typeof session.settings.calculation_id === 'string' ? session.settings.calculation_id : null,
      sessionId: session.id,
    });
    return { operation_id: op.id, operation_data: plain(ctx.operations.data(op)), quote: quoteJson(quote, ctx) };
  }
  const match = /^operations\/([^/]+)(?:\/(pay|abandon))?$/.exec(path);
  if (!match) {
    throw new ApiError(404, 'not_found', `nothing at /widget/api/${path}`);
  }
  const op = ownOperation(decodeURIComponent(match[1]!), session, ctx);
  try {
    if (match[2] === 'pay') {
      return { operation_data: plain(ctx.operations.data(pay(op, input, ctx))) };
    }
    if (match[2] === 'abandon') {
      const reason = typeof input.reason === 'string' ? input.reason.slice(0, 100) : 'left the widget';
      return { operation_data: plain(ctx.operations.data(ctx.operations.abandon(op, `buyer ${reason}`))) };
    }
  } catch (error) {
    if (error instanceof OperationStateError) {
      throw new ApiError(409, 'invalid_state', error.message);
    }
    throw error;
  }
  return { operation_data: plain(ctx.operations.data(op)) };
}

function pay(op: OperationRecord, input: Input, ctx: SandboxContext): OperationRecord {
  const now = ctx.clock.now();
  const card = checkCard(input, now);
  const limits = ctx.pricing.limits(findFiatCurrency(op.fromCurrency)!);
  if (BigInt(op.fromAmount) > limits.maxWithoutKyc) {
    checkIdentity(input);
  }
  const calc = op.calculationId ? ctx.store.getCalculation(op.calculationId) : undefined;
  return ctx.operations.pay(
    op,
    {
      number: maskCardNumber(card.digits),
      type: cardType(card.digits),
      card_holder: card.holder,
      expiry_month: card.month,
      expiry_year: card.year,
      country: op.customerCountry,
    },
    scenarioOf(card.digits),
    calc !== undefined && calc.expiresAt <= now,
  );
}
