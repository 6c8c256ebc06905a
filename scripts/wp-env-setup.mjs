#!/usr/bin/env node
// After `npx wp-env start` (Docker): the same seed as `npm start` (plugins
// active, EUR store, sample products, widget in the sidebar, plugin settings
// pointing at the sandbox), run through wp-cli in the wp-env container. Then
// it prints the command that starts the sandbox beside it.
//
// Addresses: PHP in the container reaches the sandbox on the host through
// SANDBOX_HOST_FROM_WP (default host.docker.internal; on Linux use the Docker
// bridge address, usually 172.17.0.1), the browser through 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { STATE_DIR } from './lib/paths.mjs';
import { CALLBACK_ROUTE, partnerCredentials, writeSeed } from './lib/seed.mjs';

const port = Number(process.env.SANDBOX_PORT || 8787);
const hostFromWp = process.env.SANDBOX_HOST_FROM_WP || 'host.docker.internal';
const storeUrl = (process.env.WP_ENV_URL || `http://localhost:${process.env.WP_ENV_PORT || 8888}`).replace(/\/+$/, '');
const harnessDir = join(STATE_DIR, 'wp-env', 'harness');

const partner = await partnerCredentials(harnessDir);
const browserBase = `http://127.0.0.1:${port}`;
const sandbox = {
  url: browserBase,
  urls: { 'base url': `http://${hostFromWp}:${port}`, 'widget script url': `${browserBase}/widget.js`, 'landing url': `${browserBase}/landing` },
};
await writeSeed({ harnessDir, woocommerce: true, mountPlugins: true, partner, sandbox });

const wpCli = (...args) => {
  const result = spawnSync('npx', ['wp-env', 'run', 'cli', 'wp', ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`wp ${args.join(' ')} failed`);
  }
};
wpCli('eval-file', 'wp-content/card2crypto-scripts/seed.php', '/var/www/html/wp-content/card2crypto-harness');

console.log(`
WordPress (wp-env): ${storeUrl}/  admin: admin / password
Start the sandbox beside it (another terminal):

  node packages/sandbox/bin/card2crypto-sandbox.js --host 0.0.0.0 --port ${port} \\
    --partner ${partner.token}:${partner.secret}:${storeUrl}${CALLBACK_ROUTE}
`);
