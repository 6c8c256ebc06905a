/**
 * Runs the checkout plugin's pure PHP classes (includes/) in PHP compiled to
 * WebAssembly, without WordPress, on the oldest and newest supported PHP.
 *
 * /plugin is plugins/checkout, /shared is packages/php/src. The test
 * bootstrap loads includes/class-*.php and the shared library under the
 * plugin's namespace (Card2Crypto\Checkout\Shared), prefixed on the fly the
 * way packages/php/scripts/prefix.mjs does at build time.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as universal from '@php-wasm/universal';
import * as node from '@php-wasm/node';

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

export const SUPPORTED_PHP_VERSIONS = ['7.4', '8.5'] as const;

/** plugins/checkout, from dist/test/support/php.js. */
export const PLUGIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const REPO_DIR = path.resolve(PLUGIN_DIR, '../..');

let nextProcessId = 100;

export type CallResult = { value: unknown; error?: undefined } | { error: string; value?: undefined };

export class PluginPhp {
  private constructor(
    readonly version: string,
    private readonly php: PHP,
  ) {}

  static async start(version: string): Promise<PluginPhp> {
    const runtime = await loadNodeRuntime(version, { emscriptenOptions: { processId: nextProcessId++ } });
    const php = new PHP(runtime);
    php.mkdir('/plugin');
    await php.mount('/plugin', createNodeFsMountHandler(PLUGIN_DIR));
    php.mkdir('/shared');
    await php.mount('/shared', createNodeFsMountHandler(path.join(REPO_DIR, 'packages/php/src')));
    php.mkdir('/work');
    return new PluginPhp(version, php);
  }

  /** Calls functions of test/php/call.php: each call is [name, ...args]. */
  async call(calls: unknown[][]): Promise<CallResult[]> {
    this.php.writeFile('/work/calls.json', JSON.stringify(calls));
    let response: PhpResponse;
    try {
      response = await this.php.run({ scriptPath: '/plugin/test/php/call.php' });
    } catch (error) {
      throw new Error(`PHP ${this.version}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.exitCode !== 0) throw new Error(`PHP ${this.version} exited with ${response.exitCode}: ${response.errors}\n${response.text.slice(0, 2000)}`);
    try {
      return JSON.parse(response.text) as CallResult[];
    } catch {
      throw new Error(`PHP ${this.version} printed no JSON: ${response.errors}\n${response.text.slice(0, 2000)}`);
    }
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
