/**
 * Runs the plugin's pure PHP classes inside PHP compiled to WebAssembly
 * (@php-wasm/node), so `npm test` needs no native PHP. Mounted:
 * /plugin (this plugin), /shared (packages/php, the shared library the
 * build copies into the plugin as Card2Crypto\Widget\Shared) and /core
 * (packages/core, for the settings schema). test/php/call.php runs a list
 * of calls and prints their results as JSON.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as universal from '@php-wasm/universal';
import * as node from '@php-wasm/node';

interface PhpResponse {
  text: string;
  errors: string;
  exitCode: number;
}
interface PHP {
  mkdir(path: string): void;
  writeFile(path: string, data: string): void;
  mount(vfsPath: string, handler: unknown): Promise<unknown>;
  run(request: { scriptPath: string }): Promise<PhpResponse>;
  exit(): void;
}
// php-wasm's .d.ts files re-export through paths NodeNext cannot follow; typed by hand.
const { PHP } = universal as unknown as { PHP: new (runtime: number) => PHP };
const { createNodeFsMountHandler, loadNodeRuntime } = node as unknown as {
  createNodeFsMountHandler(localPath: string): unknown;
  loadNodeRuntime(version: string, options?: { emscriptenOptions?: { processId?: number } }): Promise<number>;
};

/** plugins/widget, from dist/test/support/php.js. */
export const PLUGIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const REPO_DIR = path.resolve(PLUGIN_DIR, '../..');

/** Oldest and newest PHP the plugin supports. */
export const PHP_VERSIONS = ['7.4', '8.5'] as const;

export type CallResult = { value: unknown; error?: undefined } | { error: string; value?: undefined };

let processId = 100;

export class PluginPhp {
  private constructor(
    readonly version: string,
    private readonly php: PHP,
  ) {}

  static async start(version: string): Promise<PluginPhp> {
    const php = new PHP(await loadNodeRuntime(version, { emscriptenOptions: { processId: processId++ } }));
    for (const [vfs, local] of [
      ['/plugin', PLUGIN_DIR],
      ['/shared', path.join(REPO_DIR, 'packages/php')],
      ['/core', path.join(REPO_DIR, 'packages/core')],
    ] as const) {
      php.mkdir(vfs);
      await php.mount(vfs, createNodeFsMountHandler(local));
    }
    php.mkdir('/work');
    return new PluginPhp(version, php);
  }

  /** Runs each [function, ...args] of test/php/call.php; an exception becomes { error }. */
  async call(calls: unknown[][]): Promise<CallResult[]> {
    this.php.writeFile('/work/calls.json', JSON.stringify(calls));
    let response: PhpResponse;
    try {
      response = await this.php.run({ scriptPath: '/plugin/test/php/call.php' });
    } catch (error) {
      throw new Error(`PHP ${this.version} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      return JSON.parse(response.text) as CallResult[];
    } catch {
      throw new Error(`PHP ${this.version} printed no JSON (exit ${response.exitCode}): ${response.errors}\n${response.text.slice(0, 2000)}`);
    }
  }

  /** One call; throws when PHP threw. */
  async value<T>(name: string, ...args: unknown[]): Promise<T> {
    const [result] = await this.call([[name, ...args]]);
    if (!result || result.error !== undefined) throw new Error(`${name}: ${result?.error}`);
    return result.value as T;
  }

  exit(): void {
    this.php.exit();
  }
}
