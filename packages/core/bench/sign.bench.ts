/**
 * `npm run bench`: the cost of signing a realistic callback body compared
 * with the bare HMAC-SHA512 of its (precomputed) canonical string, measured
 * side by side in one run. Goal: sign / bare HMAC ≤ 2.5×.
 *
 * sign() takes one path (docs/decisions.md, "Signing: how the canonical
 * string is assembled"): collect every member's name and text, visiting
 * each level's keys in name order, sort the members only where that visit
 * cannot give their order, join, HMAC. Also printed, for scale: a naive
 * flatten-sort-join written with Object.entries, map and template strings.
 */
import { canonicalString, hmacSha512Hex, sign } from '../src/signing/index.js';
import { exampleOperationData } from '../test/fixtures/operation-data.js';

/** The members of the example that callbackBody() varies. */
interface Chain {
  withdrawal_method_info: Record<string, string>;
  amount: number;
}
interface Varied {
  operation_info: {
    id: string;
    created_at: string;
    paid_at: string;
    from: { amount: number };
    to: Chain;
    currency_rate: number;
    status_url: string;
  };
  partner_info: { operation_id: string; fee_info: Chain };
  customer_info: { id: number; account: string };
}

/**
 * A callback body carrying the full operation_data of the spec (38 signed
 * members). `n` varies ids, amounts, rate, addresses and dates, as real
 * callbacks do, while the shape stays the same.
 */
export function callbackBody(n = 0): Record<string, unknown> {
  const hex = (seed: number): string => (BigInt(seed + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(16, '0').slice(-16).repeat(4);
  const minute = String(n % 60).padStart(2, '0');
  const data = exampleOperationData() as unknown as Varied;
  const info = data.operation_info;
  info.id = `5f3b2c1e-8d4a-4e9b-9c7f-${(0x2a1d0e6b4c3a + n).toString(16)}`;
  info.created_at = `2024-05-14T09:${minute}:07.1234567Z`;
  info.paid_at = `2024-05-14T10:${minute}:52.7654321Z`;
  info.from.amount += 125 * n;
  info.to.amount += 1957 * n;
  info.to.withdrawal_method_info.blockchain_tx_id = hex(n);
  info.to.withdrawal_method_info.blockchain_explorer_url = `https://blockstream.info/tx/${hex(n)}`;
  info.currency_rate += n / 100;
  info.status_url = `https://status.example.com/operation/${info.id}`;
  data.partner_info.operation_id = `wc-order-${10482 + n}`;
  data.partner_info.fee_info.withdrawal_method_info.blockchain_tx_id = hex(n + 1000);
  data.partner_info.fee_info.withdrawal_method_info.blockchain_explorer_url = `https://blockstream.info/tx/${hex(n + 1000)}`;
  data.partner_info.fee_info.amount += 19 * n;
  data.customer_info.id += n;
  data.customer_info.account = `customer${n}@example.org`;
  return { operation_data: data };
}

const SECRET = 'c2c_secret_0b9f1e7d3a5c2e4f6a8b0c1d2e3f4a5b';

let sink = 0;

/**
 * For scale only: the straightforward implementation (collect every member,
 * sort, join, HMAC). Not used by core.
 */
function naiveSign(body: object, secret: string): string {
  const members: [string, string][] = [];
  const walk = (node: unknown, name: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${name}:${i}`));
    } else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        walk(v, name === '' ? k : `${name}:${k}`);
      }
    } else {
      members.push([name, typeof node === 'boolean' ? (node ? '1' : '0') : node === null ? '' : String(node)]);
    }
  };
  for (const [k, v] of Object.entries(body)) {
    if (k !== 'signature') {
      walk(v, k);
    }
  }
  members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return hmacSha512Hex(members.map(([n, v]) => `${n}:${v}`).join(';'), secret);
}

type Task = (i: number) => string;

/** CPU time (µs) of `iterations` calls: unlike wall time, it leaves out the time other processes hold the CPU. */
function time(task: Task, iterations: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    sink ^= task(i).charCodeAt(i & 127);
  }
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function main(): void {
  // Many bodies of one shape, as a partner receives them: values change, the keys do not.
  const bodies = Array.from({ length: 64 }, (_, n) => callbackBody(n));
  const canonicals = bodies.map((body) => canonicalString(body));
  for (const [n, body] of bodies.entries()) {
    const expected = hmacSha512Hex(canonicals[n] as string, SECRET);
    if (sign(body, SECRET) !== expected || naiveSign(body, SECRET) !== expected) {
      throw new Error(`body ${n}: implementations disagree`);
    }
  }
  const tasks: Record<'sign' | 'hmac' | 'naive', Task> = {
    sign: (i) => sign(bodies[i & 63] as object, SECRET),
    hmac: (i) => hmacSha512Hex(canonicals[i & 63] as string, SECRET),
    naive: (i) => naiveSign(bodies[i & 63] as object, SECRET),
  };

  const iterations = Number(process.env.BENCH_ITERATIONS ?? 4000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 41);
  // Warm-up: let every path reach optimised code before measuring.
  for (const task of Object.values(tasks)) {
    time(task, iterations * 5);
  }

  // Short rounds, interleaved in alternating order, so CPU frequency changes and
  // what other processes do to the caches hit every path alike; medians reported.
  const us: Record<keyof typeof tasks, number[]> = { sign: [], hmac: [], naive: [] };
  const signRatios: number[] = [];
  const naiveRatios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = (r % 2 === 0 ? ['sign', 'hmac', 'naive'] : ['naive', 'hmac', 'sign']) as (keyof typeof tasks)[];
    const took = { sign: 0, hmac: 0, naive: 0 };
    for (const name of order) {
      took[name] = time(tasks[name], iterations);
    }
    for (const name of order) {
      us[name].push(took[name]);
    }
    signRatios.push(took.sign / took.hmac);
    naiveRatios.push(took.naive / took.hmac);
  }
  const opsPerSecond = (name: keyof typeof tasks): string =>
    Math.round((iterations / median(us[name])) * 1e6)
      .toLocaleString('en-US')
      .padStart(9);
  const ratio = median(signRatios);
  console.log(
    `callback body: ${canonicals[0]?.split(';').length} signed members, canonical string ~${Buffer.byteLength(canonicals[0] as string)} bytes, 64 bodies of one shape`,
  );
  console.log(`${rounds} interleaved rounds × ${iterations} signatures per path; medians, per second of CPU time:`);
  console.log(`  sign(body)                        ${opsPerSecond('sign')} signatures/s`);
  console.log(`  bare HMAC-SHA512(canonical)       ${opsPerSecond('hmac')} signatures/s`);
  console.log(`  naive flatten-sort-join + HMAC    ${opsPerSecond('naive')} signatures/s  (for scale)`);
  console.log(`  sign / bare HMAC (CPU time)       ${ratio.toFixed(3)}×  (goal ≤ 2.5×)${ratio <= 2.5 ? '' : '  ABOVE GOAL'}`);
  console.log(`  naive / bare HMAC (CPU time)      ${median(naiveRatios).toFixed(3)}×`);
  if (sink === -1) {
    console.log('');
  } // keeps the results observable to the optimiser
}

main();
