/** The card2crypto-sandbox bin: flags, the printed addresses, readiness, clean stop; the price table option. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PARTNER_API_PATHS } from '@card2crypto/core';
import { parseCli } from '../src/cli.js';
import { Pricing } from '../src/pricing.js';
import { post, signedBody, tempDir } from './helpers.js';

const BIN = fileURLToPath(new URL('../../bin/card2crypto-sandbox.js', import.meta.url));

describe('card2crypto-sandbox bin', () => {
  it('prints its addresses as name: value lines, then ready; answers; stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      [
        BIN,
        '--port',
        '0',
        '--data-dir',
        dir.path,
        '--partner',
        'cli-partner:cli-secret:http://127.0.0.1:9/callback',
        '--partner',
        'second:s2',
        '--clock-speed',
        '50',
        '--rate-limit',
        '0',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/^ready$/m.test(out)) {
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const lines = Object.fromEntries(
        out
          .trim()
          .split('\n')
          .filter((l) => l.includes(': '))
          .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
      );
      const base = lines.base_url as string;
      assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(lines.widget_script_url, `${base}/widget.js`);
      assert.equal(lines.landing_url, `${base}/landing`);
      assert.equal(lines.status_page_url, `${base}/status`);
      assert.equal(lines.dashboard_url, `${base}/dashboard`);
      assert.equal(lines.callback_ip, '127.0.0.1');
      assert.equal(lines.data_dir, dir.path);
      assert.match(out, /^partner: cli-partner http:\/\/127\.0\.0\.1:9\/callback$/m);
      assert.match(out, /^partner: second$/m);
      assert.doesNotMatch(out, /cli-secret|s2\b/, 'secrets are never printed');

      const home = await fetch(`${base}/`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /4242 4242 4242 4242/);
      const script = await fetch(lines.widget_script_url as string);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
      assert.match(await script.text(), /Card2CryptoWidget/);
      const api = await post(base + PARTNER_API_PATHS.params, JSON.stringify(signedBody({}, { token: 'cli-partner', secret: 'cli-secret' })));
      assert.equal(api.status, 200);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
      }
      dir.remove();
    }
  });

  it('refuses bad flags with a message and exit code 1; --help prints the usage', () => {
    for (const args of [['--partner', 'no-secret'], ['--clock-speed', 'fast'], ['--port', '-1'], ['--partner', 'a:b:not a url'], ['--unknown']]) {
      const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      assert.equal(run.status, 1, args.join(' '));
      assert.match(run.stderr, /^card2crypto-sandbox: /);
    }
    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--clock-speed N/);
  });

  it('maps every flag to an option', () => {
    const dir = tempDir();
    try {
      const prices = join(dir.path, 'prices.json');
      writeFileSync(prices, JSON.stringify({ crypto: { BTC: '50000' } }));
      const options = parseCli([
        '--port',
        '4799',
        '--host',
        '127.0.0.1',
        '--data-dir',
        dir.path,
        '--partner',
        'p:s:https://shop.example/cb?x=1',
        '--callback-ip',
        '127.0.0.2',
        '--callback-timeout',
        '5000',
        '--callback-concurrency',
        '3',
        '--clock-speed',
        '2.5',
        '--rate-limit',
        '0',
        '--rate-lifetime',
        '60',
        '--step-delay',
        '0',
        '--service-fee',
        '0.02',
        '--kyc-threshold-percent',
        '50',
        '--prices',
        prices,
        '--max-body-bytes',
        '1000',
        '--latency',
        '300',
        '--latency-jitter',
        '50',
      ]);
      assert.notEqual(options, 'help');
      assert.deepEqual(options, {
        dataDir: dir.path,
        port: 4799,
        host: '127.0.0.1',
        partners: [{ token: 'p', secret: 's', callbackUrl: 'https://shop.example/cb?x=1' }],
        callbackIp: '127.0.0.2',
        callbackTimeoutMs: 5000,
        callbackConcurrency: 3,
        clockSpeed: 2.5,
        rateLimit: 0,
        rateLifetimeSeconds: 60,
        stepDelayMs: 0,
        serviceFee: '0.02',
        kycThresholdPercent: 50,
        prices: { crypto: { BTC: '50000' } },
        maxBodyBytes: 1000,
        latencyMs: 300,
        latencyJitterMs: 50,
      });
    } finally {
      dir.remove();
    }
  });

  it('refuses a latency that is not a number of milliseconds, naming the flag', () => {
    assert.throws(() => parseCli(['--latency=-5']), /--latency must be a number >= 0, got "-5"/);
    assert.throws(() => parseCli(['--latency-jitter', 'slow']), /--latency-jitter must be a number >= 0, got "slow"/);
  });
});

describe('--partners-file: secrets off the command line', () => {
  it('starts with partners from a file; neither the command line nor the output carries a secret', async () => {
    const dir = tempDir();
    const secret = 'file-secret-7f3a9c21e5';
    const file = join(dir.path, 'partners.json');
    writeFileSync(
      file,
      JSON.stringify([
        { token: 'file-partner', secret, callback_url: 'http://127.0.0.1:9/cb' },
        { token: 'no-callback', secret: 'other-secret-42e1' },
      ]),
      { mode: 0o600 },
    );
    const args = [BIN, '--port', '0', '--data-dir', join(dir.path, 'data'), '--partners-file', file, '--rate-limit', '0'];
    assert.ok(!args.join(' ').includes(secret));
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/^ready$/m.test(out)) {
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      assert.match(out, /^partner: file-partner http:\/\/127\.0\.0\.1:9\/cb$/m);
      assert.match(out, /^partner: no-callback$/m);
      assert.doesNotMatch(out, /file-secret|other-secret/);
      const base = /^base_url: (\S+)$/m.exec(out)![1]!;
      const api = await post(base + PARTNER_API_PATHS.params, JSON.stringify(signedBody({}, { token: 'file-partner', secret })));
      assert.equal(api.status, 200, api.text);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
      }
      dir.remove();
    }
  });

  it('refuses a bad partners file with an error naming the entry and member, never echoing a secret', () => {
    const dir = tempDir();
    try {
      const cases: Array<[string, RegExp]> = [
        ['not json', /partners\.json: not valid JSON/],
        ['{"token":"a","secret":"s"}', /expected a JSON array/],
        ['[{"token":"a","secret":"hidden-secret-1","callback_url":"nope"}]', /\[0\] a: the callback URL "nope" is not an absolute URL/],
        ['[{"token":"a","secret":"hidden-secret-1"},{"token":"b"}]', /\[1\]: "secret" must be a string/],
        ['[{"token":"a b","secret":"hidden-secret-1"}]', /\[0\] "a b": the token must not contain spaces/],
        ['[{"token":"a","secret":""}]', /\[0\] a: the secret is empty/],
        ['[{"token":"a","secret":"hidden-secret-1","secert":"x"}]', /\[0\]: unknown member "secert"/],
        ['[42]', /\[0\]: expected an object/],
      ];
      for (const [text, message] of cases) {
        const file = join(dir.path, 'partners.json');
        writeFileSync(file, text);
        const run = spawnSync(process.execPath, [BIN, '--data-dir', dir.path, '--partners-file', file], { encoding: 'utf8' });
        assert.equal(run.status, 1, text);
        assert.match(run.stderr, message, text);
        assert.doesNotMatch(run.stderr, /hidden-secret/, text);
      }
      const missing = spawnSync(process.execPath, [BIN, '--data-dir', dir.path, '--partners-file', join(dir.path, 'absent.json')], { encoding: 'utf8' });
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /--partners-file .*absent\.json: ENOENT/);
    } finally {
      dir.remove();
    }
  });

  it('--partner errors never echo the value (it holds the secret)', () => {
    const run = spawnSync(process.execPath, [BIN, '--partner', ':hidden-secret-2'], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.doesNotMatch(run.stderr, /hidden-secret/);
    const url = spawnSync(process.execPath, [BIN, '--partner', 'tok:hidden-secret-3:not a url'], { encoding: 'utf8' });
    assert.equal(url.status, 1);
    assert.match(url.stderr, /--partner tok: the callback URL/);
    assert.doesNotMatch(url.stderr, /hidden-secret/);
  });

  it('takes file partners and --partner together (file first)', () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, 'p.json');
      writeFileSync(file, '[{"token":"f","secret":"fs"}]');
      const options = parseCli(['--data-dir', dir.path, '--partners-file', file, '--partner', 'c:cs']);
      assert.notEqual(options, 'help');
      assert.deepEqual((options as Exclude<typeof options, 'help'>).partners, [
        { token: 'f', secret: 'fs', callbackUrl: null },
        { token: 'c', secret: 'cs', callbackUrl: null },
      ]);
    } finally {
      dir.remove();
    }
  });
});

describe('price table', () => {
  it('takes overrides and keeps the other defaults; quotes follow the table exactly', () => {
    const pricing = new Pricing({ crypto: { BTC: '50000' }, fiat: { EUR: '1' } }, '0', 20);
    // 100.00 EUR at 1 USD / 50000 USD per BTC = 0.002 BTC, no fee.
    const quote = pricing.quote({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10000n });
    assert.equal(quote.toAmount, 200000n);
    assert.equal(quote.feeAmount, 0n);
    assert.equal(quote.rate, '50000');
    const eth = pricing.quote({ fromCurrency: 'EUR', toCurrency: 'ETH', fromAmount: 32000n });
    assert.equal(eth.toAmount, 100000000000000000n); // 320 EUR at 3200 USD per ETH = 0.1 ETH
  });

  it('refuses a table that misses or invents a currency, or a bad value', () => {
    assert.throws(() => new Pricing({ fiat: { XXX: '1' } }), /XXX is not a supported fiat currency/);
    assert.throws(() => new Pricing({ crypto: { DOGE: '1' } }), /DOGE is not a supported crypto asset/);
    assert.throws(() => new Pricing({ crypto: { BTC: '-1' } }), /price of BTC/);
    assert.throws(() => new Pricing({ crypto: { BTC: '0' } }), /price of BTC/);
    assert.throws(() => new Pricing({}, '1.5'), /service fee/);
  });
});
