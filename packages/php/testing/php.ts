/**
 * The PHP that runs the PHP tests of the shared library and of both plugins.
 *
 * Two runtimes behind one interface (PhpRunner): the machine's native `php`
 * when it has one (fast, the PHP stores run), and PHP compiled to WebAssembly
 * (@php-wasm/node, any version) otherwise and for the supported range's ends,
 * which Debian's single PHP cannot cover. TEST_PHP_VERSIONS lists what a test
 * file runs on: "native" (when present), then the oldest and newest supported.
 *
 * Every runtime sees the same layout, rooted at the constant C2C_TEST_ROOT
 * ('' in WebAssembly, a temporary directory natively): packages/php at
 * /php (the library in /php/src, the harness every script requires in
 * /php/testing/harness.php), the caller's directories where it asks, and a
 * scratch /work for inputs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  PHP_PACKAGE_DIR,
  PhpRunner,
  SUPPORTED_PHP_VERSIONS,
  type CallResult,
  type CallSession,
  type Files,
  type PhpRun,
  type PhpRunnerOptions,
} from './runner.js';

export {
  PHP_PACKAGE_DIR,
  PhpRunner,
  REPO_DIR,
  SUPPORTED_PHP_VERSIONS,
  type CallResult,
  type CallSession,
  type Files,
  type PhpRun,
  type PhpRunnerOptions,
} from './runner.js';

/** The machine's PHP CLI, or null: `php` on PATH unless C2C_PHP names another (C2C_PHP=none disables it). */
export function nativePhp(): { binary: string; version: string } | null {
  const binary = process.env.C2C_PHP ?? 'php';
  if (binary === 'none') {
    return null;
  }
  const probe = spawnSync(binary, ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8' });
  return probe.status === 0 ? { binary, version: probe.stdout.trim() } : null;
}

const NATIVE = nativePhp();

/** What each PHP test file of the shared library runs on: the native PHP when present, then php-wasm's oldest and newest supported. */
export const TEST_PHP_VERSIONS: readonly string[] = [...(NATIVE ? ['native'] : []), ...SUPPORTED_PHP_VERSIONS];

/**
 * What the plugins' behaviour tests run on: the native PHP when present, else
 * php-wasm's oldest and newest. With a native PHP the range's ends are covered
 * for the plugins by testPhpCompatibility (testing/compat.ts: every file parses
 * and uses only built-ins each end has), the shared library by its own tests on
 * all three.
 */
export const PLUGIN_TEST_PHP_VERSIONS: readonly string[] = NATIVE ? ['native'] : SUPPORTED_PHP_VERSIONS;

/**
 * The native PHP CLI. The test root is a temporary directory whose entries
 * are symlinks to the mounted directories; every run is one `php` process,
 * and a session() one `php` process for all its calls.
 */
export class PhpNative extends PhpRunner {
  private constructor(
    version: string,
    private readonly binary: string,
    private readonly root: string,
    private readonly scripts: string,
    private readonly nativeArgs: string[],
  ) {
    super(version);
  }

  static start(options: PhpRunnerOptions): PhpNative {
    if (!NATIVE) {
      throw new Error('No native PHP on this machine (php on PATH, or C2C_PHP).');
    }
    const root = mkdtempSync(path.join(tmpdir(), 'c2c-php-'));
    for (const [at, localPath] of Object.entries({ '/php': PHP_PACKAGE_DIR, ...options.mounts })) {
      mkdirSync(path.dirname(path.join(root, at)), { recursive: true });
      symlinkSync(localPath, path.join(root, at), 'dir');
    }
    mkdirSync(path.join(root, 'work'));
    writeFileSync(path.join(root, 'root.php'), `<?php define( 'C2C_TEST_ROOT', ${JSON.stringify(root)} );\n`);
    return new PhpNative(`native ${NATIVE.version}`, NATIVE.binary, root, options.scripts, options.nativeArgs ?? []);
  }

  /** The command line that runs `script` (errors on stdout, as php-wasm gives them; nothing logged twice to stderr). */
  private args(script: string): string[] {
    return [
      ...this.nativeArgs,
      '-d',
      `auto_prepend_file=${path.join(this.root, 'root.php')}`,
      '-d',
      'memory_limit=512M',
      '-d',
      'display_errors=1',
      '-d',
      'log_errors=0',
      path.join(this.root, this.scripts, script),
    ];
  }

  /** One `php` process running call.php in its session mode (harness.php): a batch of calls a line each way. */
  override async session(): Promise<CallSession> {
    const child = spawn(this.binary, this.args('call.php'), { cwd: this.root, env: { ...process.env, C2C_TEST_CALL_SESSION: '1' } });
    const err: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    let queue: Promise<unknown> = Promise.resolve();
    const call = (calls: unknown[][]): Promise<CallResult[]> => {
      const answer = queue.then(async () => {
        child.stdin.write(`${JSON.stringify(calls)}\n`);
        const line = await lines.next();
        if (line.done) {
          throw new Error(`PHP ${this.version} call.php (session) ended: ${Buffer.concat(err).toString('utf8')}`);
        }
        try {
          return JSON.parse(line.value) as CallResult[];
        } catch {
          throw new Error(`PHP ${this.version} call.php (session) printed no JSON: ${line.value.slice(0, 2000)}`);
        }
      });
      queue = answer.catch(() => {});
      return answer;
    };
    return { call, close: () => child.stdin.end() };
  }

  run(script: string, files: Files = {}): Promise<PhpRun> {
    for (const [name, data] of Object.entries(files)) {
      // A name may hold folders (lib/shared/...: a file a script requires beside it).
      mkdirSync(path.dirname(path.join(this.root, 'work', name)), { recursive: true });
      writeFileSync(path.join(this.root, 'work', name), data);
    }
    const args = this.args(script);
    return new Promise((resolveRun) => {
      const child = spawn(this.binary, args, { cwd: this.root });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('close', (code) =>
        resolveRun({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode: code ?? 255 }),
      );
    });
  }

  exit(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Starts a runtime for `version`: "native", or a PHP version for php-wasm. */
export async function startPhp(version: string, options: PhpRunnerOptions): Promise<PhpRunner> {
  if (version === 'native') {
    return PhpNative.start(options);
  }
  const { PhpWasm } = await import('./php-wasm.js');
  return PhpWasm.start(version, options);
}

/**
 * Asks a test site's probe (a mu-plugin REST route the WordPress tests
 * install) to run `action`, and returns its JSON answer. Anything else, such
 * as a PHP fatal error or WordPress's error page, fails with the HTTP status
 * and the start of the body, which is where the reason is.
 */
export async function probeSite<T>(routeUrl: string, action: Record<string, unknown>): Promise<T> {
  const response = await fetch(routeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`probe ${JSON.stringify(action).slice(0, 80)}: HTTP ${response.status} ${text.slice(0, 800)}`);
  }
}
