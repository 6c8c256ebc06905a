/**
 * Runs the shared PHP library inside PHP compiled to WebAssembly
 * (@php-wasm/node), so `npm test` needs no native PHP.
 *
 * The package directory is mounted at /c2c; test scripts in test/php load
 * the library through test/php/bootstrap.php (a PSR-4 autoloader for
 * Card2Crypto\Shared, the unprefixed namespace).
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
  run(request: { scriptPath?: string; code?: string }): Promise<PhpResponse>;
  exit(): void;
}
const { PHP } = universal as unknown as { PHP: new (runtimeId: number) => PHP };
const { createNodeFsMountHandler, loadNodeRuntime } = node as unknown as {
  createNodeFsMountHandler(localPath: string): unknown;
  loadNodeRuntime(version: string, options?: { emscriptenOptions?: { processId?: number } }): Promise<number>;
};

/** The oldest and newest PHP the plugins support ("Requires PHP" in their headers is the oldest). */
export const SUPPORTED_PHP_VERSIONS = ['7.4', '8.5'] as const;
export type SupportedPhpVersion = (typeof SUPPORTED_PHP_VERSIONS)[number];

/** packages/php, from dist/test/support/php.js. */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const REPO_DIR = path.resolve(PACKAGE_DIR, '../..');

let nextProcessId = 1;

export interface PhpRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type CallResult = { value: unknown; error?: undefined } | { error: string; value?: undefined };

/** Starts one sandbox per supported PHP version for a test file, and stops them after. */
export function phpPerVersion(): Map<string, Promise<PhpSandbox>> {
  return new Map(SUPPORTED_PHP_VERSIONS.map((v) => [v, PhpSandbox.start(v)]));
}

export class PhpSandbox {
  private constructor(
    readonly version: string,
    private readonly php: PHP,
  ) {}

  static async start(version: string): Promise<PhpSandbox> {
    const runtime = await loadNodeRuntime(version, {
      // One process id per runtime: php-wasm requires it outside its own test runner.
      emscriptenOptions: { processId: nextProcessId++ },
    });
    const php = new PHP(runtime);
    php.mkdir('/c2c');
    await php.mount('/c2c', createNodeFsMountHandler(PACKAGE_DIR));
    php.mkdir('/work');
    return new PhpSandbox(version, php);
  }

  writeFile(vfsPath: string, data: string | Uint8Array): void {
    this.php.writeFile(vfsPath, data);
  }

  /** Runs test/php/<script> with the given files written under /work first. */
  async run(script: string, files: Record<string, string | Uint8Array> = {}): Promise<PhpRun> {
    for (const [name, data] of Object.entries(files)) this.php.writeFile(`/work/${name}`, data);
    try {
      const response = await this.php.run({ scriptPath: `/c2c/test/php/${script}` });
      return { stdout: response.text, stderr: response.errors, exitCode: response.exitCode };
    } catch (error) {
      // php-wasm throws on fatal errors; keep the message for the assertion.
      return { stdout: '', stderr: error instanceof Error ? error.message : String(error), exitCode: 255 };
    }
  }

  /** Runs a script that prints one JSON document, and returns it parsed. Fails loudly on PHP errors. */
  async runJson<T>(script: string, files: Record<string, string | Uint8Array> = {}): Promise<T> {
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

  /**
   * Calls library functions through test/php/call.php: each call is
   * [functionName, ...args]; each result is { value } or { error }.
   */
  async call(calls: unknown[][], files: Record<string, string | Uint8Array> = {}): Promise<CallResult[]> {
    return this.runJson<CallResult[]>('call.php', { ...files, 'calls.json': JSON.stringify(calls) });
  }

  exit(): void {
    this.php.exit();
  }
}
