/**
 * The package as a developer gets it: `npm pack` of this folder (as built),
 * the tarball installed into an empty project (its dependencies from npm's
 * cache when there, else the registry), then used as the README says: an
 * ES module importing the main entry signs and derives an address, the
 * browser entry validates one, CommonJS require() loads it, the types
 * check (the repository's tsc over a small .ts file, against the installed
 * declarations and nothing else), and the `card2crypto` command runs.
 * Every answer is checked against an independent one (node:crypto's HMAC,
 * BIP84's published address).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(dirname(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('@typescript/native/package.json')), 'bin', 'tsc');
const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
/** BIP84's first receive address of that account key. */
const BIP84_FIRST = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const SECRET = 'package-test-secret';
/** Everything an installation may hold: this package and the audited libraries it names (README, "Dependency policy"). */
const ALLOWED = ['@card2crypto/core', '@noble/curves', '@noble/hashes', '@scure/base', '@scure/bip32'];

/**
 * The environment of a developer's shell: without what `npm run` sets for this
 * workspace (npm_config_workspace, npm_package_*, …), which would point npm
 * back at the repository; npm's cache, registry and user config stay.
 */
function developerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) || keep.has(name.toLowerCase())));
  delete env.INIT_CWD;
  return { ...env, ...extra };
}

interface Tree {
  version: string;
  dependencies?: Record<string, Tree>;
}

async function run(file: string, args: string[], cwd: string, options: { input?: string; env?: Record<string, string> } = {}): Promise<string> {
  const child = promisify(execFile)(file, args, { cwd, env: developerEnv(options.env), timeout: 60_000, maxBuffer: 10 * 1024 * 1024 });
  if (options.input !== undefined) {
    child.child.stdin!.end(options.input);
  }
  return (await child).stdout;
}

describe('the packed package, installed into an empty project', { timeout: 120_000 }, () => {
  let root: string;
  let project: string;
  let packed: { filename: string; files: { path: string }[] };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'c2c-core-pack-'));
    project = join(root, 'project');
    mkdirSync(project);
    packed = (JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', root], PACKAGE_DIR)) as (typeof packed)[])[0]!;
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'shop-server', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(root, packed.filename)], project);
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('holds the built entries, the CLI, the schema and the vectors, and no tests, sources or scripts', () => {
    const paths = packed.files.map((f) => f.path);
    for (const path of [
      'package.json',
      'README.md',
      'bin/card2crypto.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/browser.js',
      'dist/src/bip32/index.js',
    ]) {
      assert.ok(paths.includes(path), `${path} is not in the tarball`);
    }
    assert.ok(paths.includes('vectors/bip32-addresses.json') && paths.includes('schema/settings.json'));
    assert.deepEqual(
      paths.filter((p) => /^(src|test|scripts|bench)\/|^dist\/(test|scripts|bench)\/|\.tsbuildinfo$/.test(p)),
      [],
    );
  });

  it('installs the audited libraries it names and nothing else', async () => {
    const tree = JSON.parse(await run('npm', ['ls', '--all', '--json'], project)) as { dependencies: Record<string, Tree> };
    const names = new Set<string>();
    const walk = (deps: Record<string, Tree> = {}): void => {
      for (const [name, node] of Object.entries(deps)) {
        names.add(name);
        walk(node.dependencies);
      }
    };
    walk(tree.dependencies);
    assert.deepEqual([...names].sort(), ALLOWED);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/@card2crypto/core/package.json'), 'utf8')) as { engines: { node: string } };
    assert.equal(manifest.engines.node, '^22.12.0 || ^24.0.0 || >=26.0.0');
  });

  it('signs, verifies and derives from an ES module, as the README shows', async () => {
    const program = `
import { deriveAddresses, sign, verify } from '@card2crypto/core';
import { validateBtcAddress } from '@card2crypto/core/browser';
const body = { partner_token: 'tok-1', timestamp: 1700000000000, operation_id: 'op-1' };
const signature = sign(body, process.env.CARD2CRYPTO_SECRET);
const [first] = deriveAddresses(process.argv[2]);
console.log(JSON.stringify({
  signature,
  verified: verify(JSON.stringify({ ...body, signature }), process.env.CARD2CRYPTO_SECRET).ok,
  address: first.address,
  valid: validateBtcAddress(first.address),
}));
`;
    writeFileSync(join(project, 'server.js'), program);
    const out = JSON.parse(await run(process.execPath, ['server.js', BIP84_ZPUB], project, { env: { CARD2CRYPTO_SECRET: SECRET } }));
    const canonical = 'operation_id:op-1;partner_token:tok-1;timestamp:1700000000000';
    assert.equal(out.signature, createHmac('sha512', SECRET).update(canonical).digest('hex'));
    assert.equal(out.verified, true);
    assert.equal(out.address, BIP84_FIRST);
    assert.deepEqual(out.valid, { valid: true, network: 'mainnet', type: 'p2wpkh', encoding: 'bech32', witnessVersion: 0 });
  });

  it('loads with require() from CommonJS (Node.js 22.12 and later load ES modules so)', async () => {
    writeFileSync(join(project, 'legacy.cjs'), "const core = require('@card2crypto/core');\nconsole.log(core.deriveAddresses(process.argv[2])[0].address);\n");
    assert.equal((await run(process.execPath, ['legacy.cjs', BIP84_ZPUB], project)).trim(), BIP84_FIRST);
  });

  it("type-checks a developer's TypeScript against the installed declarations (the browser entry has no key parser)", async () => {
    const source = `
import { deriveAddresses, sign, verify, WalletKeyError, type DerivedAddress, type VerifyResult } from '@card2crypto/core';
import { validateBtcAddress, type BtcAddressResult } from '@card2crypto/core/browser';
// @ts-expect-error: the key never reaches a browser, so the browser entry declares no parser for it.
import { parseWalletKey } from '@card2crypto/core/browser';

const signature: string = sign({ partner_token: 'tok-1' }, 'secret');
const result: VerifyResult = verify('{}', 'secret');
const reason: string = result.ok ? result.reading.numbers : result.reason;
const addresses: DerivedAddress[] = deriveAddresses('zpub…', { from: 0, count: 2, change: false });
const checked: BtcAddressResult = validateBtcAddress(addresses[0]!.address, { networks: ['mainnet'] });
const code: string = new WalletKeyError('checksum', 'Checksum mismatch').code;
// @ts-expect-error: a signature is a string, not a number.
const wrong: number = sign({}, 'secret');
export { signature, reason, checked, code, wrong, parseWalletKey };
`;
    writeFileSync(join(project, 'shop.ts'), source);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true },
        files: ['shop.ts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project);
  });

  it('runs the card2crypto command: help, sign and derive', async () => {
    const help = await run('npx', ['--no-install', 'card2crypto', '--help'], project);
    assert.match(help, /^Usage: card2crypto <command> \[options\]/);
    assert.match(help, /\n {2}derive +print a wallet's addresses/);
    const signature = await run('npx', ['--no-install', 'card2crypto', 'sign'], project, {
      input: '{"b":1,"a":"x","c":{"d":true}}',
      env: { CARD2CRYPTO_SECRET: SECRET },
    });
    assert.equal(signature, `${createHmac('sha512', SECRET).update('a:x;b:1;c:d:1').digest('hex')}\n`);
    const derived = JSON.parse(await run('npx', ['--no-install', 'card2crypto', 'derive', '--key', BIP84_ZPUB, '--count', '1', '--format', 'json'], project));
    assert.equal(derived.addresses[0].address, BIP84_FIRST);
  });
});
