#!/usr/bin/env node
// A local stand-in for wordpress.org (scripts/lib/fake-wporg.mjs), serving
// the WordPress and WooCommerce releases of a cache folder: to try what a
// newcomer's `npm start` does with an empty cache on a machine without
// internet. It prints the environment that points the harness at it.
//
//   node scripts/fake-wporg.mjs [--from ~/.cache/card2crypto] [--port 8950]
//   CARD2CRYPTO_CACHE_DIR=$(mktemp -d) CARD2CRYPTO_WPORG_API_URL=... CARD2CRYPTO_WPORG_DOWNLOADS_URL=... npm start
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { releasesIn, startFakeWordPressOrg } from './lib/fake-wporg.mjs';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'card2crypto') },
    port: { type: 'string', default: '8950' },
  },
});
const releases = await releasesIn(resolve(values.from));
if (!releases.wordpress.length && !releases.woocommerce.length) {
  console.error(`No WordPress or WooCommerce release in ${values.from} (wordpress/<version>/, woocommerce/<version>/).`);
  process.exit(1);
}
console.log(
  `Zipping ${[...releases.wordpress.map((r) => `WordPress ${r.version}`), ...releases.woocommerce.map((r) => `WooCommerce ${r.version}`)].join(', ')}...`,
);
const fake = await startFakeWordPressOrg({ ...releases, port: Number(values.port) });
console.log(`A fake wordpress.org is serving them at ${fake.url}. Point the harness at it with:\n`);
for (const [name, value] of Object.entries(fake.env())) {
  console.log(`  export ${name}=${value}`);
}
console.log('\nCtrl-C stops it.');
const stop = () => fake.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {
  for (const request of fake.requests.splice(0)) {
    console.log(`GET ${request}`);
  }
}, 500);
