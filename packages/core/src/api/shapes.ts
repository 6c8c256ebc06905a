/**
 * Shapes of what the service sends, checked after the signature is verified.
 * Required members are those the project relies on (decisions.md, "Required
 * members of operation_data and of API answers"); the rest is optional and
 * type-checked when present.
 */
import { amount, arr, checkShape, num, numberish, obj, opt, req, str, type ShapeResult } from './shape.js';
import type { OperationData } from './types.js';

const currencyRef = obj({ code: req(str({ nonEmpty: true })), decimals: opt(numberish) });
const countryRef = obj({ code: opt(str()), name: opt(str()) });
const withdrawalInfo = obj({
  blockchain_address: opt(str()),
  blockchain_tx_id: opt(str()),
  blockchain_explorer_url: opt(str()),
});

export const OPERATION_DATA_SHAPE = obj({
  status: req(str({ nonEmpty: true })),
  status_code: req(num),
  operation_info: req(
    obj({
      id: req(str({ nonEmpty: true })),
      created_at: opt(str()),
      paid_at: opt(str()),
      from: opt(
        obj({
          payment_method: opt(num),
          payment_method_info: opt(
            obj({
              number: opt(str()),
              type: opt(str()),
              card_holder: opt(str()),
              expiry_month: opt(str()),
              expiry_year: opt(str()),
              country: opt(countryRef),
            }),
          ),
          currency: opt(currencyRef),
          amount: opt(amount),
        }),
      ),
      to: opt(
        obj({
          withdrawal_method: opt(num),
          withdrawal_method_info: opt(withdrawalInfo),
          currency: opt(currencyRef),
          amount: opt(amount),
        }),
      ),
      currency_rate: opt(num),
      status_url: opt(str()),
    }),
  ),
  partner_info: opt(
    obj({
      operation_id: opt(str()),
      token: opt(str()),
      fee_info: opt(
        obj({
          withdrawal_method: opt(num),
          withdrawal_method_info: opt(withdrawalInfo),
          currency: opt(currencyRef),
          amount: opt(amount),
        }),
      ),
    }),
  ),
  customer_info: opt(obj({ id: opt(num), account: opt(str()), country: opt(countryRef) })),
});

const COUNTRY_SHAPE = obj({
  code: req(num),
  name: req(str()),
  alpha2: req(str()),
  alpha3: req(str()),
});

const PAIR_SHAPE = obj({
  from: req(
    obj({
      amount: req(num),
      min_amount: req(num),
      max_amount: req(num),
      min_kyc_amount: opt(num),
      max_kyc_amount: opt(num),
      code: req(str({ nonEmpty: true })),
      name: opt(str()),
      symbol: opt(str()),
      minor_unit: req(numberish),
    }),
  ),
  to: req(
    obj({
      amount: req(num),
      code: req(str({ nonEmpty: true })),
      name: opt(str()),
      symbol: opt(str()),
      minor_unit: req(numberish),
    }),
  ),
});

/** UTC timestamp, up to 7 fractional digits, trailing Z. */
export const EXPIRED_AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?Z$/;

export const COUNTRIES_RESPONSE_SHAPE = obj({ countries: req(arr(COUNTRY_SHAPE)) });
export const PARAMS_RESPONSE_SHAPE = obj({ service_fee: req(num) });
export const EXCHANGE_RESPONSE_SHAPE = obj({ pairs: req(arr(PAIR_SHAPE)) });
export const CALCULATE_RESPONSE_SHAPE = obj({
  from_currency: req(str({ nonEmpty: true })),
  to_currency: req(str({ nonEmpty: true })),
  from_amount: req(amount),
  to_amount: req(amount),
  calculation_id: req(str({ nonEmpty: true })),
  expired_at: req(str({ pattern: EXPIRED_AT_PATTERN, describe: 'a UTC timestamp like 2024-05-01T12:00:00.1234567Z' })),
});
export const OPERATION_RESPONSE_SHAPE = obj({ operation_data: req(OPERATION_DATA_SHAPE) });

export type OperationDataParseResult = ShapeResult<OperationData>;

/**
 * Checks an operation_data value; the copy drops null optional members. Give it
 * parseJsonLossless output for exact amounts beyond 2^53−1 (as verifyCallback
 * and the client do); from JSON.parse output such amounts are already rounded
 * and are refused.
 */
export function parseOperationData(value: unknown): OperationDataParseResult {
  return checkShape<OperationData>(value, OPERATION_DATA_SHAPE, 'operation_data');
}
