/**
 * Browser-safe entry of @card2crypto/core: the domain modules only (no
 * node: imports anywhere in their graph; a test walks the compiled imports to
 * keep it so). Bundle this, not index.ts, into plugin scripts.
 */
export { type Problem, ValidationError } from './validation.js';
export * from './reference/index.js';
export * from './money.js';
export * from './btc-address.js';
export * from './theme.js';
export * from './widget-settings.js';
export * from './landing-url.js';
export * from './settings-schema.js';
export * from './settings-validator.js';
export { isIpv4, isIpv6, isIpOrCidr, splitIpList } from './ip.js';
