export { PartnerApiClient, type PartnerApiClientOptions, type RateCalculationRequest, type OperationRef, type PartnerParams } from './client.js';
export {
  PartnerApiError,
  HTTP_STATUS_MEANINGS,
  parseRetryAfter,
  type PartnerApiErrorKind,
  type PartnerApiErrorDetails,
} from './errors.js';
export { checkShape, type Shape, type Member, type ShapeResult } from './shape.js';
export {
  parseOperationData,
  OPERATION_DATA_SHAPE,
  COUNTRIES_RESPONSE_SHAPE,
  PARAMS_RESPONSE_SHAPE,
  EXCHANGE_RESPONSE_SHAPE,
  CALCULATE_RESPONSE_SHAPE,
  OPERATION_RESPONSE_SHAPE,
  EXPIRED_AT_PATTERN,
} from './shapes.js';
export * from './types.js';
