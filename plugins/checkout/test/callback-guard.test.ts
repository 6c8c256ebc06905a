/**
 * Callback_Guard on the oldest and newest supported PHP: the forged-success
 * attack on the canonical string (a captured "pending" callback whose card
 * holder name carries ";"-separated lines verifies as a "success" of another
 * order), the precise rule that refuses it and accepts everything the service
 * really sends, the 64 KB size rule and the per-address refusal budget.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PluginPhp, REPO_DIR, TEST_PHP_VERSIONS } from './support/php.js';

/** The same ambiguity vectors core checks (packages/core/vectors/callback-ambiguity.json). */
const AMBIGUITY = JSON.parse(readFileSync(path.join(REPO_DIR, 'packages/core/vectors/callback-ambiguity.json'), 'utf8')) as {
  cases: Array<{ name: string; body_json: string; field: string | null; kind: 'name' | 'value' | null }>;
};

const HOLDER_LINES = [
  'operation_data:operation_info:id:op-B',
  'operation_data:partner_info:operation_id:wc-B',
  'operation_data:status:success',
  'operation_data:status_code:6',
  'operation_data:zz:',
];
/** What the service signs: the attacker's own pending operation, with a crafted card holder name. */
const GENUINE = {
  operation_data: {
    operation_info: { from: { payment_method_info: { card_holder: `x;${HOLDER_LINES.join(';')}` } }, id: 'op-A' },
    partner_info: { operation_id: 'wc-A' },
    status: 'pending',
    status_code: 2,
  },
};
/** What the attacker sends with the genuine signature: a success for another order. */
const FORGED = {
  operation_data: {
    operation_info: { from: { payment_method_info: { card_holder: 'x' } }, id: 'op-B' },
    partner_info: { operation_id: 'wc-B' },
    status: 'success',
    status_code: 6,
    zz: ';operation_data:operation_info:id:op-A;operation_data:partner_info:operation_id:wc-A;operation_data:status:pending;operation_data:status_code:2',
  },
};

/** A callback as the service sends one: URLs, dates and names with ":" in values, nothing else odd. */
const ORDINARY = {
  operation_data: {
    status: 'success',
    status_code: 6,
    operation_info: {
      id: 'op-1',
      created_at: '2026-11-23T20:00:00.000Z',
      status_url: 'https://status.example/op-1',
      from: { amount: 7900, currency: { code: 'EUR', decimals: 2 }, payment_method_info: { card_holder: 'Smith; Jr', number: '4111 **** 1111' } },
      to: {
        amount: 12345,
        currency: { code: 'BTC', decimals: 8 },
        withdrawal_method_info: { blockchain_address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', blockchain_explorer_url: 'https://mempool.space/tx/ab' },
      },
    },
    partner_info: { operation_id: 'wc-7-aaaa' },
  },
  signature: 'ab'.repeat(64),
};

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Callback_Guard`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const ambiguity = (body: unknown) => php.one<{ field: string; message: string } | null>('ambiguity', JSON.stringify(body));

    test('the attack: a genuine pending body and a forged success share one canonical string, and both are refused', async () => {
      const [genuine, forged] = await php.call([
        ['canonical', JSON.stringify(GENUINE)],
        ['canonical', JSON.stringify(FORGED)],
      ]);
      assert.equal(forged!.value, genuine!.value, 'the forged body signs like the genuine one');
      assert.equal((await ambiguity(GENUINE))?.field, 'operation_data.operation_info.from.payment_method_info.card_holder');
      assert.equal((await ambiguity(FORGED))?.field, 'operation_data.zz');
    });

    test('member names with ":" (a nested path in disguise) or ";" are refused', async () => {
      const [flat, nested] = await php.call([
        ['canonical', JSON.stringify({ 'operation_data:status': 'success' })],
        ['canonical', JSON.stringify({ operation_data: { status: 'success' } })],
      ]);
      assert.equal(flat!.value, nested!.value);
      assert.equal((await ambiguity({ 'operation_data:status': 'success' }))?.field, 'operation_data:status');
      assert.equal((await ambiguity({ operation_data: { 'a;b': 1 } }))?.field, 'operation_data.a;b');
      assert.match((await ambiguity({ operation_data: { 'a;b': 1 } }))!.message, /member name/);
    });

    test('what the service sends passes: ":" in values, ";" with no ":" after it, numbers and arrays', async () => {
      assert.equal(await ambiguity(ORDINARY), null);
      assert.equal(await ambiguity({ a: 'x;y;z', b: ['p:q', 'r'], c: 'https://h:8443/p?q=1', d: 'a:b;c' }), null);
      assert.equal((await ambiguity({ d: 'a:b;c:d' }))?.field, 'd');
      assert.equal((await ambiguity({ list: ['ok', 'no;pe:x'] }))?.field, 'list.1');
    });

    test('the shared ambiguity vectors: the member refused is the one core refuses, or the body passes', async () => {
      for (const vector of AMBIGUITY.cases) {
        const problem = await php.one<{ field: string; message: string } | null>('ambiguity', vector.body_json);
        assert.equal(problem?.field ?? null, vector.field, vector.name);
        if (vector.kind !== null) {
          assert.match(problem!.message, vector.kind === 'name' ? /member name/ : /value contains/, vector.name);
        }
      }
    });

    test('bodies over 64 KB are refused by their declared length or by what was read', async () => {
      const cases: Array<[string | null, number | null, boolean]> = [
        ['65536', null, false],
        ['65537', null, true],
        [' 1048576 ', null, true],
        ['99999999999999999999999', null, true],
        ['000000000000065536', null, false],
        ['abc', null, false],
        [null, 65536, false],
        [null, 65537, true],
        ['100', 65537, true],
        [null, null, false],
      ];
      const got = await php.call(cases.map(([length, read]) => ['too_large', length, read]));
      assert.deepEqual(
        got.map((r) => r.value),
        cases.map(([, , expect]) => expect),
      );
    });

    test('only bodies the secret does not vouch for count toward the budget, and never from an allowlisted address', async () => {
      const cases: Array<[string, boolean, boolean]> = [
        ['unverified', false, true],
        ['signed', false, false],
        ['unverified', true, false],
        ['signed', true, false],
      ];
      const got = await php.call(cases.map(([refusal, allowlisted]) => ['counts', refusal, allowlisted]));
      assert.deepEqual(
        got.map((r) => r.value),
        cases.map(([, , counts]) => counts),
      );
    });

    test('the callback route is matched as the REST server matches it: any case, trailing slashes, a final newline', async () => {
      const route = '/card2crypto/v1/callback';
      const cases: Array<[string, boolean]> = [
        [route, true],
        [`${route}/`, true],
        ['/Card2Crypto/V1/Callback', true],
        // The attack: "$" in the REST server's pattern matches before a final newline, so this reaches the handler.
        [`${route}\n`, true],
        [`${route}/\n`, false],
        [`${route}\n\n`, false],
        [`${route}x`, false],
        [`${route}\r`, false],
        [`/x${route}`, false],
        ['/card2crypto/v1/callbacks', false],
      ];
      const got = await php.call(cases.map(([routePath]) => ['is_route', routePath, route]));
      assert.deepEqual(
        got.map((r) => r.value),
        cases.map(([, matches]) => matches),
      );
    });

    test('the caller is the connection, or the last entry of one of the forwarding headers proxies set; any other header is ignored', async () => {
      const remote = { REMOTE_ADDR: '198.51.100.7' };
      const cases: Array<[string, Record<string, string>, string]> = [
        ['', { ...remote, HTTP_X_FORWARDED_FOR: '203.0.113.1' }, '198.51.100.7'],
        ['X-Forwarded-For', { ...remote, HTTP_X_FORWARDED_FOR: '6.6.6.6, 203.0.113.1' }, '203.0.113.1'],
        ['X-Forwarded-For', remote, '198.51.100.7'],
        ['X-Real-IP', { ...remote, HTTP_X_REAL_IP: '203.0.113.2' }, '203.0.113.2'],
        ['CF-Connecting-IP', { ...remote, HTTP_CF_CONNECTING_IP: '2001:db8::1' }, '2001:db8::1'],
        ['True-Client-IP', { ...remote, HTTP_TRUE_CLIENT_IP: '203.0.113.3' }, '203.0.113.3'],
        ['Forwarded', { ...remote, HTTP_FORWARDED: 'for=6.6.6.6, for=192.0.2.60;proto=https;by=203.0.113.43' }, '192.0.2.60'],
        ['Forwarded', { ...remote, HTTP_FORWARDED: 'for="[2001:db8:cafe::17]:4711"' }, '2001:db8:cafe::17'],
        ['Forwarded', { ...remote, HTTP_FORWARDED: 'for="192.0.2.61:4711"' }, '192.0.2.61'],
        ['Forwarded', { ...remote, HTTP_FORWARDED: 'proto=https' }, '198.51.100.7'],
        // The attack: a header the caller writes itself, saved before the list existed, is not trusted.
        ['Remote-Addr', { ...remote, HTTP_REMOTE_ADDR: '203.0.113.10' }, '198.51.100.7'],
        ['REMOTE_ADDR', { ...remote, HTTP_REMOTE_ADDR: '203.0.113.10' }, '198.51.100.7'],
        ['Host', { ...remote, HTTP_HOST: '203.0.113.10' }, '198.51.100.7'],
      ];
      const got = await php.call(cases.map(([header, server]) => ['client_ip', header, server]));
      assert.deepEqual(
        got.map((r) => r.value),
        cases.map(([, , ip]) => ip),
      );
    });

    test('a proxy header saved in another case reads as the listed one; any other value is left for the settings rule', async () => {
      const cases: Array<[string, string]> = [
        ['x-forwarded-for', 'X-Forwarded-For'],
        [' CF-CONNECTING-IP ', 'CF-Connecting-IP'],
        ['X-Real-IP', 'X-Real-IP'],
        ['Host', 'Host'],
        ['', ''],
      ];
      const got = await php.call(cases.map(([stored]) => ['canonical_settings', { trust_proxy_header: stored, title: 'Card' }]));
      assert.deepEqual(
        got.map((r) => (r.value as { trust_proxy_header: string }).trust_proxy_header),
        cases.map(([, read]) => read),
      );
    });

    test('an address is over the budget after 20 refusals within 60 s, and free again after the window', async () => {
      const times = [...Array.from({ length: 21 }, (_, i) => 1000 + i), 1061, 1062];
      const over = await php.one<boolean[]>('failures', times);
      assert.deepEqual(over.slice(0, 19), Array(19).fill(false));
      assert.equal(over[19], true, '20th refusal');
      assert.equal(over[20], true);
      assert.deepEqual(over.slice(21), [false, false], 'a new window starts 60 s after the first refusal');
    });
  });
}
