/**
 * The README's examples are run as they are written: every ```js block is
 * executed as an ES module importing the built package by its own name, and
 * what it prints must be its `// → ` comments, in order. The partner API
 * example talks to a small local service that checks request signatures and
 * signs its answers. Every backticked name in the README's prose must still
 * exist in the package's declarations.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { verify } from '../src/signing/index.js';
import { sendJson, sendSigned, sendText, startServer, type TestServer } from './api-support.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
const SECRET = 'readme-example-secret';
const TOKEN = 'tok-1';

interface Block {
  line: number;
  code: string;
}

function jsBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const fence = /^```js\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    blocks.push({ line: markdown.slice(0, m.index).split('\n').length, code: m[1] as string });
  }
  return blocks;
}

/** The names a block imports from the package, by entry point. */
function importsOf(code: string): { entry: string; names: string[] }[] {
  const found: { entry: string; names: string[] }[] = [];
  const statement = /import\s*\{([^}]*)\}\s*from\s*'(@card2crypto\/core(?:\/[a-z-]+)?)'/g;
  for (let m = statement.exec(code); m !== null; m = statement.exec(code)) {
    found.push({
      entry: m[2] as string,
      names: (m[1] as string)
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
    });
  }
  return found;
}

/** Service answers for the partner API example (the spec's endpoints, request signatures checked). */
function serve(server: TestServer): void {
  server.handle((req, res) => {
    if (!verify(req.text, SECRET).ok || req.body.partner_token !== TOKEN) {
      return sendText(res, 401, 'Wrong signature');
    }
    switch (req.path) {
      case '/api/partner/params':
        return sendSigned(res, { service_fee: 0.01 }, SECRET);
      case '/api/partner/exchange/calculate':
        return sendSigned(
          res,
          {
            from_currency: 'EUR',
            to_currency: 'BTC',
            from_amount: req.body.from_amount,
            to_amount: 156000,
            calculation_id: 'calc-1',
            expired_at: '2030-01-01T00:00:30.1234567Z',
          },
          SECRET,
        );
      case '/api/partner/operation':
        return sendJson(res, 400, {
          error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no operation has this partner_operation_id' },
        });
      default:
        return sendText(res, 404, 'not found');
    }
  });
}

describe('README.md', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    serve(server);
  });
  after(async () => {
    await server.close();
  });

  const blocks = jsBlocks(README);

  it('has examples for signing, callbacks, the API client, widget settings, landing URLs and the browser entry', () => {
    const imported = new Set(blocks.flatMap((b) => importsOf(b.code).flatMap((i) => i.names)));
    for (const name of [
      'sign',
      'verify',
      'canonicalString',
      'verifyCallback',
      'callbackResponse',
      'PartnerApiClient',
      'PartnerApiError',
      'buildSignedWidgetSettings',
      'buildLandingUrl',
      'parseLandingUrl',
    ]) {
      assert.ok(imported.has(name), `no example imports ${name}`);
    }
  });

  for (const block of blocks) {
    it(`runs the example at line ${block.line} and prints what it says`, async () => {
      for (const { entry, names } of importsOf(block.code)) {
        const module = (await import(entry)) as Record<string, unknown>;
        for (const name of names) {
          assert.ok(name in module, `${entry} exports no ${name}`);
        }
      }
      const expected = [...block.code.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1] as string);
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', block.code], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, CARD2CRYPTO_SECRET: SECRET, CARD2CRYPTO_TOKEN: TOKEN, CARD2CRYPTO_BASE_URL: server.url },
        timeout: 20_000,
      });
      assert.deepEqual(stdout.trimEnd().split('\n'), expected);
    });
  }

  it('names only what the package declares', () => {
    const declarations = declarationText(path.join(PACKAGE_DIR, 'dist/src'));
    const prose = README.replace(/^```[\s\S]*?^```$/gm, '');
    const names = new Set([...prose.matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g)].map((m) => m[1] as string));
    const unknown = [...names].filter((name) => !new RegExp(`\\b${name}\\b`).test(declarations));
    assert.deepEqual(unknown, []);
  });
});

function declarationText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}
