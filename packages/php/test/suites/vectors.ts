/**
 * The PHP library against @card2crypto/core's conformance vectors, on the
 * oldest and the newest PHP the plugins support. Every case is checked:
 * canonical string and signature for valid cases, and verification of the
 * raw JSON body (input plus signature) against the case's expectation.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PhpSandbox, REPO_DIR } from '../support/php.js';

interface VectorCase {
  name: string;
  form: 'general' | 'simple';
  secret: string;
  input: unknown;
  input_json?: string;
  numbers?: 'raw' | 'js';
  nulls?: 'empty' | 'omit';
  canonical?: string;
  signature?: string;
  body?: string;
  expect: 'valid' | 'invalid';
}

interface PhpCaseResult {
  name: string;
  canonical?: string;
  signature?: string;
  signed?: string;
  sign_error?: string;
  native_canonical?: string;
  native_error?: string;
  verify: { ok: boolean; reason: string | null; message: string };
}

const VECTOR_FILE = process.env.C2C_VECTOR_FILE ?? path.join(REPO_DIR, 'packages/core/vectors/signing.json');
const vectorText = fs.readFileSync(VECTOR_FILE, 'utf8');
/** Core's signing vectors (C2C_VECTOR_FILE names another file); vector-files.test.ts checks their spread. */
export const vectors = JSON.parse(vectorText) as { version: number; cases: VectorCase[] };

/**
 * The raw JSON text a receiver would get: the case's own body when it has one,
 * else its input (as raw text when the number text matters) plus its signature.
 */
function bodyOf(c: VectorCase): string {
  if (typeof c.body === 'string') {
    return c.body;
  }
  const signature = JSON.stringify(c.signature ?? '');
  if (typeof c.input_json === 'string') {
    const text = c.input_json.trimEnd();
    if (!text.endsWith('}')) {
      return text;
    } // Not an object: verification must refuse it.
    const inner = text.slice(0, -1).trimEnd();
    return `${inner}${inner.endsWith('{') ? '' : ','}"signature":${signature}}`;
  }
  if (c.input === null || typeof c.input !== 'object' || Array.isArray(c.input)) {
    return JSON.stringify(c.input);
  }
  return JSON.stringify({ ...(c.input as object), signature: c.signature ?? '' });
}

export function vectorsSuite(version: string): void {
  describe(`PHP ${version}: core signing vectors`, () => {
    let php: PhpSandbox;
    let results: PhpCaseResult[];

    before(async () => {
      php = await PhpSandbox.start(version);
      results = await php.runJson<PhpCaseResult[]>('vectors.php', {
        'vectors.json': vectorText,
        'bodies.json': JSON.stringify(vectors.cases.map(bodyOf)),
      });
    });

    test("every valid case: canonical string (under the case's reading) and signature", () => {
      const failures: string[] = [];
      vectors.cases.forEach((c, i) => {
        if (c.expect !== 'valid') {
          return;
        }
        const r = results[i] as PhpCaseResult;
        assert.equal(r.name, c.name);
        if (r.sign_error !== undefined) {
          failures.push(`${c.name}: PHP refused to sign: ${r.sign_error}`);
        } else if (r.canonical !== c.canonical) {
          failures.push(`${c.name}: canonical differs\n  core: ${JSON.stringify(c.canonical)}\n  php:  ${JSON.stringify(r.canonical)}`);
        } else if (r.signature !== c.signature?.toLowerCase()) {
          failures.push(`${c.name}: signature differs (canonical strings equal)`);
        } else if (r.signed !== undefined && r.signed !== r.signature) {
          failures.push(`${c.name}: Signer::sign() differs from the HMAC of the canonical string`);
        }
      });
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    test('invalid cases: the canonical string is still what the body gives', () => {
      const failures: string[] = [];
      vectors.cases.forEach((c, i) => {
        const r = results[i] as PhpCaseResult;
        if (c.expect === 'invalid' && c.canonical !== undefined && r.sign_error === undefined && r.canonical !== c.canonical) {
          failures.push(`${c.name}: canonical differs\n  core: ${JSON.stringify(c.canonical)}\n  php:  ${JSON.stringify(r.canonical)}`);
        }
      });
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    test('every case without number text: PHP-native ints and floats sign alike', () => {
      const failures: string[] = [];
      let checked = 0;
      vectors.cases.forEach((c, i) => {
        const r = results[i] as PhpCaseResult;
        if (c.expect !== 'valid' || c.input_json !== undefined || (r.native_canonical === undefined && r.native_error === undefined)) {
          return;
        }
        checked++;
        if (r.native_error !== undefined) {
          failures.push(`${c.name}: ${r.native_error}`);
        } else if (r.native_canonical !== c.canonical) {
          failures.push(
            `${c.name}: canonical of json_decode() values differs\n  core: ${JSON.stringify(c.canonical)}\n  php:  ${JSON.stringify(r.native_canonical)}`,
          );
        }
      });
      assert.ok(checked >= 100, `only ${checked} cases signed from PHP-native values`);
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    test('every case: verification of the raw body matches the expectation', () => {
      assert.equal(results.length, vectors.cases.length);
      const failures: string[] = [];
      vectors.cases.forEach((c, i) => {
        const r = results[i] as PhpCaseResult;
        const valid = c.expect === 'valid';
        if (r.verify.ok !== valid) {
          failures.push(
            `${c.name}: expected ${c.expect}, PHP said ${r.verify.ok ? 'valid' : `invalid (${r.verify.reason}: ${r.verify.message})`}\n  core canonical: ${JSON.stringify(c.canonical)}\n  body: ${bodyOf(c).slice(0, 300)}`,
          );
        }
      });
      assert.deepEqual(failures, [], failures.join('\n'));
    });
  });
}
