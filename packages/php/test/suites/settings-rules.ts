/**
 * The PHP settings rules against core's: schema/rule-vectors.json (generated
 * from core's validateSettings) must come out the same in PHP, problem by
 * problem and value by value, on the oldest and newest supported PHP; and
 * what is stored after a submission with problems keeps the stored values.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PhpSandbox, REPO_DIR } from '../support/php.js';

interface RuleVector {
  name: string;
  plugin: 'checkout' | 'widget';
  input: Record<string, unknown>;
  options?: { stored?: Record<string, unknown>; definedConstants?: string[]; mayChangePartnerSettings?: boolean };
  /** With message when the case compares messages too. */
  problems: { field: string; rule: string; message?: string }[];
  values: Record<string, string | boolean>;
  messages?: boolean;
}

interface Validation {
  values: Record<string, string | boolean>;
  problems: { field: string; rule: string; message: string }[];
}

const SCHEMA_FILE = path.join(REPO_DIR, 'packages/core/schema/settings.json');
const VECTOR_FILE = path.join(REPO_DIR, 'packages/core/schema/rule-vectors.json');
/** Core's settings schema; vector-files.test.ts checks its secret fields' ids. */
export const schemaText = fs.readFileSync(SCHEMA_FILE, 'utf8');
const vectors = (JSON.parse(fs.readFileSync(VECTOR_FILE, 'utf8')) as { cases: RuleVector[] }).cases;
const files = { 'settings.json': schemaText };

export function settingsRulesSuite(version: string): void {
  describe(`PHP ${version}: settings rules`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test(`all ${vectors.length} rule vectors of core give the same problems and values (and messages, where a case has them)`, async () => {
      const results = await php.call(
        vectors.map((v) => [
          'settings_validate',
          v.plugin,
          v.input,
          v.options?.stored ?? {},
          v.options?.definedConstants ?? [],
          v.options?.mayChangePartnerSettings ?? true,
        ]),
        files,
      );
      assert.ok(
        vectors.some((v) => v.messages),
        'some cases compare messages',
      );
      const failures: string[] = [];
      vectors.forEach((v, i) => {
        const r = results[i]!;
        if (r.error !== undefined) {
          failures.push(`${v.name}: PHP threw ${r.error}`);
          return;
        }
        const got = r.value as Validation;
        const problems = got.problems.map(({ field, rule, message }) => (v.messages ? { field, rule, message } : { field, rule }));
        if (JSON.stringify(problems) !== JSON.stringify(v.problems)) {
          failures.push(`${v.name}: problems differ\n  core: ${JSON.stringify(v.problems)}\n  php:  ${JSON.stringify(got.problems)}`);
        }
        for (const [key, expected] of Object.entries(v.values)) {
          if (got.values[key] !== expected) {
            failures.push(`${v.name}: value of ${key} differs\n  core: ${JSON.stringify(expected)}\n  php:  ${JSON.stringify(got.values[key])}`);
          }
        }
        // Every problem message names the field's label (or the field itself for unknown ones).
        for (const p of got.problems) {
          if (p.message.trim() === '') {
            failures.push(`${v.name}: empty message for ${p.field}`);
          }
        }
      });
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    test(
      'a 200,000-character wallet key is refused by its length, naming the field, within 2 s, where decoding it took minutes (issue 31, point 4)',
      { timeout: 60_000 },
      async () => {
        const huge = `zpub${'6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs'.repeat(1819)}`.slice(
          0,
          200_000,
        );
        const results = await php.call(
          [
            [
              'timed',
              'settings_validate',
              'checkout',
              { enabled: 'yes', wallet_mode: 'xpub', wallet_key_secret: huge, partner_token: 't', partner_secret: 's' },
            ],
            ['timed', 'settings_validate', 'checkout', { wallet_mode: 'xpub', wallet_key_secret: `wpkh([d34db33f/84h/0h/0h]${huge}/<0;1>/*)` }],
          ],
          files,
        );
        for (const r of results) {
          assert.equal(r.error, undefined, r.error);
          const { value, seconds } = r.value as { value: Validation; seconds: number };
          assert.deepEqual(value.problems, [
            { field: 'wallet_key_secret', rule: 'wallet_key', message: 'Extended public key or descriptor: at most 512 characters.' },
          ]);
          assert.ok(seconds < 2, `took ${seconds.toFixed(3)} s`);
        }
      },
    );

    test('storage: a bad field keeps its stored value, good fields are saved, an empty secret keeps the secret', async () => {
      const stored = {
        enabled: 'no',
        title: 'Old title',
        wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        partner_token: 'tok_old',
        partner_secret: 'sec_old',
        store_currency: 'EUR',
      };
      const [r] = await php.call(
        [
          [
            'settings_store',
            'checkout',
            {
              enabled: 'yes',
              title: 'New title',
              wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr',
              partner_token: 'tok_new',
              partner_secret: '',
              store_currency: 'ISK',
            },
            stored,
          ],
        ],
        files,
      );
      assert.equal(r!.error, undefined, r!.error);
      const saved = r!.value as Record<string, string>;
      assert.equal(saved.enabled, 'yes');
      assert.equal(saved.title, 'New title');
      assert.equal(saved.partner_token, 'tok_new');
      assert.equal(saved.partner_secret, 'sec_old', 'an empty secret field keeps the stored secret');
      assert.equal(saved.wallet_address, stored.wallet_address, 'a wallet with a typo is not saved');
      assert.equal(saved.store_currency, 'EUR', 'an unsupported currency is not saved');
      assert.equal(saved.payment_flow, 'redirect', 'absent fields get their default');
      assert.equal(saved.debug_logging, 'no');
    });

    test('a rule message names the field label', async () => {
      const [r] = await php.call([['settings_validate', 'widget', { partner_token: 't', partner_secret: 's', default_amount: '1,000' }]], files);
      const problems = (r!.value as Validation).problems;
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.field, 'default_amount');
      assert.match(problems[0]!.message, /^Default amount: /);
    });
  });
}
