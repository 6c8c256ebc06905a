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

import { deriveAddresses } from '../src/bip32/index.js';
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

describe('card2crypto derive', () => {
  // BIP84's account key and its first receive and change addresses (bitcoin/bips bip-0084.mediawiki).
  const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
  const UPUB = 'upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY';
  const XPRV = 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

  it("prints ten receive addresses by default, BIP84's first two among them, from --key or the environment", () => {
    const r = run(['derive', '--key', ZPUB]);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trim().split('\n');
    assert.match(rows[0] ?? '', /^key: zpub \(mainnet\), depth 3$/);
    assert.match(rows[1] ?? '', /native segwit \(p2wpkh, BIP84\)/);
    assert.match(rows[2] ?? '', /^descriptor: wpkh\(xpub\w+\/<0;1>\/\*\)#\w{8}$/);
    assert.equal(rows[3], 'receive addresses 0 to 9:');
    const listed = rows.slice(4).map((row) => row.trim().split(/\s+/));
    assert.deepEqual(
      listed,
      deriveAddresses(ZPUB, { count: 10 }).map((a) => [a.path, a.address]),
    );
    assert.deepEqual(
      listed.slice(0, 2).map(([, address]) => address),
      ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
    );
    assert.equal(run(['derive'], { env: { CARD2CRYPTO_WALLET_KEY: ZPUB } }).stdout, r.stdout);
  });

  it('--from, --count, --change, --environment and --format json', () => {
    const r = run(['derive', '--key', ZPUB, '--change', '--from', '0', '--count', '2', '--environment', 'production', '--format', 'json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.wallet.prefix, 'zpub');
    assert.equal(out.wallet.addressType, 'p2wpkh');
    assert.deepEqual(out.addresses, deriveAddresses(ZPUB, { change: true, count: 2 }));
    assert.equal(out.addresses[0].address, 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
    const last = run(['derive', '--key', UPUB, '--from', '2147483646', '--count', '2', '--environment', 'sandbox']);
    assert.equal(last.status, 0, last.stderr);
    assert.match(last.stdout, /receive addresses 2147483646 to 2147483647:\n {2}0\/2147483646 {2}2\w+\n {2}0\/2147483647 {2}2\w+\n$/);
  });

  it('exits 1 naming why a key is refused: private, other network, hardened step, typo', () => {
    const cases: [string[], RegExp][] = [
      [['--key', XPRV], /the key was refused \(private_key\): This is an extended private key \(xprv\)/],
      [['--key', `wpkh(${XPRV}/0/*)`], /\(private_key\)/],
      [['--key', ZPUB, '--environment', 'sandbox'], /\(wrong_network\): This is a mainnet key \(zpub\); the sandbox takes testnet keys/],
      [['--key', UPUB, '--environment', 'production'], /\(wrong_network\): This is a testnet key \(upub\)/],
      [['--key', `wpkh(${ZPUB}/0h/*)`], /\(hardened_after_key\): The step 0h after the key is hardened/],
      [['--key', `${ZPUB.slice(0, -1)}t`], /\(checksum\): Checksum mismatch/],
      [['--key', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'], /\(address_not_key\): This is a bitcoin address, not an extended public key/],
    ];
    for (const [args, message] of cases) {
      const r = run(['derive', ...args]);
      assert.equal(r.status, 1, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stdout, '');
      assertNoStackTrace(r);
    }
  });

  it('exits 2 on bad flags, naming the flag', () => {
    const cases: [string[], RegExp][] = [
      [[], /no key: pass --key .* or set CARD2CRYPTO_WALLET_KEY/],
      [['--key', ' '], /no key/],
      [['--key', ZPUB, '--from=-1'], /--from must be a whole number from 0 to 2147483647, not "-1"/],
      [['--key', ZPUB, '--from', '-1'], /Option '--from' argument is ambiguous/],
      [['--key', ZPUB, '--from', '1.5'], /--from must be a whole number/],
      [['--key', ZPUB, '--from', '2147483648'], /--from must be a whole number/],
      [['--key', ZPUB, '--count', '0'], /--count must be a whole number from 1 to 1000, not "0"/],
      [['--key', ZPUB, '--count', '1e3'], /--count must be a whole number/],
      [['--key', ZPUB, '--count', '1001'], /--count must be a whole number from 1 to 1000/],
      [['--key', ZPUB, '--from', '2147483647', '--count', '2'], /ends at index 2147483648, past 2147483647/],
      [['--key', ZPUB, '--environment', 'staging'], /--environment must be one of production, sandbox, not "staging"/],
      [['--key', ZPUB, '--format', 'csv'], /--format must be one of table, json/],
      [['--key', ZPUB, '--change=yes'], /--change/],
      [['--key', ZPUB, '--gap', '20'], /Unknown option '--gap'/],
    ];
    for (const [args, message] of cases) {
      const r = run(['derive', ...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /card2crypto derive --help/);
      assertNoStackTrace(r);
    }
  });
});

describe('card2crypto usage', () => {
  it('gives --help for every command, and help <command>', () => {
    for (const command of ['sign', 'canonical', 'verify', 'landing-url', 'retry-schedule', 'derive']) {
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
