/**
 * Core's browser-safe modules (packages/core/dist/src, entry browser.js),
 * served as ES modules to the widget frame, which formats and parses amounts
 * with them: the frame uses the same money code as everything else.
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

export function sendCoreModule(res: ServerResponse, name: string): void {
  const file = normalize(join(CORE_SRC, name));
  if (!file.startsWith(CORE_SRC) || !file.endsWith('.js')) {
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
