/**
 * PHP compiled to WebAssembly (@php-wasm/node): the PhpRunner for any PHP
 * version, needing nothing but Node. See php.ts for the layout every runner
 * shares; here the test root is the virtual filesystem's own root. Built on
 * runner.ts only: php.ts loads this module when a test asks for a version.
 */
import * as universal from '@php-wasm/universal';
import * as node from '@php-wasm/node';
import path from 'node:path';
import { PHP_PACKAGE_DIR, PhpRunner, type Files, type PhpRun, type PhpRunnerOptions } from './runner.js';

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
  mkdir: (path: string) => void;
  writeFile: (path: string, data: string | Uint8Array) => void;
  mount: (vfsPath: string, handler: unknown) => Promise<unknown>;
  defineConstant: (key: string, value: string) => void;
  run: (request: { scriptPath: string }) => Promise<PhpResponse>;
  exit: () => void;
}
const { PHP } = universal as unknown as { PHP: new (runtimeId: number) => PHP };
const { createNodeFsMountHandler, loadNodeRuntime } = node as unknown as {
  createNodeFsMountHandler: (localPath: string) => unknown;
  loadNodeRuntime: (version: string, options?: { emscriptenOptions?: { processId?: number } }) => Promise<number>;
};

let nextProcessId = 1;

export class PhpWasm extends PhpRunner {
  private constructor(
    version: string,
    private readonly php: PHP,
    private readonly scripts: string,
  ) {
    super(version);
  }

  static async start(version: string, options: PhpRunnerOptions): Promise<PhpWasm> {
    // One process id per runtime: php-wasm requires it outside its own test runner.
    const php = new PHP(await loadNodeRuntime(version, { emscriptenOptions: { processId: nextProcessId++ } }));
    for (const [vfsPath, localPath] of Object.entries({ '/php': PHP_PACKAGE_DIR, ...options.mounts })) {
      php.mkdir(vfsPath);
      await php.mount(vfsPath, createNodeFsMountHandler(localPath));
    }
    php.mkdir('/work');
    return new PhpWasm(version, php, options.scripts);
  }

  async run(script: string, files: Files = {}): Promise<PhpRun> {
    for (const [name, data] of Object.entries(files)) {
      // A name may hold folders (lib/shared/...: a file a script requires beside it); mkdir makes every level.
      this.php.mkdir(path.posix.dirname(`/work/${name}`));
      this.php.writeFile(`/work/${name}`, data);
    }
    // Defined per run: php-wasm's constants live for one request.
    this.php.defineConstant('C2C_TEST_ROOT', '');
    try {
      const response = await this.php.run({ scriptPath: `${this.scripts}/${script}` });
      return { stdout: response.text, stderr: response.errors, exitCode: response.exitCode };
    } catch (error) {
      // php-wasm throws on fatal errors; keep the message for the assertion.
      return { stdout: '', stderr: error instanceof Error ? error.message : String(error), exitCode: 255 };
    }
  }

  exit(): void {
    this.php.exit();
  }
}
