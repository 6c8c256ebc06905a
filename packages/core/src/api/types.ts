/**
 * Wire types of the partner API and callbacks, member names exactly as in the
 * spec. Shared by the client (src/api/client.ts), the callback parser
 * (src/callbacks.ts) and the sandbox. Amounts are integers in minimum units,
 * typed MinorUnits: a number when it is a safe integer, a bigint beyond 2^53−1
 * (18- and 24-decimal tokens); see money.ts and decisions.md ("Amounts beyond
 * 2^53 in the API"). Pair reference amounts stay plain numbers.
 */
import type { MinorUnits } from '../money.js';

/** Paths under {base_url}; every request is a signed JSON POST. */
export const PARTNER_API_PATHS = Object.freeze({
  countries: '/api/partner/countries',
  params: '/api/partner/params',
  exchange: '/api/partner/exchange',
  calculate: '/api/partner/exchange/calculate',
  operation: '/api/partner/operation',
  confirm: '/api/partner/params/confirm',
  cancel: '/api/partner/params/cancel',
} as const);

export type PartnerApiEndpoint = keyof typeof PARTNER_API_PATHS;

// ---------------------------------------------------------------- requests

/** Members every request carries. */
export interface SignedRequest {
  partner_token: string;
  /** Milliseconds since the epoch; accepted 30 s ahead / 5 s behind the service clock. */
  timestamp: number;
  /** General-form signature over every other member. */
  signature: string;
}

export type CountriesRequest = SignedRequest;
export type ParamsRequest = SignedRequest;
export type ExchangeRequest = SignedRequest;

/**
 * Rate fixing. Exactly one of from_amount / to_amount (decisions.md). The spec's
 * table omits timestamp; the client sends it anyway and the service accepts the
 * request with or without it (decisions.md).
 */
export interface CalculateRequest extends Omit<SignedRequest, 'timestamp'> {
  from_currency: string;
  to_currency: string;
  from_amount?: MinorUnits;
  to_amount?: MinorUnits;
  timestamp?: number;
}

/**
 * Operation info, confirmation and cancellation. At least one id; when both are
 * sent they must name the same operation (decisions.md).
 */
export interface OperationRequest extends SignedRequest {
  operation_id?: string;
  partner_operation_id?: string;
}

// ---------------------------------------------------------------- data

export interface CountryItem {
  /** ISO 3166-1 numeric (some non-standard values exist). */
  code: number;
  name: string;
  alpha2: string;
  alpha3: string;
}

export interface CurrencyPairFrom {
  /** Fiat reference amount. */
  amount: number;
  min_amount: number;
  max_amount: number;
  min_kyc_amount?: number;
  max_kyc_amount?: number;
  code: string;
  name?: string;
  symbol?: string;
  /** Decimal places (labelled string in the spec, a number in practice; normalised to a number). */
  minor_unit: number;
}

export interface CurrencyPairTo {
  /** Price in this currency for from.amount. */
  amount: number;
  code: string;
  name?: string;
  symbol?: string;
  minor_unit: number;
}

export interface CurrencyPair {
  from: CurrencyPairFrom;
  to: CurrencyPairTo;
}

export interface RateCalculation {
  from_currency: string;
  to_currency: string;
  /** Minimum units of from_currency. */
  from_amount: MinorUnits;
  /** Minimum units of to_currency (wei for ETH: often beyond 2^53, then a bigint). */
  to_amount: MinorUnits;
  /** Rate identifier, sent to the widget to buy at the fixed rate. */
  calculation_id: string;
  /** UTC, up to 7 fractional digits, trailing Z, e.g. 2024-05-01T12:00:00.1234567Z. */
  expired_at: string;
}

export interface CurrencyRef {
  code: string;
  decimals?: number;
}

export interface CountryRef {
  code?: string;
  name?: string;
}

export interface PaymentMethodInfo {
  /** Masked card number. */
  number?: string;
  type?: string;
  card_holder?: string;
  expiry_month?: string;
  expiry_year?: string;
  country?: CountryRef;
}

export interface WithdrawalMethodInfo {
  blockchain_address?: string;
  blockchain_tx_id?: string;
  blockchain_explorer_url?: string;
}

export interface OperationSource {
  /** Payment type; 1 is documented as cash. */
  payment_method?: number;
  /** May be an empty object. */
  payment_method_info?: PaymentMethodInfo;
  currency?: CurrencyRef;
  /** Minimum units of the source currency. */
  amount?: MinorUnits;
}

export interface OperationTarget {
  /** Withdrawal method; 1 is documented as cash. */
  withdrawal_method?: number;
  /** Only the address may be present early in the operation. */
  withdrawal_method_info?: WithdrawalMethodInfo;
  currency?: CurrencyRef;
  /** Minimum units of the resulting currency (a bigint beyond 2^53−1). */
  amount?: MinorUnits;
}

export interface OperationInfo {
  /** Operation id in the service. */
  id: string;
  created_at?: string;
  paid_at?: string;
  from?: OperationSource;
  to?: OperationTarget;
  currency_rate?: number;
  /** Public status page of the operation. */
  status_url?: string;
}

export interface FeeInfo {
  withdrawal_method?: number;
  withdrawal_method_info?: WithdrawalMethodInfo;
  currency?: CurrencyRef;
  /** Minimum units of the fee currency (a bigint beyond 2^53−1). */
  amount?: MinorUnits;
}

export interface PartnerInfo {
  /** Operation id on the partner side (partner_operation_id). */
  operation_id?: string;
  /** Operation token. */
  token?: string;
  fee_info?: FeeInfo;
}

export interface CustomerInfo {
  id?: number;
  /** Customer e-mail. */
  account?: string;
  country?: CountryRef;
}

/**
 * operation_data of the operation-info response and of callbacks. Required for
 * us: status, status_code, operation_info.id (decisions.md); everything else is
 * optional and type-checked when present. Unknown members are kept as received.
 * Classify (status, status_code) with classify() from status.ts.
 */
export interface OperationData {
  status: string;
  status_code: number;
  operation_info: OperationInfo;
  partner_info?: PartnerInfo;
  customer_info?: CustomerInfo;
}

// ---------------------------------------------------------------- responses (HTTP 200)

export interface CountriesResponse {
  countries: CountryItem[];
  signature: string;
}

export interface ParamsResponse {
  /** Fraction: 0.01 is 1%. */
  service_fee: number;
  signature: string;
}

export interface ExchangeResponse {
  pairs: CurrencyPair[];
  signature: string;
}

export interface CalculateResponse extends RateCalculation {
  signature: string;
}

/** Operation-info response; callbacks carry the same body (decisions.md). */
export interface OperationResponse {
  operation_data: OperationData;
  signature: string;
}

/** Callback request body: the same shape as the operation-info response. */
export type CallbackBody = OperationResponse;

// ---------------------------------------------------------------- errors

/**
 * Body of non-200 responses other than 401 (401 is text/plain containing
 * "Wrong signature"). Codes used by the project: invalid_json,
 * missing_parameter, invalid_parameter, invalid_state, partner_blocked,
 * partner_not_found, too_many_requests, internal_error.
 */
export interface ErrorBody {
  error: {
    code: string;
    /** The request member at fault, when one is. */
    field?: string;
    message: string;
  };
}
