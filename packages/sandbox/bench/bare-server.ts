/**
 * The baseline of the throughput benchmark: a bare Node HTTP server that reads
 * the request body and answers a fixed JSON body, nothing else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportCpuOnRequest } from './report-cpu.js';

const body = JSON.stringify({ service_fee: 0.01, signature: 'f'.repeat(128) });
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`base_url: http://127.0.0.1:${(server.address() as AddressInfo).port}\nready\n`);
});
reportCpuOnRequest();
process.on('SIGTERM', () => process.exit(0));
