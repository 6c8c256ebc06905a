/**
 * The sandbox (package @card2crypto/sandbox): the card-to-crypto service run locally.
 *
 *     const sandbox = await startSandbox({ dataDir, partners: [{ token, secret, callbackUrl }] });
 *     sandbox.urls.base_url; // http://127.0.0.1:PORT
 *     await sandbox.close();
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallbackDispatcher } from './callbacks/dispatcher.js';
import { createClock } from './clock.js';
import type { SandboxContext, SandboxUrls } from './context.js';
import { Operations } from './operations.js';
import { PartnerRegistry, type PartnerConfig } from './partners.js';
import { Pricing, type PriceTable } from './pricing.js';
import { RateCounter, RateLimiter } from './rate-limit.js';
import { createHandler } from './server.js';
import { Store } from './store.js';

export type { SandboxUrls } from './context.js';
export type { PartnerConfig } from './partners.js';
export type { PriceTable } from './pricing.js';
export { parsePartnerSpec, parsePartnersFile } from './partners.js';
export { DEFAULT_PRICES } from './pricing.js';
export { TEST_CARDS, type TestCard, type Scenario } from './scenarios.js';
export { SANDBOX_OPERATIONS_PATH } from './api/sandbox-operations.js';
export { operationDataFor, knownOperationBody, type SignedPayment, type OperationFixtureOptions } from './fixtures.js';

export interface SandboxOptions {
  /** Directory of the SQLite file (created if missing). Required: state survives restarts. */
  dataDir: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Partners to create or update (secret and callback URL; the block flag is kept). */
  partners?: readonly PartnerConfig[];
  /** How many times faster the sandbox's own waits run (callback retries, rate lifetimes, operation steps). Default 1. */
  clockSpeed?: number;
  /** Partner API requests a second per partner (also the burst); 0 turns the limit off. Default 20. */
  rateLimit?: number;
  /** Lifetime of a fixed rate, sandbox seconds. Default 600. */
  rateLifetimeSeconds?: number;
  /** Sandbox milliseconds between two automatic operation steps. Default 2000. */
  stepDelayMs?: number;
  /** Sandbox seconds an unpaid operation stays created (pending 1) before it ends in declined 102. Default 3600. */
  unpaidLifetimeSeconds?: number;
  /** Partner's commission as a decimal fraction; default "0.01" (1%). */
  serviceFee?: string;
  /** Purchases above this share of a currency's maximum need identity verification. Default 20 (%). */
  kycThresholdPercent?: number;
  /** USD values overriding the default price table. */
  prices?: Partial<PriceTable>;
  /** Largest accepted request body, bytes. Default 65536. */
  maxBodyBytes?: number;
  /** Local address callbacks are sent from (what a partner allow-lists). */
  callbackIp?: string;
  /** Real milliseconds one callback delivery may take. Default 10000. */
  callbackTimeoutMs?: number;
  /** Callback deliveries in flight per partner. Default 8. */
  callbackConcurrency?: number;
  /** Real milliseconds every partner API answer waits, as from a service far away. Default 0. */
  latencyMs?: number;
  /** Up to this many more real milliseconds per answer, drawn anew each time. Default 0. */
  latencyJitterMs?: number;
}

export interface Sandbox {
  urls: SandboxUrls;
  port: number;
  /** The address outgoing callbacks come from. */
  callbackIp: string;
  /** Services, for tests and tools in this repository. */
  context: SandboxContext;
  close: () => Promise<void>;
}

/** A delay option: a finite number of milliseconds, 0 or more (0 when not given). */
function nonNegative(name: string, value: number | undefined): number {
  if (value === undefined) {
    return 0;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`startSandbox: ${name} must be a number of milliseconds >= 0, got ${JSON.stringify(value)}`);
  }
  return value;
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (!options || typeof options.dataDir !== 'string' || options.dataDir === '') {
    throw new TypeError('startSandbox: dataDir is required');
  }
  // Checked before anything starts: a bad option leaves nothing running.
  const latencyMs = nonNegative('latencyMs', options.latencyMs);
  const latencyJitterMs = nonNegative('latencyJitterMs', options.latencyJitterMs);
  const host = options.host ?? '127.0.0.1';
  const clock = createClock(options.clockSpeed ?? 1);
  const pricing = new Pricing(options.prices ?? {}, options.serviceFee ?? '0.01', options.kycThresholdPercent ?? 20);
  const store = new Store(options.dataDir);
  let server: Server | undefined;
  try {
    const partners = new PartnerRegistry(store);
    partners.load(options.partners ?? [], clock.now());

    // Until everything is in place, requests get 503 (GET / answers 200 only once the sandbox is ready).
    let handle: (req: IncomingMessage, res: ServerResponse) => void = (req, res) => {
      req.resume();
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
      res.end('starting');
    };
    server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(options.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    const base = `http://${shownHost}:${port}`;
    const urls: SandboxUrls = {
      base_url: base,
      widget_script_url: `${base}/widget.js`,
      landing_url: `${base}/landing`,
      status_page_url: `${base}/status`,
      dashboard_url: `${base}/dashboard`,
    };

    const operations = new Operations(store, clock, partners, {
      stepDelayMs: options.stepDelayMs ?? 2000,
      unpaidLifetimeMs: (options.unpaidLifetimeSeconds ?? 3600) * 1000,
      statusPageUrl: urls.status_page_url,
    });
    const callbackIp = options.callbackIp ?? (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
    const dispatcher = new CallbackDispatcher(store, clock, partners, {
      concurrency: options.callbackConcurrency ?? 8,
      timeoutMs: options.callbackTimeoutMs ?? 10_000,
      ...(options.callbackIp ? { localAddress: options.callbackIp } : {}),
    });
    operations.onCallbackStored = () => dispatcher.wake();
    const context: SandboxContext = {
      store,
      clock,
      pricing,
      partners,
      operations,
      dispatcher,
      rateLimiter: new RateLimiter(options.rateLimit ?? 20, clock.real),
      apiCalls: new Map(),
      apiRate: new RateCounter(),
      urls,
      settings: {
        rateLifetimeSeconds: options.rateLifetimeSeconds ?? 600,
        maxBodyBytes: options.maxBodyBytes ?? 65536,
        timestampAheadMs: 30_000,
        timestampBehindMs: 5_000,
        latencyMs,
        latencyJitterMs,
      },
    };
    handle = createHandler(context);
    operations.start();
    dispatcher.start();

    const running = server;
    let closing: Promise<void> | undefined;
    return {
      urls,
      port,
      callbackIp,
      context,
      close() {
        closing ??= (async () => {
          operations.stop();
          await new Promise<void>((resolve) => {
            running.close(() => resolve());
            running.closeAllConnections();
          });
          await dispatcher.stop();
          store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    server?.close();
    store.close();
    throw error;
  }
}
