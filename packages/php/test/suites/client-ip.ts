/**
 * The one client-address rule both plugins read a caller's IP by
 * (Client\Client_Ip, which each plugin carries under its own namespace): the
 * connection's address, or the last entry of the forwarding header the owner
 * trusts, and only of the headers proxies set (core's PROXY_ADDRESS_HEADERS).
 * The checkout's callback allowlist and visitor budgets and the widget's route
 * limit all call it; these are its vectors.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PROXY_ADDRESS_HEADERS } from '@card2crypto/core';
import { PhpSandbox } from '../support/php.js';

const REMOTE = { REMOTE_ADDR: '198.51.100.7' };

/** [trusted header, $_SERVER, the caller's address]. */
const CASES: Array<[string, Record<string, string>, string]> = [
  ['', { ...REMOTE, HTTP_X_FORWARDED_FOR: '203.0.113.1' }, '198.51.100.7'],
  ['', { REMOTE_ADDR: ' 198.51.100.8 ' }, '198.51.100.8'],
  ['', {}, ''],
  ['X-Forwarded-For', { ...REMOTE, HTTP_X_FORWARDED_FOR: '6.6.6.6, 203.0.113.1' }, '203.0.113.1'],
  ['X-Forwarded-For', { ...REMOTE, HTTP_X_FORWARDED_FOR: ' , ' }, '198.51.100.7'],
  ['X-Forwarded-For', REMOTE, '198.51.100.7'],
  ['X-Real-IP', { ...REMOTE, HTTP_X_REAL_IP: '203.0.113.2' }, '203.0.113.2'],
  ['CF-Connecting-IP', { ...REMOTE, HTTP_CF_CONNECTING_IP: '2001:db8::1' }, '2001:db8::1'],
  ['True-Client-IP', { ...REMOTE, HTTP_TRUE_CLIENT_IP: '203.0.113.3' }, '203.0.113.3'],
  ['Forwarded', { ...REMOTE, HTTP_FORWARDED: 'for=6.6.6.6, for=192.0.2.60;proto=https;by=203.0.113.43' }, '192.0.2.60'],
  ['Forwarded', { ...REMOTE, HTTP_FORWARDED: 'for="[2001:db8:cafe::17]:4711"' }, '2001:db8:cafe::17'],
  ['Forwarded', { ...REMOTE, HTTP_FORWARDED: 'for="192.0.2.61:4711"' }, '192.0.2.61'],
  ['Forwarded', { ...REMOTE, HTTP_FORWARDED: 'proto=https' }, '198.51.100.7'],
  // A header the caller writes itself, or one in another case, is never trusted.
  ['Remote-Addr', { ...REMOTE, HTTP_REMOTE_ADDR: '203.0.113.10' }, '198.51.100.7'],
  ['REMOTE_ADDR', { ...REMOTE, HTTP_REMOTE_ADDR: '203.0.113.10' }, '198.51.100.7'],
  ['Host', { ...REMOTE, HTTP_HOST: '203.0.113.10' }, '198.51.100.7'],
  ['x-forwarded-for', { ...REMOTE, HTTP_X_FORWARDED_FOR: '203.0.113.11' }, '198.51.100.7'],
];

export function clientIpSuite(version: string): void {
  describe(`PHP ${version}: Client_Ip`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test('the caller is the connection, or the last entry of the one forwarding header trusted', async () => {
      const got = await php.call(CASES.map(([header, server]) => ['client_ip', header, server]));
      assert.deepEqual(
        got.map((r) => r.value ?? r.error),
        CASES.map(([, , ip]) => ip),
      );
    });

    test("the headers it may trust are core's list", async () => {
      assert.deepEqual(await php.one('proxy_headers'), [...PROXY_ADDRESS_HEADERS]);
    });

    test('a forwarding header arriving says which one', async () => {
      const cases: Array<[Record<string, string>, string | null]> = [
        [{ REMOTE_ADDR: '10.0.0.5' }, null],
        [{ HTTP_X_FORWARDED_FOR: '203.0.113.9' }, 'X-Forwarded-For'],
        [{ HTTP_FORWARDED: 'for=203.0.113.9' }, 'Forwarded'],
        [{ HTTP_X_REAL_IP: '203.0.113.9' }, 'X-Real-IP'],
        [{ HTTP_X_FORWARDED_FOR: '  ' }, null],
      ];
      const got = await php.call(cases.map(([server]) => ['forwarding_header', server]));
      assert.deepEqual(
        got.map((r) => r.value),
        cases.map(([, name]) => name),
      );
    });
  });
}
