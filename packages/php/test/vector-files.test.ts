/**
 * What the PHP suites (suites/) assume of the shared files they read, checked
 * once rather than on every PHP: core's signing vectors have cases of both
 * forms and both expectations, and every secret settings field says so in its
 * id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaText } from './suites/settings-rules.js';
import { vectors } from './suites/vectors.js';

test('the vector file has cases of both forms and both expectations', () => {
  assert.equal(vectors.version, 1);
  assert.ok(vectors.cases.length >= 200, `${vectors.cases.length} cases`);
  assert.ok(vectors.cases.some((c) => c.form === 'simple'));
  assert.ok(vectors.cases.some((c) => c.expect === 'invalid'));
});

test('every secret field has "secret" in its id (Settings_Store::may_need_migration() looks for it without the schema)', () => {
  const schema = JSON.parse(schemaText) as { plugins: Record<string, { fields: { id: string; secret: boolean }[] }> };
  const secrets = Object.values(schema.plugins).flatMap((p) => p.fields.filter((f) => f.secret).map((f) => f.id));
  assert.ok(secrets.length >= 2, 'both plugins have a secret field');
  assert.deepEqual(
    secrets.filter((id) => !id.toLowerCase().includes('secret')),
    [],
  );
});
