/** Shared test helpers: a sandbox in a temporary directory, signed requests, a callback receiver. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from '@card2crypto/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index.js';
import { scenarioOf } from '../src/scenarios.js';

export const PARTNER = { token: 'partner-one', secret: 'secret-one-0123456789' };
export const OTHER = { token: 'partner-two', secret: 'secret-two-9876543210' };

export function tempDir(prefix = 'c2c-sandbox-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface TestSandbox extends Sandbox {
  dataDir: string;
  /** Closes the sandbox and removes its directory. */
  dispose: () => Promise<void>;
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const dir = options.dataDir ? { path: options.dataDir, remove: () => {} } : tempDir();
  const sandbox = await startSandbox({
    port: 0,
    partners: [PARTNER, OTHER],
    rateLimit: 0,
    ...options,
    dataDir: dir.path,
  });
  return Object.assign(sandbox, {
    dataDir: dir.path,
    async dispose() {
      await sandbox.close();
      dir.remove();
    },
  });
}

export interface Reply {
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
  json: () => any;
}

export async function post(url: string, body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers, body: body as BodyInit });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    headers: response.headers,
    json: () => JSON.parse(text),
  };
}

/** A request body stamped now and signed (general form) with `secret`. */
export function signedBody(
  params: Record<string, unknown>,
  partner: { token: string; secret: string } = PARTNER,
  timestamp: number | null = Date.now(),
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...params, partner_token: partner.token };
  if (timestamp !== null) {
    body.timestamp = timestamp;
  }
  body.signature = sign(body, partner.secret, { form: 'general' });
  return body;
}

export function callApi(sandbox: Sandbox, path: string, params: Record<string, unknown> = {}, partner = PARTNER): Promise<Reply> {
  return post(sandbox.urls.base_url + path, JSON.stringify(signedBody(params, partner)));
}

export interface Received {
  at: number;
  body: string;
  headers: IncomingMessage['headers'];
  remoteAddress: string | undefined;
}

/** A partner's callback endpoint: records every request and answers with `respond`. */
export class CallbackReceiver {
  readonly received: Received[] = [];
  respond: (received: Received, index: number) => number = () => 200;
  private server: Server | undefined;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  url = '';

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const item: Received = { at: Date.now(), body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, remoteAddress: req.socket.remoteAddress };
        this.received.push(item);
        const status = this.respond(item, this.received.length - 1);
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status === 200 ? 'OK' : `refused with ${status}`);
        this.waiters = this.waiters.filter((w) => {
          if (this.received.length >= w.count) {
            w.resolve();
            return false;
          }
          return true;
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
    return this;
  }

  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.received.length} of ${count} callbacks arrived within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async stop(): Promise<void> {
    if (!this.server) {
      return;
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value other than undefined. */
export async function until<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(20);
  }
}

/**
 * Creates an operation the way the widget does (the same Operations calls the
 * widget's routes make) and, unless `pay` is false, pays with `card`.
 */
export function createOperation(
  sandbox: Sandbox,
  options: {
    partner?: { token: string };
    partnerOperationId?: string | null;
    card?: string;
    pay?: boolean;
    fromAmount?: bigint;
    toCurrency?: string;
    toAccount?: string;
  } = {},
) {
  const ctx = sandbox.context;
  const quote = ctx.pricing.quote({ fromCurrency: 'EUR', toCurrency: options.toCurrency ?? 'BTC', fromAmount: options.fromAmount ?? 10000n });
  const op = ctx.operations.create({
    partnerToken: (options.partner ?? PARTNER).token,
    partnerOperationId: options.partnerOperationId === undefined ? `order-${Math.random().toString(36).slice(2)}` : options.partnerOperationId,
    quote,
    toAccount: options.toAccount ?? 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    email: 'buyer@example.com',
    customerCountry: 'DE',
    calculationId: null,
    sessionId: null,
  });
  if (options.pay === false) {
    return op;
  }
  const digits = options.card ?? '4242424242424242';
  return ctx.operations.pay(
    op,
    {
      number: `${digits.slice(0, 6)}******${digits.slice(-4)}`,
      type: 'VISA',
      card_holder: 'TEST BUYER',
      expiry_month: '12',
      expiry_year: '2030',
      country: 'DE',
    },
    scenarioOf(digits),
    false,
  );
}
