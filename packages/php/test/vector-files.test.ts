/**
 * What the PHP suites (suites/) assume of the shared files they read, checked
 * once rather than on every PHP: core's signing vectors have cases of both
 * forms and both expectations, and every secret settings field says so in its
 * id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_DIR } from './support/php.js';

test('the vector file has cases of both forms and both expectations', () => {
  const vectors = JSON.parse(fs.readFileSync(process.env.C2C_VECTOR_FILE ?? path.join(REPO_DIR, 'packages/core/vectors/signing.json'), 'utf8')) as {
    version: number;
    cases: { form: string; expect: string }[];
  };
  assert.equal(vectors.version, 1);
  assert.ok(vectors.cases.length >= 200, `${vectors.cases.length} cases`);
  assert.ok(vectors.cases.some((c) => c.form === 'simple'));
  assert.ok(vectors.cases.some((c) => c.expect === 'invalid'));
});

test('every secret field has "secret" in its id (Settings_Store::may_need_migration() looks for it without the schema)', () => {
  const schemaText = fs.readFileSync(path.join(REPO_DIR, 'packages/core/schema/settings.json'), 'utf8');
  const schema = JSON.parse(schemaText) as { plugins: Record<string, { fields: { id: string; secret: boolean }[] }> };
  const secrets = Object.values(schema.plugins).flatMap((p) => p.fields.filter((f) => f.secret).map((f) => f.id));
  assert.ok(secrets.length >= 2, 'both plugins have a secret field');
  assert.deepEqual(
    secrets.filter((id) => !id.toLowerCase().includes('secret')),
    [],
  );
});
