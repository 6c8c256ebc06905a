/**
 * Driving reconciliation inside a real store (the harness's native store:
 * WordPress, WooCommerce, our plugins and the sandbox), shared by
 * test/wordpress/reconcile.test.ts and bench/scale-reconcile.ts: the PHP
 * steps of reconcile-steps.php, operations put into the sandbox, and the
 * partner API rate the sandbox saw.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH } from '@card2crypto/sandbox';
import { REPO_DIR } from './php.js';

export interface ReconcileStore {
  sandbox: { url: string } | null;
  partner: { token: string };
  native: { runPhp: (files: string[]) => Promise<unknown> } | null;
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'reconcile-steps.php');
/** The steps of test/wordpress/privacy-health.test.ts. */
export const HEALTH_STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'health-steps.php');
const WORK = mkdtempSync(path.join(os.tmpdir(), 'c2c-reconcile-'));
let calls = 0;

/** One step of reconcile-steps.php (or another steps file of test/support) in the store (a CLI PHP run with WordPress loaded). */
export function storeStep<T>(s: ReconcileStore, action: string, input: Record<string, unknown> = {}, steps = STEPS): Promise<T> {
  return phpStep<T>(s, steps, action, input);
}

/**
 * One step of a steps file in the store (a CLI PHP run with WordPress loaded): the file reads
 * `$c2c_step` (action, input, out) and writes `{value}` or `{error}` as JSON to `out`.
 */
export async function phpStep<T>(s: ReconcileStore, steps: string, action: string, input: Record<string, unknown> = {}): Promise<T> {
  const n = ++calls;
  const out = path.join(WORK, `out-${n}.json`);
  const script = path.join(WORK, `step-${n}.php`);
  writeFileSync(
    script,
    `<?php\n$c2c_step = json_decode(${JSON.stringify(JSON.stringify({ action, input, out }))}, true);\nrequire ${JSON.stringify(steps)};\n`,
  );
  await s.native!.runPhp([script]);
  const result = JSON.parse(readFileSync(out, 'utf8')) as { value?: T; error?: string };
  if (result.error !== undefined) {
    throw new Error(`${action}: ${result.error}`);
  }
  return result.value as T;
}

export interface Seeded {
  first: number;
  last: number;
  tag: string;
  currency: string;
  amount: number;
  wallet: string;
  pending: Pending;
}

export interface Pending {
  batch: number;
  per_order: number;
  first: number | null;
}

export const partnerOperationId = (seed: Seeded, orderId: number) => `wc-${orderId}-${seed.tag}`;

/** What the service says of an operation: paid (success 0) or ended without payment (declined 104). */
export type Outcome = 'paid' | 'declined';

/**
 * Puts operations into the sandbox's state through its signed test helper
 * (not rate-limited, not counted), `concurrency` at a time.
 */
export async function serviceKnows(s: ReconcileStore, secret: string, seed: Seeded, orders: Array<[number, Outcome]>, concurrency = 16): Promise<void> {
  let next = 0;
  const one = async (orderId: number, outcome: Outcome) => {
    const pid = partnerOperationId(seed, orderId);
    const body: Record<string, unknown> = {
      partner_token: s.partner.token,
      timestamp: Date.now(),
      operation_id: `op-${pid}`,
      partner_operation_id: pid,
      status: outcome === 'paid' ? 'success' : 'declined',
      status_code: outcome === 'paid' ? 0 : 104,
      from_currency: seed.currency,
      from_amount: seed.amount,
      to_currency: 'BTC',
      to_amount: 1000,
      to_account: seed.wallet,
      ...(outcome === 'paid' ? { blockchain_tx_id: `tx-${pid}` } : {}),
    };
    body.signature = sign(body, secret, { form: 'general' });
    const response = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) {
      throw new Error(`the sandbox refused ${pid}: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < orders.length) {
        const [orderId, outcome] = orders[next++]!;
        await one(orderId, outcome);
      }
    }),
  );
}

/** One signed params request as the store's partner (other traffic spending the partner's rate); its HTTP status. */
export async function partnerParams(s: ReconcileStore, secret: string): Promise<number> {
  const body: Record<string, unknown> = { partner_token: s.partner.token, timestamp: Date.now() };
  body.signature = sign(body, secret, { form: 'general' });
  const response = await fetch(`${s.sandbox!.url}/api/partner/params`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

export interface ServiceRate {
  peak_per_second: number;
  peak_second: number | null;
  limited: number;
  recent: Array<[number, number]>;
  /** Partner API requests to the operation-info endpoint since the sandbox started. */
  operation_calls: number;
  /** Partner API requests since the sandbox started, per endpoint (refused ones too). */
  calls: Record<string, number>;
}

/** The store's partner API rate as the sandbox saw it (dashboard state). */
export async function serviceRate(s: ReconcileStore): Promise<ServiceRate> {
  const state = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number>; api_rate: Omit<ServiceRate, 'operation_calls'> }>;
  };
  const mine = state.partners.find((p) => p.token === s.partner.token)!;
  return { ...mine.api_rate, operation_calls: mine.api_calls?.operation ?? 0, calls: mine.api_calls ?? {} };
}

/** The partner secret the harness gave the store. */
export function partnerSecret(harnessDir: string): string {
  return (JSON.parse(readFileSync(path.join(harnessDir, 'partner.json'), 'utf8')) as { secret: string }).secret;
}
