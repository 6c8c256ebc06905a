/**
 * PHP callback verification against core's verifyCallback() and
 * callbackResponse(): the same outcome (ok, or which reason) and the same
 * HTTP answer for every body (400 empty/unparseable/invalid, 401 "Wrong
 * signature", 200 "OK"), on the oldest and newest supported PHP.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callbackResponse, parseJsonLossless, sign, verifyCallback } from '@card2crypto/core';
import { PhpSandbox, REPO_DIR } from '../support/php.js';

/** Bodies whose canonical string could stand for another body, and the member refused (core's vectors). */
const AMBIGUITY = JSON.parse(readFileSync(path.join(REPO_DIR, 'packages/core/vectors/callback-ambiguity.json'), 'utf8')) as {
  cases: Array<{ name: string; body_json: string; field: string | null; kind: 'name' | 'value' | null }>;
};

const SECRET = 'callback-secret-ü';

function signed(text: string, secret = SECRET): string {
  const signature = sign(parseJsonLossless(text) as object, secret);
  return `${text.slice(0, -1)},"signature":"${signature}"}`;
}

const OP =
  '{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"op-1","from":{"amount":10050,"currency":{"code":"EUR","decimals":2}},"currency_rate":65000.50},"partner_info":{"operation_id":"order-9"}}}';
const valid = signed(OP);

const BODIES: [string, string][] = [
  ['valid', valid],
  [
    'valid, pretty-printed with number text kept',
    signed(
      '{\n  "operation_data": {"status": "success", "status_code": 0, "operation_info": {"id": "op-2", "currency_rate": 1.50e3, "payment_method_info": {}}, "customer_info": null}, "extra": [1, 2.0]\n}',
    ),
  ],
  ['valid, upper-case signature', valid.replace(/"signature":"([0-9a-f]+)"/, (_, s: string) => `"signature":"${s.toUpperCase()}"`)],
  ['tampered amount', valid.replace('10050', '10051')],
  ['tampered number text (1.50 -> 1.5)', signed(OP).replace('65000.50', '65000.5')],
  ['signed with another secret', signed(OP, 'other-secret')],
  ['unsigned', OP],
  ['empty signature', `${OP.slice(0, -1)},"signature":""}`],
  ['signature of the wrong length', `${OP.slice(0, -1)},"signature":"abc"}`],
  ['signature not hex', `${OP.slice(0, -1)},"signature":"${'zz'.repeat(64)}"}`],
  ['signature is a number', `${OP.slice(0, -1)},"signature":12}`],
  ['empty body', ''],
  ['whitespace body', ' \r\n\t '],
  ['not JSON', 'status=success&signature=abc'],
  ['truncated JSON', valid.slice(0, 40)],
  ['a JSON array', '[1,2,3]'],
  ['a JSON string', '"hello"'],
  ['signed but no operation_data', signed('{"hello":"world"}')],
  ['signed but status_code is text', signed('{"operation_data":{"status":"pending","status_code":"2","operation_info":{"id":"op-1"}}}')],
  ['signed but operation_info.id missing', signed('{"operation_data":{"status":"pending","status_code":2,"operation_info":{}}}')],
  ['signed but a negative amount', signed('{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"x","from":{"amount":-5}}}}')],
  ['signed, fractional amount', signed('{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"x","to":{"amount":1.5}}}}')],
  [
    'signed, payment_method_info as []',
    signed('{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"x","from":{"payment_method_info":[]}}}}'),
  ],
  [
    'nested too deep',
    signed(
      `{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"x"}},"deep":${'['.repeat(300)}${']'.repeat(300)}}`.replace(
        /\[{300}\]{300}/,
        '1',
      ),
    ).replace('"deep":1', `"deep":${'['.repeat(300)}${']'.repeat(300)}`),
  ],
];

export function callbacksSuite(version: string): void {
  describe(`PHP ${version}: callback verification`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test(`${BODIES.length} bodies: same outcome and HTTP answer as core`, async () => {
      const results = await php.runJson<unknown[]>('callbacks.php', { 'bodies.json': JSON.stringify({ secret: SECRET, bodies: BODIES.map(([, b]) => b) }) });
      const failures: string[] = [];
      BODIES.forEach(([name, body], i) => {
        const core = verifyCallback(body, SECRET);
        const coreAnswer = callbackResponse(core);
        const r = results[i] as { ok: boolean; reason: string | null; field: string | null; message: string; response: { status: number; body: string } };
        const coreReason = core.ok ? null : core.reason;
        if (r.ok !== core.ok || r.reason !== coreReason || r.response.status !== coreAnswer.status) {
          failures.push(
            `${name}: core ${core.ok ? 'ok' : core.reason} (${coreAnswer.status}), PHP ${r.ok ? 'ok' : r.reason} (${r.response.status}): ${r.message}`,
          );
        }
        if (!core.ok && core.reason === 'invalid' && r.field !== core.field) {
          failures.push(`${name}: field core ${core.field}, PHP ${r.field}`);
        }
        if (coreAnswer.status !== 400 && r.response.body !== coreAnswer.body) {
          failures.push(`${name}: answer body core ${coreAnswer.body}, PHP ${r.response.body}`);
        }
      });
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    test(`the ${AMBIGUITY.cases.length} ambiguity vectors, signed: refused as "ambiguous" naming the member core names, or passed on`, async () => {
      // Each body signed as it stands (a signature it carries is replaced).
      const bodies = AMBIGUITY.cases.map((vector) => signed(vector.body_json.replace(/,"signature":"[0-9a-f]*"/, '')));
      const results = await php.runJson<
        Array<{ ok: boolean; reason: string | null; field: string | null; message: string; response: { status: number; body: string } }>
      >('callbacks.php', { 'bodies.json': JSON.stringify({ secret: SECRET, bodies }) });
      AMBIGUITY.cases.forEach((vector, i) => {
        const r = results[i]!;
        const core = verifyCallback(bodies[i]!, SECRET);
        assert.equal(r.reason, core.ok ? null : core.reason, `${vector.name}: the outcome core gives`);
        if (vector.field === null) {
          assert.notEqual(r.reason, 'ambiguous', `${vector.name}: ${r.message}`);
          return;
        }
        assert.equal(r.reason, 'ambiguous', vector.name);
        assert.equal(r.field, vector.field, vector.name);
        assert.equal(r.field, core.ok ? undefined : core.field, `${vector.name}: the member core names`);
        assert.match(r.message, vector.kind === 'name' ? /member name/ : /value contains/, vector.name);
        assert.equal(r.response.status, 400, vector.name);
        assert.ok(r.response.body.startsWith(`Callback could not be processed: ${vector.field}: `), r.response.body);
      });
      // The genuine pending callback with the crafted card holder: a signature that checks, and still refused.
      assert.equal(results.filter((r) => r.reason === 'signature').length, 0);
    });

    test('a verified callback hands over a typed operation', async () => {
      const [r] = await php.runJson<Record<string, unknown>[]>('callbacks.php', { 'bodies.json': JSON.stringify({ secret: SECRET, bodies: [valid] }) });
      assert.deepEqual(
        { ok: r!.ok, status: r!.status, code: r!.code, id: r!.id, partner: r!.partner, amount: r!.amount, response: r!.response },
        {
          ok: true,
          status: 'pending',
          code: 2,
          id: 'op-1',
          partner: 'order-9',
          amount: 10050,
          response: { status: 200, content_type: 'text/plain; charset=utf-8', body: 'OK' },
        },
      );
    });

    test('amounts are exact at any size: an int when it fits, else its digits', async () => {
      const body = signed(
        '{"operation_data":{"status":"success","status_code":6,"operation_info":{"id":"big","from":{"amount":1500000000000000000000},"to":{"amount":1.5e18}}}}',
      );
      const [r] = await php.runJson<Record<string, unknown>[]>('callbacks.php', { 'bodies.json': JSON.stringify({ secret: SECRET, bodies: [body] }) });
      assert.equal(r!.ok, true, String(r!.message));
      assert.equal(r!.amount, '1500000000000000000000');
      const [fractional] = await php.runJson<Record<string, unknown>[]>('callbacks.php', {
        'bodies.json': JSON.stringify({
          secret: SECRET,
          bodies: [signed('{"operation_data":{"status":"success","status_code":6,"operation_info":{"id":"x","from":{"amount":1.5e-3}}}}')],
        }),
      });
      assert.equal(fractional!.reason, 'invalid');
      assert.equal(fractional!.field, 'operation_data.operation_info.from.amount');
    });

    test("an empty secret is a configuration error, not the sender's fault", async () => {
      const results = await php.runJson<unknown[]>('callbacks.php', { 'bodies.json': JSON.stringify({ secret: SECRET, bodies: [] }) });
      assert.match(String(results[0]), /needs the partner secret/);
    });
  });
}
