/**
 * The card2crypto CLI, run as the real binary (bin/card2crypto.js) in a
 * child process: arguments, stdin, stdout, stderr, exit codes, environment.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parseLandingUrl } from '../src/landing-url.js';
import { retrySchedule } from '../src/retry-schedule.js';
import { sign } from '../src/signing/index.js';

const BIN = fileURLToPath(new URL('../../bin/card2crypto.js', import.meta.url));
const SECRET = 'cli-test-secret';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input: options.input ?? '',
    env: { PATH: process.env.PATH ?? '', ...options.env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (result.error) {
    throw result.error;
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hmac(text: string, secret: string): string {
  return createHmac('sha512', secret).update(text, 'utf8').digest('hex');
}

/** A user must never see a stack trace. */
function assertNoStackTrace(r: Run): void {
  assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .+[:(]\d+:\d+/, 'stack trace printed');
  assert.doesNotMatch(r.stderr, /node:internal|Error \[ERR_/);
}

const SPEC_BODY = '{"b":1,"a":"x","c":{"d":true}}';

describe('card2crypto sign', () => {
  it('prints the signature of stdin on the last line, secret from --secret or the environment', () => {
    const expected = hmac('a:x;b:1;c:d:1', SECRET);
    const flag = run(['sign', '--secret', SECRET], { input: SPEC_BODY });
    assert.equal(flag.status, 0, flag.stderr);
    assert.equal(flag.stdout.trimEnd().split('\n').at(-1), expected);
    const env = run(['sign'], { input: SPEC_BODY, env: { CARD2CRYPTO_SECRET: SECRET } });
    assert.equal(env.stdout.trim(), expected);
    const both = run(['sign', `--secret=${SECRET}`], { input: SPEC_BODY, env: { CARD2CRYPTO_SECRET: 'ignored' } });
    assert.equal(both.stdout.trim(), expected, '--secret wins over the environment');
  });

  it('signs the simple form and refuses nested settings in it', () => {
    const settings = '{"target_element":"w","partner_token":"t","timestamp":1715679067123}';
    const r = run(['sign', '--form', 'simple', '--secret', SECRET], { input: settings });
    assert.equal(r.stdout.trim(), sign(JSON.parse(settings) as object, SECRET, { form: 'simple' }));
    const nested = run(['sign', '--form', 'simple', '--secret', SECRET], { input: '{"a":{"b":1}}' });
    assert.equal(nested.status, 1);
    assert.match(nested.stderr, /member "a": the simple form signs flat settings only/);
    assertNoStackTrace(nested);
  });

  it('writes numbers as JavaScript does by default, or as given with --numbers raw', () => {
    const js = run(['sign', '--secret', SECRET], { input: '{"amount":1.50,"rate":1e2}' });
    assert.equal(js.stdout.trim(), hmac('amount:1.5;rate:100', SECRET));
    const raw = run(['sign', '--secret', SECRET, '--numbers', 'raw'], { input: '{"amount":1.50,"rate":1e2}' });
    assert.equal(raw.stdout.trim(), hmac('amount:1.50;rate:1e2', SECRET));
  });

  it('warns when an integer beyond 2^53-1 would lose digits', () => {
    const r = run(['sign', '--secret', SECRET], { input: '{"id":9007199254740993}' });
    assert.equal(r.status, 0);
    assert.match(r.stderr, /warning: member "id": 9007199254740993 is beyond 2\^53-1 and is signed as 9007199254740992/);
    assert.equal(r.stdout.trim(), hmac('id:9007199254740992', SECRET));
  });

  it('refuses bad input with one clear message, exit 1 and no stack trace', () => {
    const cases: [string | Buffer, RegExp][] = [
      ['{"a":1,', /stdin is not valid JSON: .* at position 7/],
      ['[1,2]', /stdin must hold one JSON object, not an array/],
      ['"text"', /not string/],
      ['42', /not a number/],
      ['', /stdin is empty/],
      ['   \n', /stdin is empty/],
      [Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8/],
      ['{"a":"\\ud800"}', /member "a": contains a lone UTF-16 surrogate/],
    ];
    for (const [input, message] of cases) {
      const r = run(['sign', '--secret', SECRET], { input });
      assert.equal(r.status, 1, `${String(input)}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      assertNoStackTrace(r);
    }
  });

  it('accepts a UTF-8 byte-order mark before the JSON', () => {
    const r = run(['sign', '--secret', SECRET], { input: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SPEC_BODY)]) });
    assert.equal(r.stdout.trim(), hmac('a:x;b:1;c:d:1', SECRET));
  });
});

describe('card2crypto canonical', () => {
  it('prints the spec illustration', () => {
    const r = run(['canonical'], { input: SPEC_BODY });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, 'a:x;b:1;c:d:1\n');
  });

  it('keeps non-ASCII text intact through stdin and stdout', () => {
    const r = run(['canonical'], { input: JSON.stringify({ '\uFB33': '€', '😀': 'e\u0301' }) });
    assert.equal(r.stdout, '😀:e\u0301;\uFB33:€\n');
  });
});

describe('card2crypto verify', () => {
  const body = { operation_data: { status: 'success', status_code: 0, amount: 1.5 } };
  const signature = sign(body, SECRET);

  it('exits 0 and says valid for a correct signature', () => {
    const r = run(['verify', '--secret', SECRET], { input: JSON.stringify({ ...body, signature }) });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^valid/);
  });

  it('accepts numbers signed as JavaScript writes them although received as 1.50', () => {
    const text = `{"operation_data":{"status":"success","status_code":0,"amount":1.50},"signature":"${signature}"}`;
    const r = run(['verify'], { input: text, env: { CARD2CRYPTO_SECRET: SECRET } });
    assert.equal(r.status, 0);
    assert.match(r.stdout, /valid \(numbers read as JavaScript writes them/);
  });

  it('exits 1 on a mismatch and prints the canonical string it checked', () => {
    const tampered = JSON.stringify({ ...body, operation_data: { ...body.operation_data, status: 'declined' }, signature });
    const r = run(['verify', '--secret', SECRET], { input: tampered });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^invalid: mismatch: /);
    assert.match(r.stdout, /canonical string checked: operation_data:amount:1\.5;operation_data:status:declined;operation_data:status_code:0\n/);
    const wrongSecret = run(['verify', '--secret', 'other'], { input: JSON.stringify({ ...body, signature }) });
    assert.equal(wrongSecret.status, 1);
  });

  it('exits 1 saying missing or malformed, without a stack trace', () => {
    const cases: [string, RegExp][] = [
      [JSON.stringify(body), /^invalid: missing: signature member is missing/],
      [JSON.stringify({ ...body, signature: 'abc' }), /^invalid: malformed: signature must be 128 hexadecimal characters/],
      ['{"a":', /^invalid: malformed: body is not valid JSON/],
      ['', /^invalid: malformed: body is not valid JSON/],
      ['[]', /^invalid: malformed: body must be a JSON object, not an array/],
    ];
    for (const [input, message] of cases) {
      const r = run(['verify', '--secret', SECRET], { input });
      assert.equal(r.status, 1, input);
      assert.match(r.stdout, message);
      assertNoStackTrace(r);
    }
  });
});

describe('card2crypto landing-url', () => {
  const settings = { target_element: 'card2crypto-widget', partner_token: 'tok-1', from_currency: 'EUR', from_amount: 5000 };
  const build = [
    'landing-url',
    '--landing',
    'https://landing.example.com/widget',
    '--success',
    'https://shop.example.com/ok',
    '--fail',
    'https://shop.example.com/fail',
  ];

  it('builds a landing URL whose params are signed with the given timestamp', () => {
    const r = run([...build, '--now', '1715679067123'], { input: JSON.stringify(settings), env: { CARD2CRYPTO_SECRET: SECRET } });
    assert.equal(r.status, 0, r.stderr);
    const url = r.stdout.trim();
    assert.match(url, /^https:\/\/landing\.example\.com\/widget\/\?i=/);
    const parsed = parseLandingUrl(url);
    assert.ok(parsed.ok);
    const params = parsed.payload.params;
    assert.equal(params.timestamp, 1715679067123);
    const { signature, ...unsigned } = params;
    assert.equal(signature, sign(unsigned, SECRET, { form: 'simple' }));
    assert.deepEqual(parsed.payload.callbacks, { success: 'https://shop.example.com/ok', fail: 'https://shop.example.com/fail' });
  });

  it('stamps the current time by default', () => {
    const before = Date.now();
    const r = run(build, { input: JSON.stringify(settings), env: { CARD2CRYPTO_SECRET: SECRET } });
    const parsed = parseLandingUrl(r.stdout.trim());
    assert.ok(parsed.ok);
    const timestamp = parsed.payload.params.timestamp as number;
    assert.ok(timestamp >= before && timestamp <= Date.now(), String(timestamp));
  });

  it('reads a URL back with --parse and verifies its params with --verify', () => {
    const url = run([...build, '--now', String(Date.now())], { input: JSON.stringify(settings), env: { CARD2CRYPTO_SECRET: SECRET } }).stdout.trim();
    const ok = run(['landing-url', '--parse', url, '--verify'], { env: { CARD2CRYPTO_SECRET: SECRET } });
    assert.equal(ok.status, 0, ok.stdout);
    assert.match(ok.stdout, /"partner_token": "tok-1"/);
    assert.match(ok.stdout, /params signature: valid/);
    const wrong = run(['landing-url', '--parse', url, '--verify', '--secret', 'other']);
    assert.equal(wrong.status, 1);
    assert.match(wrong.stdout, /params signature: invalid: mismatch/);
    const notAUrl = run(['landing-url', '--parse', 'https://landing.example.com/?x=1']);
    assert.equal(notAUrl.status, 1);
    assert.match(notAUrl.stderr, /cannot read the landing URL:\n\s+i: The landing URL has no i parameter/);
    assertNoStackTrace(notAUrl);
  });

  it('lists every problem of the settings and the addresses at once', () => {
    const r = run(['landing-url', '--landing', 'ftp://x', '--success', 'https://shop.example.com/ok', '--fail', 'nope'], {
      input: JSON.stringify({ target_element: 'w', from_amount: 5000, timestamp: 1 }),
      env: { CARD2CRYPTO_SECRET: SECRET },
    });
    assert.equal(r.status, 1);
    for (const field of ['partner_token', 'timestamp', 'from_amount', 'landing_url', 'callbacks.fail']) {
      assert.match(r.stderr, new RegExp(`\\n  ${field.replace('.', '\\.')}: `), field);
    }
    assertNoStackTrace(r);
  });

  it('needs its addresses and a secret', () => {
    const noFlags = run(['landing-url'], { input: '{}', env: { CARD2CRYPTO_SECRET: SECRET } });
    assert.equal(noFlags.status, 2);
    assert.match(noFlags.stderr, /missing --landing URL, --success URL, --fail URL/);
    const noSecret = run(build, { input: JSON.stringify(settings) });
    assert.equal(noSecret.status, 2);
    assert.match(noSecret.stderr, /no partner secret/);
  });
});

describe('card2crypto retry-schedule', () => {
  it('prints the schedule as a table with one row per attempt', () => {
    const r = run(['retry-schedule']);
    assert.equal(r.status, 0);
    const rows = r.stdout.trim().split('\n');
    const schedule = retrySchedule();
    assert.equal(rows.length, schedule.length + 2); // header and summary
    assert.match(rows[2] ?? '', /^\s+2\s+10\.000 s\s+00:00:10\.000$/);
    assert.match(rows.at(-1) ?? '', new RegExp(`^${schedule.length} attempts over `));
  });

  it('prints the same schedule as JSON', () => {
    const r = run(['retry-schedule', '--format', 'json']);
    assert.equal(r.status, 0);
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(retrySchedule())));
  });
});

describe('card2crypto usage', () => {
  it('gives --help for every command, and help <command>', () => {
    for (const command of ['sign', 'canonical', 'verify', 'landing-url', 'retry-schedule']) {
      const r = run([command, '--help']);
      assert.equal(r.status, 0, command);
      assert.match(r.stdout, new RegExp(`card2crypto ${command}`));
      assert.equal(run(['help', command]).stdout, r.stdout);
      assert.equal(run([command, '-h']).stdout, r.stdout);
    }
    const top = run(['--help']);
    assert.equal(top.status, 0);
    assert.match(top.stdout, /Commands:\n {2}sign/);
  });

  it('exits 2 with a pointer to --help on a bad command line', () => {
    const cases: [string[], RegExp][] = [
      [[], /Usage: card2crypto <command>/],
      [['nope'], /unknown command "nope"/],
      [['help', 'nope'], /unknown command "nope"/],
      [['sign', '--bogus'], /Unknown option '--bogus'/],
      [['sign', '--secret'], /argument missing/],
      [['sign', '--secret', SECRET, '--form', 'flat'], /--form must be one of general, simple, not "flat"/],
      [['sign', 'extra'], /Unexpected argument 'extra'/],
      [['sign'], /no partner secret: set CARD2CRYPTO_SECRET/],
      [['retry-schedule', '--format', 'xml'], /--format must be one of table, json/],
      [['landing-url', '--verify'], /--verify goes with --parse/],
      [
        [
          'landing-url',
          '--now',
          'yesterday',
          '--landing',
          'https://a.example',
          '--success',
          'https://a.example',
          '--fail',
          'https://a.example',
          '--secret',
          'k',
        ],
        /--now must be whole milliseconds/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = run(args, { input: SPEC_BODY });
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stdout + r.stderr, message, args.join(' '));
      assertNoStackTrace(r);
    }
  });

  it('runs as an executable through its shebang, as npm links it (node_modules/.bin/card2crypto)', () => {
    const result = spawnSync(BIN, ['canonical'], { input: SPEC_BODY, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.equal(result.error, undefined);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'a:x;b:1;c:d:1\n');
    const linked = fileURLToPath(new URL('../../../../node_modules/.bin/card2crypto', import.meta.url));
    if (existsSync(linked)) {
      assert.equal(realpathSync(linked), realpathSync(BIN));
    }
  });

  it('prints its version', () => {
    assert.match(run(['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
  });
});
