/**
 * PHP compiled to WebAssembly (@php-wasm/node) for the PHP tests of the
 * shared library and of both plugins, so `npm test` needs no native PHP.
 *
 * Every runtime mounts packages/php at /php (the library in /php/src, the
 * test harness every script requires in /php/testing/harness.php), the
 * caller's directories where it asks, and a scratch /work for inputs.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as universal from '@php-wasm/universal';
import * as node from '@php-wasm/node';

/**
 * The part of php-wasm's API used here. Its published .d.ts files re-export
 * through extensionless paths that NodeNext resolution cannot follow, so the
 * modules are typed by hand.
 */
interface PhpResponse {
  text: string;
  errors: string;
  exitCode: number;
}
interface PHP {
  mkdir(path: string): void;
  writeFile(path: string, data: string | Uint8Array): void;
  mount(vfsPath: string, handler: unknown): Promise<unknown>;
  run(request: { scriptPath: string }): Promise<PhpResponse>;
  exit(): void;
}
const { PHP } = universal as unknown as { PHP: new (runtimeId: number) => PHP };
const { createNodeFsMountHandler, loadNodeRuntime } = node as unknown as {
  createNodeFsMountHandler(localPath: string): unknown;
  loadNodeRuntime(version: string, options?: { emscriptenOptions?: { processId?: number } }): Promise<number>;
};

/** The oldest and newest PHP the plugins support ("Requires PHP" in their headers is the oldest). */
export const SUPPORTED_PHP_VERSIONS = ['7.4', '8.5'] as const;

/** packages/php, from dist/testing/php-wasm.js. */
export const PHP_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO_DIR = path.resolve(PHP_PACKAGE_DIR, '../..');

export interface PhpRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type CallResult = { value: unknown; error?: undefined } | { error: string; value?: undefined };

export type Files = Record<string, string | Uint8Array>;

export interface PhpWasmOptions {
  /** Where to mount what: virtual path → local directory. */
  mounts: Record<string, string>;
  /** The virtual directory holding the caller's test scripts (and its call.php). */
  scripts: string;
}

let nextProcessId = 1;

export class PhpWasm {
  private constructor(
    readonly version: string,
    private readonly php: PHP,
    private readonly scripts: string,
  ) {}

  static async start(version: string, options: PhpWasmOptions): Promise<PhpWasm> {
    // One process id per runtime: php-wasm requires it outside its own test runner.
    const php = new PHP(await loadNodeRuntime(version, { emscriptenOptions: { processId: nextProcessId++ } }));
    for (const [vfsPath, localPath] of Object.entries({ '/php': PHP_PACKAGE_DIR, ...options.mounts })) {
      php.mkdir(vfsPath);
      await php.mount(vfsPath, createNodeFsMountHandler(localPath));
    }
    php.mkdir('/work');
    return new PhpWasm(version, php, options.scripts);
  }

  /** Runs <scripts>/<script> with `files` written under /work first. A fatal error is exit code 255. */
  async run(script: string, files: Files = {}): Promise<PhpRun> {
    for (const [name, data] of Object.entries(files)) this.php.writeFile(`/work/${name}`, data);
    try {
      const response = await this.php.run({ scriptPath: `${this.scripts}/${script}` });
      return { stdout: response.text, stderr: response.errors, exitCode: response.exitCode };
    } catch (error) {
      // php-wasm throws on fatal errors; keep the message for the assertion.
      return { stdout: '', stderr: error instanceof Error ? error.message : String(error), exitCode: 255 };
    }
  }

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

  /** One call; throws when PHP threw. */
  async one<T>(name: string, ...args: unknown[]): Promise<T> {
    const [result] = await this.call([[name, ...args]]);
    if (!result || result.error !== undefined) throw new Error(`PHP ${this.version} ${name}: ${result?.error}`);
    return result.value as T;
  }

  exit(): void {
    this.php.exit();
  }
}
