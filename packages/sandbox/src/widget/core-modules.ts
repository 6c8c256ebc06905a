/**
 * Core's browser-safe modules (packages/core/dist/src, entry browser.js),
 * served as ES modules to the widget frame, which formats and parses amounts
 * with them: the frame uses the same money code as everything else. The
 * audited packages core's browser modules import (@scure/base, @noble/hashes)
 * are served from node_modules as installed (sendPackageModule()), named in
 * the frame's import map (CORE_IMPORT_MAP) as a bundler would resolve them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { sendError } from '../http.js';

const require = createRequire(import.meta.url);
// packages/core/package.json -> packages/core/dist/src/
const CORE_SRC = join(dirname(require.resolve('@card2crypto/core/package.json')), 'dist', 'src') + sep;
const cache = new Map<string, string>();

/** The packages core's browser entry imports, each folder as Node resolves it from core. */
const fromCore = createRequire(join(CORE_SRC, 'index.js'));
const PACKAGES: Record<string, string> = {
  '@scure/base': dirname(fromCore.resolve('@scure/base')) + sep,
  '@noble/hashes': dirname(fromCore.resolve('@noble/hashes/sha2.js')) + sep,
};

/** The frame's import map: bare specifiers of core's browser modules to the package route. */
export const CORE_IMPORT_MAP = JSON.stringify({
  imports: {
    '@scure/base': '/widget/pkg/@scure/base/index.js',
    '@noble/hashes/': '/widget/pkg/@noble/hashes/',
  },
});

export function sendCoreModule(res: ServerResponse, name: string): void {
  sendModule(res, CORE_SRC, name);
}

/** A module of one of PACKAGES: `path` is "<package name>/<file>.js". */
export function sendPackageModule(res: ServerResponse, path: string): void {
  const name = Object.keys(PACKAGES).find((pkg) => path.startsWith(`${pkg}/`));
  if (name === undefined) {
    sendError(res, 404, { code: 'not_found', message: 'no such module' });
    return;
  }
  sendModule(res, PACKAGES[name]!, path.slice(name.length + 1));
}

function sendModule(res: ServerResponse, root: string, name: string): void {
  const file = normalize(join(root, name));
  if (!file.startsWith(root) || !file.endsWith('.js')) {
    sendError(res, 404, { code: 'not_found', message: 'no such module' });
    return;
  }
  let text = cache.get(file);
  if (text === undefined) {
    try {
      // Source maps point at files that are not served.
      text = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/, '\n');
    } catch {
      sendError(res, 404, { code: 'not_found', message: 'no such module' });
      return;
    }
    cache.set(file, text);
  }
  res.writeHead(200, {
    'content-type': 'text/javascript; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  res.end(text);
}
