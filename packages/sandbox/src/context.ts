/** The services every part of the sandbox shares. */
import type { CallbackDispatcher } from './callbacks/dispatcher.js';
import type { Clock } from './clock.js';
import type { Operations } from './operations.js';
import type { PartnerRegistry } from './partners.js';
import type { Pricing } from './pricing.js';
import type { RateCounter, RateLimiter } from './rate-limit.js';
import type { Store } from './store.js';

/** The addresses the sandbox prints (the spec's placeholders) plus its dashboard. */
export interface SandboxUrls {
  base_url: string;
  widget_script_url: string;
  landing_url: string;
  status_page_url: string;
  dashboard_url: string;
}

export interface ResolvedSettings {
  /** Sandbox seconds a fixed rate stays valid. */
  rateLifetimeSeconds: number;
  maxBodyBytes: number;
  /** Accepted distance of a request timestamp from real time, milliseconds. */
  timestampAheadMs: number;
  timestampBehindMs: number;
  /** Real milliseconds every partner API answer waits before it is sent (a service far away). */
  latencyMs: number;
  /** Up to this many more real milliseconds, drawn anew for each answer. */
  latencyJitterMs: number;
}

export interface SandboxContext {
  store: Store;
  clock: Clock;
  pricing: Pricing;
  partners: PartnerRegistry;
  operations: Operations;
  dispatcher: CallbackDispatcher;
  rateLimiter: RateLimiter;
  /** Partner API requests received, per partner token and endpoint (refused ones included): what a store's traffic costs. */
  apiCalls: Map<string, Map<string, number>>;
  /** Partner API requests per wall-clock second and 429s, per partner token (the test helper not counted). */
  apiRate: RateCounter;
  urls: SandboxUrls;
  settings: ResolvedSettings;
}
