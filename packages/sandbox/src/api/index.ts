/** The seven partner API endpoints by path (core's PARTNER_API_PATHS). */
import { PARTNER_API_PATHS, type PartnerApiEndpoint } from '@card2crypto/core';
import { calculate } from './calculate.js';
import { countries } from './countries.js';
import { exchange } from './exchange.js';
import { cancel, confirm, operation } from './operation.js';
import { params } from './params-endpoint.js';
import type { Endpoint } from './pipeline.js';

const ENDPOINTS: Record<PartnerApiEndpoint, Endpoint> = { countries, params, exchange, calculate, operation, confirm, cancel };

export const API_ROUTES: ReadonlyMap<string, Endpoint> = new Map(
  (Object.keys(PARTNER_API_PATHS) as PartnerApiEndpoint[]).map((name) => [PARTNER_API_PATHS[name], ENDPOINTS[name]]),
);

export { handlePartnerApi } from './pipeline.js';
export { SANDBOX_OPERATIONS_PATH, sandboxOperations } from './sandbox-operations.js';
