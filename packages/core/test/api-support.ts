/**
 * A tiny real HTTP server for the partner API client tests: each test installs
 * a handler; responses are signed with the real signing module.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign, stringifyJsonLossless } from '../src/signing/index.js';
import { exampleOperationData } from './fixtures/operation-data.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  text: string;
  body: Record<string, unknown>;
  receivedAt: number;
}

export type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
  handle: (handler: Handler) => void;
  close: () => Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => {
    res.statusCode = 500;
    res.end('no handler');
  };
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // keep {}
      }
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        text,
        body,
        receivedAt: Date.now(),
      };
      requests.push(received);
      handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(h) {
      handler = h;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `value` as a signed JSON 200 answer (bigint and LosslessNumber values as their exact digits, as signed). */
export function sendSigned(res: ServerResponse, value: Record<string, unknown>, secret: string): void {
  const body = { ...value, signature: sign(value, secret, { form: 'general' }) };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(stringifyJsonLossless(body));
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/**
 * A realistic operation_data: the shared example (test/fixtures/operation-data.ts)
 * as a pending operation with the ids, amounts and customer these tests name;
 * `overrides` replace top-level members.
 */
export function sampleOperationData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const data = exampleOperationData();
  const named = data as unknown as {
    operation_info: { id: string; from: { amount: number }; currency_rate: number };
    partner_info: { operation_id: string; fee_info: { amount: number } };
    customer_info: { id: number; account: string };
  };
  named.operation_info.id = 'op-7f3a';
  named.operation_info.from.amount = 10000;
  named.operation_info.currency_rate = 65641.23;
  named.partner_info.operation_id = 'order-42';
  named.partner_info.fee_info.amount = 1523;
  named.customer_info.id = 991;
  named.customer_info.account = 'ada@example.com';
  return { ...data, status: 'pending', status_code: 2, ...overrides };
}
