/**
 * DNS rebinding: the dashboard answers only requests addressed to the sandbox
 * itself. Real HTTP requests with chosen Host and Origin headers (fetch cannot
 * set Host, so node:http is used).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { dashboardHosts } from '../src/dashboard.js';
import { createOperation, PARTNER, startTestSandbox, type TestSandbox } from './helpers.js';

interface Answer {
  status: number;
  text: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('dashboard: Host and Origin', () => {
  let sandbox: TestSandbox;
  let port: number;
  let opId: string;

  before(async () => {
    sandbox = await startTestSandbox({ stepDelayMs: 60_000 });
    port = sandbox.port;
    opId = createOperation(sandbox, { pay: false, partnerOperationId: 'host-1' }).id;
  });
  after(async () => {
    await sandbox?.dispose();
  });

  const routes = (): Array<[string, string, string | undefined]> => [
    ['GET', '/dashboard', undefined],
    ['GET', '/dashboard/', undefined],
    ['GET', '/dashboard/api/state', undefined],
    ['GET', '/dashboard/api/state?limit=200', undefined],
    ['POST', `/dashboard/api/operations/${encodeURIComponent(opId)}/move`, JSON.stringify({ status_code: 106 })],
    ['POST', `/dashboard/api/partners/${PARTNER.token}/block`, JSON.stringify({ blocked: true })],
    ['POST', '/dashboard/api/callbacks/1/resend', '{}'],
  ];
  const actionHeaders = { 'content-type': 'application/json', 'x-card2crypto-dashboard': '1' };

  it('refuses every route with a foreign Host (421), leaving no data in the answer and changing nothing', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost:${port + 1}`, `127.0.0.1`, '']) {
      for (const [method, path, body] of routes()) {
        const headers: Record<string, string> = { ...(body !== undefined ? actionHeaders : {}) };
        if (host !== '') {
          headers.host = host;
        }
        const answer = await send(port, method, path, headers, body);
        // Node's HTTP parser itself answers 400 to an HTTP/1.1 request without Host.
        assert.equal(answer.status, host === '' ? 400 : 421, `${method} ${path} with Host ${JSON.stringify(host)}`);
        assert.doesNotMatch(answer.text, /buyer@example\.com|host-1|partner-one/, `${method} ${path} leaks nothing`);
      }
    }
    assert.equal(sandbox.context.partners.get(PARTNER.token)?.blocked, false, 'the block action was not taken');
    assert.equal(sandbox.context.operations.get(opId)?.statusCode, 1, 'the move action was not taken');
  });

  it('refuses every route with a foreign Origin (403), even with the right Host', async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, `https://127.0.0.1:${port}`, `http://localhost:${port}`, 'null']) {
      for (const [method, path, body] of routes()) {
        const answer = await send(port, method, path, { host, origin, ...(body !== undefined ? actionHeaders : {}) }, body);
        assert.equal(answer.status, 403, `${method} ${path} with Origin ${origin}`);
        assert.doesNotMatch(answer.text, /buyer@example\.com|host-1/);
      }
    }
    assert.equal(sandbox.context.partners.get(PARTNER.token)?.blocked, false);
  });

  it('answers the sandbox address and the loopback names with its port, with or without a same-origin Origin', async () => {
    assert.deepEqual([...dashboardHosts(sandbox.urls.base_url)].sort(), [`127.0.0.1:${port}`, `[::1]:${port}`, `localhost:${port}`].sort());
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const page = await send(port, 'GET', '/dashboard', { host });
      assert.equal(page.status, 200, host);
      assert.match(page.text, /Sandbox dashboard/);
      const state = await send(port, 'GET', '/dashboard/api/state', { host, origin: `http://${host.toLowerCase()}` });
      assert.equal(state.status, 200, host);
      assert.ok((JSON.parse(state.text) as { operations: Array<{ id: string }> }).operations.some((op) => op.id === opId));
    }
    const host = `localhost:${port}`;
    const blocked = await send(
      port,
      'POST',
      `/dashboard/api/partners/${PARTNER.token}/block`,
      { host, origin: `http://${host}`, ...actionHeaders },
      JSON.stringify({ blocked: true }),
    );
    assert.equal(blocked.status, 200, blocked.text);
    assert.equal(sandbox.context.partners.get(PARTNER.token)?.blocked, true);
    const unblocked = await send(
      port,
      'POST',
      `/dashboard/api/partners/${PARTNER.token}/block`,
      { host, ...actionHeaders },
      JSON.stringify({ blocked: false }),
    );
    assert.equal(unblocked.status, 200, unblocked.text);
    assert.equal(sandbox.context.partners.get(PARTNER.token)?.blocked, false);
  });
});
