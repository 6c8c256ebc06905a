/**
 * `npm run bench` (packages/php): the time of one BIP32 public derivation
 * (CKDpub + the address) in PHP with GMP, PHP with BCMath (the native PHP,
 * bench/bip32.php) and TypeScript (@card2crypto/core), each next to a bare
 * HMAC-SHA512 of the same 37 bytes in the same language for scale, and what
 * one checkout request does (parse the zpub, derive the chain's key and one
 * address). CPU time, medians of interleaved rounds. Goals (issue 25): one
 * derivation under 5 ms with GMP, under 50 ms with BCMath.
 *
 * BENCH_ROUNDS (default 15) and BENCH_ITERATIONS (default 10 derivations per
 * round and path) size the run.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addressOf, deriveAddresses, deriveChild, hmacSha512, parseWalletKey } from '@card2crypto/core';
import { nativePhp } from '../testing/php.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const GOALS_MS: Record<string, number> = { gmp: 5, bcmath: 50 };

interface Row {
  label: string;
  derive: number | null;
  request: number | null;
  hmac: number | null;
  goalMs: number | null;
  note?: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU microseconds of this process. */
function cpu(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

function typescript(): Row[] {
  const wallet = parseWalletKey(ZPUB);
  const chain = deriveChild(wallet.key, 0);
  const data = new Uint8Array([...chain.publicKey, 0, 0, 0, 7]);
  if (deriveAddresses(wallet)[0]?.address !== 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu') {
    throw new Error('core derived the wrong address');
  }
  let index = 0;
  let sink = 0;
  const tasks: Record<'derive' | 'request' | 'hmac' | 'nodeHmac', () => string | Uint8Array> = {
    derive: () => addressOf(deriveChild(chain, index++).publicKey, 'p2wpkh', 'mainnet'),
    request: () => deriveAddresses(ZPUB, { from: index++ })[0]!.address,
    hmac: () => hmacSha512(chain.chainCode, data),
    nodeHmac: () => createHmac('sha512', chain.chainCode).update(data).digest(),
  };
  const times: Record<keyof typeof tasks, number[]> = { derive: [], request: [], hmac: [], nodeHmac: [] };
  const names = Object.keys(tasks) as (keyof typeof tasks)[];
  for (let r = 0; r <= ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const n = name === 'derive' || name === 'request' ? ITERATIONS : ITERATIONS * 50;
      const start = cpu();
      for (let i = 0; i < n; i++) {
        const out = tasks[name]();
        sink ^= typeof out === 'string' ? out.charCodeAt(5) : out[5]!;
      }
      if (r > 0) {
        times[name].push((cpu() - start) / n);
      }
    }
  }
  if (sink === -1) {
    console.log('');
  }
  return [
    {
      label: 'TypeScript (core, bigint)',
      derive: median(times.derive),
      request: median(times.request),
      hmac: median(times.hmac),
      goalMs: null,
      note: "HMAC: core's own",
    },
    { label: '  HMAC-SHA512 in node:crypto, for scale', derive: null, request: null, hmac: median(times.nodeHmac), goalMs: null },
  ];
}

function php(backend: 'gmp' | 'bcmath'): Row {
  const label = `PHP ${backend === 'gmp' ? 'GMP' : 'BCMath'}`;
  const binary = nativePhp();
  if (binary === null) {
    return { label, derive: null, request: null, hmac: null, goalMs: GOALS_MS[backend]!, note: 'no native PHP on this machine' };
  }
  const script = fileURLToPath(new URL('../../bench/bip32.php', import.meta.url));
  const run = spawnSync(binary.binary, [script, backend, String(ROUNDS), String(ITERATIONS)], { encoding: 'utf8', cwd: path.dirname(script) });
  if (run.status !== 0) {
    throw new Error(`bench/bip32.php ${backend} failed: ${run.stderr}${run.stdout}`);
  }
  const result = JSON.parse(run.stdout) as { available: boolean; php: string; message?: string; us?: { derive: number; request: number; hmac: number } };
  if (!result.available || !result.us) {
    return {
      label: `${label} (PHP ${result.php})`,
      derive: null,
      request: null,
      hmac: null,
      goalMs: GOALS_MS[backend]!,
      note: `extension not loaded: ${result.message}`,
    };
  }
  return { label: `${label} (PHP ${result.php})`, ...result.us, goalMs: GOALS_MS[backend]! };
}

function format(us: number | null): string {
  if (us === null) {
    return '—'.padStart(10);
  }
  return (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`).padStart(10);
}

function main(): void {
  const rows = [php('gmp'), php('bcmath'), ...typescript()];
  console.log('\n== BIP32 public derivation: one address from a wallet key (issue 25) ==');
  console.log(`CPU time per operation, medians of ${ROUNDS} interleaved rounds (${ITERATIONS} derivations per round and path)`);
  console.log(`${''.padEnd(40)} ${'derivation'.padStart(10)} ${'request'.padStart(10)} ${'HMAC-512'.padStart(10)} ${'deriv/HMAC'.padStart(10)}  goal`);
  for (const row of rows) {
    const ratio = row.derive !== null && row.hmac !== null ? `${Math.round(row.derive / row.hmac)}×`.padStart(10) : ''.padStart(10);
    const goal =
      row.goalMs === null
        ? ''
        : row.derive === null
          ? `< ${row.goalMs} ms: not measured`
          : `< ${row.goalMs} ms: ${row.derive / 1000 < row.goalMs ? 'met' : 'NOT met'}`;
    console.log(
      `${row.label.padEnd(40)} ${format(row.derive)} ${format(row.request)} ${format(row.hmac)} ${ratio}  ${goal}${row.note ? `  (${row.note})` : ''}`,
    );
  }
  console.log(
    "derivation: CKDpub of a receive chain's key and its address; request: parse the zpub, derive the chain's key, then one address (a fresh object, as in one checkout request).",
  );
}

main();
