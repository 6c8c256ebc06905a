/**
 * `card2crypto-sandbox`: starts the sandbox and prints its addresses, one
 * `name: value` line each, then a line `ready` (scripts wait for it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parsePartnerSpec, parsePartnersFile, startSandbox, type PartnerConfig, type PriceTable, type SandboxOptions } from './index.js';

export const DEFAULT_PORT = 8787; // decisions.md, "Settings: environments and service addresses"
export const DEFAULT_DATA_DIR = '.card2crypto/sandbox';

const HELP = `Usage: card2crypto-sandbox [options]

Runs the card-to-crypto service locally: partner API, widget, landing page,
status page, callbacks and a dashboard. State lives in SQLite under --data-dir.

Options:
  --port N                  TCP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS            interface to listen on (default 127.0.0.1)
  --data-dir DIR            where the SQLite file lives (default ${DEFAULT_DATA_DIR})
  --partners-file FILE      partners as a JSON array of {"token", "secret", "callback_url"?, "name"?}
                            (the safer way: keeps secrets off the command line and its logs;
                            make the file readable by you only)
  --partner TOKEN:SECRET[:CALLBACK_URL]
                            a partner (repeat for more); the callback URL may be omitted.
                            Handy by hand, but the secret shows in ps and in any launcher's log
  --callback-ip ADDRESS     local address callbacks are sent from (what partners allow-list)
  --callback-timeout MS     time one callback delivery may take (default 10000)
  --callback-concurrency N  deliveries in flight per partner (default 8)
  --clock-speed N           run the sandbox's own waits N times faster: callback retries,
                            rate lifetimes, operation steps (request timestamps stay real)
  --rate-limit N            partner API requests a second per partner, 0 = no limit (default 20)
  --rate-lifetime SECONDS   how long a fixed rate (calculation_id) stays valid (default 600)
  --step-delay MS           pause between automatic operation steps (default 2000)
  --unpaid-lifetime SECONDS how long an unpaid operation stays created before it ends in
                            declined 102, the buyer left (default 3600)
  --service-fee FRACTION    partner's commission, e.g. 0.01 for 1% (default 0.01)
  --kyc-threshold-percent P purchases above P% of a currency's maximum need identity
                            verification (default 20)
  --prices FILE             JSON {"fiat": {"EUR": "1.08"}, "crypto": {"BTC": "65000"}}: USD values
                            overriding the default price table
  --max-body-bytes N        largest request body accepted (default 65536)
  --latency MS              every partner API answer waits MS real milliseconds, as from a
                            service far away (default 0)
  --latency-jitter MS       and up to MS more, drawn anew for each answer (default 0)
  --help                    this text
`;

function positive(name: string, text: string | undefined, integer: boolean, allowZero = false): number | undefined {
  if (text === undefined) {
    return undefined;
  }
  const n = Number(text);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < 0 || (!allowZero && n === 0)) {
    throw new TypeError(`--${name} must be a ${integer ? 'whole ' : ''}number${allowZero ? ' >= 0' : ' > 0'}, got ${JSON.stringify(text)}`);
  }
  return n;
}

function readPartnersFile(path: string): PartnerConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TypeError(`--partners-file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parsePartnersFile(text, path);
}

export function parseCli(argv: readonly string[]): SandboxOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      partner: { type: 'string', multiple: true },
      'partners-file': { type: 'string' },
      'callback-ip': { type: 'string' },
      'callback-timeout': { type: 'string' },
      'callback-concurrency': { type: 'string' },
      'clock-speed': { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-lifetime': { type: 'string' },
      'step-delay': { type: 'string' },
      'unpaid-lifetime': { type: 'string' },
      'service-fee': { type: 'string' },
      'kyc-threshold-percent': { type: 'string' },
      prices: { type: 'string' },
      'max-body-bytes': { type: 'string' },
      latency: { type: 'string' },
      'latency-jitter': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    return 'help';
  }
  const options: SandboxOptions = {
    dataDir: resolve(values['data-dir'] ?? DEFAULT_DATA_DIR),
    port: positive('port', values.port, true, true) ?? DEFAULT_PORT,
    partners: [...(values['partners-file'] !== undefined ? readPartnersFile(values['partners-file']) : []), ...(values.partner ?? []).map(parsePartnerSpec)],
  };
  if (values.host !== undefined) {
    options.host = values.host;
  }
  if (values['callback-ip'] !== undefined) {
    options.callbackIp = values['callback-ip'];
  }
  const set = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) {
      options[key] = value;
    }
  };
  set('callbackTimeoutMs', positive('callback-timeout', values['callback-timeout'], true));
  set('callbackConcurrency', positive('callback-concurrency', values['callback-concurrency'], true));
  set('clockSpeed', positive('clock-speed', values['clock-speed'], false));
  set('rateLimit', positive('rate-limit', values['rate-limit'], false, true));
  set('rateLifetimeSeconds', positive('rate-lifetime', values['rate-lifetime'], false));
  set('stepDelayMs', positive('step-delay', values['step-delay'], false, true));
  set('unpaidLifetimeSeconds', positive('unpaid-lifetime', values['unpaid-lifetime'], false));
  set('kycThresholdPercent', positive('kyc-threshold-percent', values['kyc-threshold-percent'], false));
  set('maxBodyBytes', positive('max-body-bytes', values['max-body-bytes'], true));
  set('latencyMs', positive('latency', values.latency, false, true));
  set('latencyJitterMs', positive('latency-jitter', values['latency-jitter'], false, true));
  if (values['service-fee'] !== undefined) {
    options.serviceFee = values['service-fee'];
  }
  if (values.prices !== undefined) {
    let table: unknown;
    try {
      table = JSON.parse(readFileSync(values.prices, 'utf8'));
    } catch (error) {
      throw new TypeError(`--prices ${values.prices}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof table !== 'object' || table === null || Array.isArray(table)) {
      throw new TypeError(`--prices ${values.prices}: expected a JSON object`);
    }
    options.prices = table as Partial<PriceTable>;
  }
  return options;
}

export async function main(argv: readonly string[]): Promise<void> {
  const parsed = parseCli(argv);
  if (parsed === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const sandbox = await startSandbox(parsed);
  const lines = [
    ...Object.entries(sandbox.urls).map(([name, url]) => `${name}: ${url}`),
    `callback_ip: ${sandbox.callbackIp}`,
    `data_dir: ${parsed.dataDir}`,
    ...sandbox.context.partners.list().map((p) => `partner: ${p.token}${p.callbackUrl ? ` ${p.callbackUrl}` : ''}${p.blocked ? ' (blocked)' : ''}`),
    'ready',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`card2crypto-sandbox: error while stopping after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
