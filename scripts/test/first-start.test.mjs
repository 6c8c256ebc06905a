// A newcomer's first `npm start` (scripts/start.mjs, after the build), with
// an empty cache and a local fake of wordpress.org serving the real releases
// of this machine's cache: it downloads, verifies and boots the newest pair
// on the native runtime, and a buyer can pay an order by card (the Store
// API's checkout sends them to the sandbox). (That a second start takes both
// from the cache without the network: wporg.test.mjs.) Needs the native
// runtime and the real releases (CI has both); skipped, with the reason,
// elsewhere.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startFakeWordPressOrg } from '../lib/fake-wporg.mjs';
import { detectNative } from '../lib/native/detect.mjs';

const START = fileURLToPath(new URL('../start.mjs', import.meta.url));
const realCache = process.env.CARD2CRYPTO_REAL_CACHE ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'card2crypto');
const real = { wordpress: join(realCache, 'wordpress', '7.1'), woocommerce: join(realCache, 'woocommerce', '11.0.1') };
const haveReal = existsSync(join(real.wordpress, 'wp-includes', 'version.php')) && existsSync(join(real.woocommerce, 'woocommerce.php'));
const native = detectNative().available;
const skip = (!haveReal && `the real releases are not in ${realCache}`) || (!native && 'the native runtime is not installed (npm run setup:native)');

let work;
let fake;
before(async () => {
  if (skip) {
    return;
  }
  work = await mkdtemp(join(tmpdir(), 'c2c-first-start-'));
  fake = await startFakeWordPressOrg({
    wordpress: [{ version: '7.1', dir: real.wordpress }],
    woocommerce: [{ version: '11.0.1', dir: real.woocommerce }],
    level: 0,
  });
});
after(async () => {
  await fake?.stop();
  if (work) {
    await rm(work, { recursive: true, force: true });
  }
});

/**
 * `node scripts/start.mjs --reset` (native: the default where installed), its state and cache under the test's folder;
 * resolves once the banner is printed (or the process ends).
 */
async function startStore(env) {
  const child = spawn(process.execPath, [START, '--reset', '--port', '9700', '--sandbox-port', '9750'], {
    env: {
      ...process.env,
      CARD2CRYPTO_OFFLINE: '',
      CARD2CRYPTO_RUNTIME: '',
      CARD2CRYPTO_STATE_DIR: join(work, 'state'),
      CARD2CRYPTO_CACHE_DIR: join(work, 'cache'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise((resolveStart) => {
    const take = (chunk) => {
      out += chunk;
      if (out.includes('Press Ctrl-C to stop.')) {
        resolveStart();
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', resolveStart);
  });
  return {
    child,
    out: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}

/** Add the dearest product to a cart and check out with the card payment method; the answer and the cookie jar's headers. */
async function payByCard(storeUrl) {
  const cookies = new Map();
  const call = async (path, init = {}) => {
    const response = await fetch(`${storeUrl}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { 'content-type': 'application/json', cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...init.headers },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      cookies.set(name, value.join('='));
    }
    return response;
  };
  const products = await (await call('/wp-json/wc/store/v1/products')).json();
  const dearest = products.sort((a, b) => Number(b.prices.price) - Number(a.prices.price))[0];
  const cart = await call('/wp-json/wc/store/v1/cart');
  const nonce = cart.headers.get('nonce');
  const added = await (
    await call('/wp-json/wc/store/v1/cart/add-item', { method: 'POST', headers: { nonce }, body: JSON.stringify({ id: dearest.id, quantity: 1 }) })
  ).json();
  const order = await (
    await call('/wp-json/wc/store/v1/checkout', {
      method: 'POST',
      headers: { nonce },
      body: JSON.stringify({
        billing_address: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          address_1: 'Unter den Linden 1',
          city: 'Berlin',
          postcode: '10117',
          country: 'DE',
          email: 'ada@example.com',
        },
        payment_method: 'card2crypto',
      }),
    })
  ).json();
  const landing = order.payment_result?.redirect_url
    ? await call(new URL(order.payment_result.redirect_url).pathname + new URL(order.payment_result.redirect_url).search)
    : null;
  return { methods: added.payment_methods, order, landing };
}

describe("a newcomer's first npm start", { skip }, () => {
  test('an empty cache: the newest pair downloaded from wordpress.org, verified, booted, and a card payment starts', { timeout: 240_000 }, async () => {
    const first = await startStore(fake.env());
    try {
      const out = first.out();
      assert.match(out, /Downloading WordPress 7\.1 from 127\.0\.0\.1:\d+: 0\.0 of [\d.]+ MB \(0%\)/);
      assert.match(out, /Downloading WooCommerce 11\.0\.1 from 127\.0\.0\.1:\d+: ([\d.]+) of \1 MB \(100%\)/);
      assert.match(out, /card2crypto local store is running/, out);
      assert.match(out, /^ {2}WordPress {2}7\.1 {2}\(wordpress\.org, verified\)$/m);
      assert.match(out, /^ {2}WooCommerce 11\.0\.1 {2}\(wordpress\.org, verified: .*cache\/woocommerce\/11\.0\.1\)$/m);
      assert.match(out, /\(native: installed by npm run setup:native; CARD2CRYPTO_RUNTIME=playground npm start for Playground\)/);
      assert.doesNotMatch(out, /not reachable|NONE/);
      const storeUrl = /Store {6}(http:\/\/127\.0\.0\.1:\d+)\//.exec(out)[1];
      const { methods, order, landing } = await payByCard(storeUrl);
      assert.deepEqual(methods, ['card2crypto']);
      assert.equal(order.payment_method, 'card2crypto', JSON.stringify(order));
      assert.equal(order.payment_result.payment_status, 'success');
      assert.equal(landing.status, 302);
      assert.match(landing.headers.get('location'), /^http:\/\/127\.0\.0\.1:\d+\/landing\/\?i=/, 'sent to the sandbox landing page');
      // What was served is what is cached, byte for byte; nothing half-written.
      for (const file of ['wp-includes/version.php', 'wp-admin/admin.php']) {
        assert.ok((await readFile(join(work, 'cache', 'wordpress', '7.1', file))).equals(await readFile(join(real.wordpress, file))), file);
      }
      assert.deepEqual(readdirSync(join(work, 'cache', 'wordpress')), ['7.1']);
      assert.deepEqual(readdirSync(join(work, 'cache', 'woocommerce')), ['11.0.1']);
    } finally {
      await first.stop();
    }
    assert.match(first.out(), /Stopped\./);
  });
});
