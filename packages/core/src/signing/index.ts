export { canonicalString, SIGNATURE_MEMBER, type CanonicalOptions, type NullReading, type NumberReading, type SigningForm } from './canonical.js';
export { SigningInputError } from './errors.js';
export { hmacSha512Hex, timingSafeEqualHex } from './hmac.js';
export {
  isJsonNumberText,
  JsonParseError,
  LosslessNumber,
  losslessToPlain,
  parseJsonLossless,
  stringifyJsonLossless,
  type LosslessJsonObject,
  type LosslessJsonValue,
} from './lossless-json.js';
export { sign, type SignOptions } from './sign.js';
export { verify, type VerifyFailureReason, type VerifyOptions, type VerifyReading, type VerifyResult } from './verify.js';
