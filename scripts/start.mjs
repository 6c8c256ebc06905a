#!/usr/bin/env node
// `npm start`: a local store in one command. WordPress (the native runtime,
// PHP-FPM, nginx and MariaDB, when `npm run setup:native` installed it, else
// Playground, needing nothing but Node; CARD2CRYPTO_RUNTIME chooses) with both
// plugins mounted from source and active, WooCommerce, the sandbox with a
// partner whose callbacks go to the store, sample products in EUR and the
// widget block in the sidebar. WordPress and WooCommerce come from the cache,
// else from wordpress.org (verified, then cached), else, offline, as the
// banner says. Ctrl-C stops everything.
import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { ROOT } from './lib/paths.mjs';
import { oldNodeLine } from './lib/node-version.mjs';
import { chooseRuntime } from './lib/runtime.mjs';
import { startStore } from './lib/store.mjs';

const USAGE = `Usage: npm start [-- --reset] [-- --offline] [-- --port N] [-- --sandbox-port N] [-- --host ADDRESS]

  --reset            start from an empty site (deletes the site's folder under .card2crypto/)
  --offline          do not ask wordpress.org: the cache, else the npm nightly (CARD2CRYPTO_OFFLINE=1 too)
  --port N           WordPress port (default 9400, or the next free one)
  --sandbox-port N   sandbox port (default 8787, or the next free one)
  --host ADDRESS     interface WordPress and the sandbox listen on (default 127.0.0.1;
                     0.0.0.0 exposes the store, whose admin password is "password", to your network)

Environment: CARD2CRYPTO_RUNTIME=native|playground (default: native when npm run setup:native
installed it, else playground), WORDPRESS_DIR=/path/to/wordpress, WP_VERSION=6.6 (the newest
6.6.x: the cache, else wordpress.org; latest asks wordpress.org), WOOCOMMERCE_DIR=/path/to/woocommerce,
WC_VERSION=9.8 (likewise), CARD2CRYPTO_CACHE_DIR (default ~/.cache/card2crypto).`;

function parse() {
  try {
    const { values } = parseArgs({
      options: {
        reset: { type: 'boolean', default: false },
        offline: { type: 'boolean', default: false },
        port: { type: 'string', default: '9400' },
        'sandbox-port': { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const port = Number(values.port);
    const sandboxPort = Number(values['sandbox-port']);
    for (const [name, value] of [
      ['--port', port],
      ['--sandbox-port', sandboxPort],
    ]) {
      if (!Number.isInteger(value) || value < 1 || value > 65535) {
        throw new Error(`${name} must be a port number (1-65535)`);
      }
    }
    if (!/^(\d{1,3}\.){3}\d{1,3}$|^localhost$/.test(values.host)) {
      throw new Error(`--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0`);
    }
    if (values.offline) {
      process.env.CARD2CRYPTO_OFFLINE = '1';
    }
    return { ...values, port, sandboxPort, runtime: chooseRuntime({ preferred: 'auto' }) };
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
}

// An older Node stops here, before anything is read, built or started: a store
// served by it may fail mid-payment (npm start runs check-node.mjs --refuse first too).
const oldNode = oldNodeLine();
if (oldNode) {
  console.error(oldNode);
  process.exit(1);
}
const options = parse();
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const started = Date.now();
console.log(
  `Starting the card2crypto local store on ${options.runtime.runtime === 'native' ? 'the native runtime' : 'WordPress Playground'} (the first start takes ${options.runtime.runtime === 'native' ? 'a few seconds' : 'a minute'})...`,
);
let store;
try {
  store = await startStore({
    name: 'store',
    runtime: options.runtime.runtime,
    reset: options.reset,
    port: options.port,
    sandboxPort: options.sandboxPort,
    host: options.host,
    mountPlugins: true,
    what: 'npm start',
    log: (line) => console.log(line),
  });
} catch (error) {
  console.error(`\nCould not start the store: ${error.message}`);
  process.exit(1);
}

/** The reason and the remedy, indented (the message's headline is already said). */
function whyNoWooCommerce(message) {
  const lines = message.split('\n');
  return (lines.length > 1 ? lines.slice(1) : lines).map((line) => `    ${line.trim()}`).join('\n');
}

/** Why this runtime, and how to choose the other. */
function runtimeChoice({ runtime }) {
  if (process.env.CARD2CRYPTO_RUNTIME) {
    return `(CARD2CRYPTO_RUNTIME=${process.env.CARD2CRYPTO_RUNTIME}; unset, npm start takes native when installed)`;
  }
  return runtime === 'native'
    ? '(native: installed by npm run setup:native; CARD2CRYPTO_RUNTIME=playground npm start for Playground)'
    : '(Playground: the native runtime is not installed; npm run setup:native installs the faster one)';
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
const wc = store.woocommerce;
const lines = ['', `card2crypto local store is running (started in ${seconds} s)`, '', `  Store      ${store.storeUrl}/`];
if (wc) {
  lines.push(`  Checkout   ${wc.pages?.checkout ?? `${store.storeUrl}/checkout/`}   (the block checkout)`);
  if (wc.pages?.classic_checkout) {
    lines.push(`             ${wc.pages.classic_checkout}   (the classic, shortcode checkout)`);
  }
}
lines.push(
  `  Admin      ${store.adminUrl}   user: ${store.admin.username}  password: ${store.admin.password}`,
  store.sandbox ? `  Sandbox    ${store.sandbox.dashboardUrl}   (API ${store.sandbox.url})` : '  Sandbox    not running (see above)',
  '',
  `  Runtime    ${store.runtime.name}: PHP ${store.runtime.php}, ${store.runtime.database}, ${store.runtime.webServer}`,
  `             ${runtimeChoice(options.runtime)}`,
  `  WordPress  ${store.wordpress.version}  (${store.wordpress.source})`,
  ...(store.wordpress.notice ? [`    ${store.wordpress.notice}`] : []),
  wc
    ? `  WooCommerce ${wc.version}  (${wc.source}: ${wc.dir})${wc.notice ? `\n    ${wc.notice}` : ''}`
    : `  WooCommerce *** NONE: the store runs without WooCommerce, so without the checkout ***\n${whyNoWooCommerce(store.woocommerceMessage)}`,
  `  Partner    token ${store.partner.token}; callbacks to ${store.partner.callbackUrl}`,
  `  Plugins    ${store.seed.activePlugins.join(', ') || 'none active'}`,
);
if (options.host !== '127.0.0.1' && options.host !== 'localhost') {
  lines.push('', `  *** Listening on ${options.host}: anyone on your network can reach this store and log in as admin/password. ***`);
}
if (store.seed.errors.length) {
  lines.push('', '  Problems while seeding:', ...store.seed.errors.map((e) => `    ${e}`));
}
lines.push(
  '',
  `  Site files and logs in ${relative(ROOT, store.dirs.stateDir)}/ (kept between runs; npm start -- --reset starts clean)`,
  '',
  'Press Ctrl-C to stop.',
);
console.log(lines.join('\n'));

let stopping = false;
async function shutdown(code) {
  if (stopping) {
    return;
  }
  stopping = true;
  console.log('\nStopping WordPress and the sandbox...');
  await store.stop();
  console.log('Stopped.');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
process.on('SIGHUP', () => shutdown(0));
store.unexpectedExit.then(({ name, code, signal }) => {
  if (stopping) {
    return;
  }
  console.error(`\n${name} stopped unexpectedly (code ${code}, signal ${signal}); see ${relative(ROOT, store.dirs.logDir)}/.`);
  shutdown(1);
});
