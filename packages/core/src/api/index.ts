export { PartnerApiClient, type PartnerApiClientOptions, type RateCalculationRequest, type OperationRef, type PartnerParams } from './client.js';
export { PartnerApiError, HTTP_STATUS_MEANINGS, parseRetryAfter, type PartnerApiErrorKind, type PartnerApiErrorDetails } from './errors.js';
export { parseOperationData, EXPIRED_AT_PATTERN, type OperationDataParseResult } from './shapes.js';
export * from './types.js';
