/**
 * What every PHP runtime of the tests shares (see php.ts for the layout):
 * where the package and the repository are, the supported range's ends, and
 * PhpRunner, the JSON calls on top of a runtime's run(). php.ts (the native
 * PHP, and the entry point) and php-wasm.ts (PHP in WebAssembly) both build on
 * this module, and neither on the other's.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The oldest and newest PHP the plugins support ("Requires PHP" in their headers is the oldest). */
export const SUPPORTED_PHP_VERSIONS = ['7.4', '8.5'] as const;

/** packages/php, from dist/testing/runner.js. */
export const PHP_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO_DIR = path.resolve(PHP_PACKAGE_DIR, '../..');

export interface PhpRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type CallResult = { value: unknown; error?: undefined } | { error: string; value?: undefined };

export type Files = Record<string, string | Uint8Array>;

/** Calls answered by one PHP process (PhpRunner.session()). */
export interface CallSession {
  call: (calls: unknown[][]) => Promise<CallResult[]>;
  close: () => void;
}

export interface PhpRunnerOptions {
  /** Where to mount what: path under the test root → local directory. */
  mounts: Record<string, string>;
  /** The directory under the test root holding the caller's test scripts (and its call.php). */
  scripts: string;
  /** Extra command-line arguments of the native PHP (e.g. -n: no php.ini, so no shared extension); php-wasm ignores them. */
  nativeArgs?: string[];
}

/** One PHP runtime; run() is what differs, the JSON calls on top are shared. */
export abstract class PhpRunner {
  protected constructor(readonly version: string) {}

  /** Runs <scripts>/<script> with `files` written under /work first. A fatal error is exit code 255. */
  abstract run(script: string, files?: Files): Promise<PhpRun>;

  abstract exit(): void;

  /** Runs a script that prints one JSON document, and returns it parsed. Fails loudly on PHP errors. */
  async runJson<T>(script: string, files: Files = {}): Promise<T> {
    const result = await this.run(script, files);
    if (result.exitCode !== 0) {
      throw new Error(`PHP ${this.version} ${script} exited with ${result.exitCode}: ${result.stderr}\n${result.stdout.slice(0, 2000)}`);
    }
    try {
      return JSON.parse(result.stdout) as T;
    } catch {
      throw new Error(`PHP ${this.version} ${script} printed no JSON: ${result.stderr}\n${result.stdout.slice(0, 2000)}`);
    }
  }

  /** Runs each [function, ...args] through the caller's call.php (c2c_test_run_calls()). */
  async call(calls: unknown[][], files: Files = {}): Promise<CallResult[]> {
    return this.runJson<CallResult[]>('call.php', { ...files, 'calls.json': JSON.stringify(calls) });
  }

  /**
   * Many batches of calls through one PHP process (native PHP: no process
   * start per batch; a test that asks thousands of small questions takes
   * milliseconds, not minutes). The process keeps its state between batches,
   * so use it for pure functions. php-wasm runs each batch as call() does.
   * close() it when done.
   */
  async session(): Promise<CallSession> {
    return { call: (calls) => this.call(calls), close: () => {} };
  }

  /** One call; throws when PHP threw. */
  async one<T>(name: string, ...args: unknown[]): Promise<T> {
    const [result] = await this.call([[name, ...args]]);
    if (!result || result.error !== undefined) {
      throw new Error(`PHP ${this.version} ${name}: ${result?.error}`);
    }
    return result.value as T;
  }
}
