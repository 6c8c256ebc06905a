/**
 * Scale section 3: a slow, far service. The store's sandbox answers every
 * partner API request after --latency 300 ms; between the store and the
 * sandbox sits a switch (a TCP relay the bench controls) that can make the
 * service "down": every connection is accepted and never answered, the worst
 * way a service can be down (a refused connection fails at once).
 *
 * Figures, in a real browser (headless Chromium):
 * - "Place order" to the service's landing page (from the checkout's POST to
 *   the landing page's DOMContentLoaded; goal <= 1.5 s) and the partner API
 *   calls the sandbox counted for it (goal: 1, the rate).
 * - "Pay again" on the order-pay page to the landing page, and its calls
 *   (goal <= 2).
 * - The checkout page's time with the service down against up, interleaved
 *   (goal <= 1.05x), and a payment started while it is down: it fails with a
 *   plain message within 5 s.
 */
import net from 'node:net';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { cartCookie, median, quantile, type Goals, type Store } from './lib.js';
import { launchChromium } from './scale-browser.js';

const BUYER = { email: 'far@example.com', first_name: 'Far', last_name: 'Buyer', address_1: 'Main 1', city: 'Berlin', postcode: '10115' };

type Mode = 'up' | 'down';

/** The store checks the service's health now (as its queued check does), for the address in its settings. */
const HEALTH_CHECK =
  '\\Card2Crypto\\Checkout\\Service\\Service_Health::run_check( \\Card2Crypto\\Checkout\\Plugin::service( \\Card2Crypto\\Checkout\\Partner\\Service_Gateway::class ) );';

/** A relay from `listenPort` to the sandbox; in "down" it accepts and never answers. */
async function serviceSwitch(target: URL): Promise<{ url: string; set: (mode: Mode) => void; close: () => Promise<void> }> {
  let mode: Mode = 'up';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'down') {
      client.resume();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (next) => {
      mode = next;
      // Connections kept alive from before the switch go too.
      for (const socket of sockets) {
        socket.destroy();
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/** The sandbox's partner API calls from this store's partner, per endpoint. */
async function callsByEndpoint(s: Store): Promise<Record<string, number>> {
  const state = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number> }>;
  };
  return { ...(state.partners.find((p) => p.token === s.partner.token)?.api_calls ?? {}) };
}

function diff(after: Record<string, number>, before: Record<string, number>): { total: number; text: string } {
  const parts: string[] = [];
  let total = 0;
  for (const [endpoint, n] of Object.entries(after)) {
    const d = n - (before[endpoint] ?? 0);
    if (d > 0) {
      parts.push(`${endpoint} ${d}`);
      total += d;
    }
  }
  return { total, text: parts.join(', ') || 'none' };
}

/** Block checkout as a guest up to "Place order"; answers the time the order was sent and the landing route it answered with. */
async function placeOrder(page: Page, s: Store, beforeClick: () => void = () => {}): Promise<{ sentAt: () => number; redirect: () => string }> {
  const product = s.woocommerce!.products[0]!;
  const added = await page.request.get(`${s.storeUrl}/?add-to-cart=${product.id}`);
  if (added.status() !== 200) {
    throw new Error(`add to cart answered ${added.status()}`);
  }
  await page.goto(`${s.storeUrl}/checkout/`, { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Email address').fill(BUYER.email);
  const form = page.locator('.wc-block-checkout');
  await form.getByLabel('First name').first().fill(BUYER.first_name);
  await form.getByLabel('Last name').first().fill(BUYER.last_name);
  await form.getByLabel('Address', { exact: true }).first().fill(BUYER.address_1);
  await form.getByLabel('City').first().fill(BUYER.city);
  await form.getByLabel('Postal code').first().fill(BUYER.postcode);
  await page
    .locator('.wc-block-components-radio-control__label, .wc-block-components-payment-method-label')
    .filter({ hasText: 'Credit or debit card' })
    .first()
    .waitFor();
  let sentAt = 0;
  let redirect = '';
  page.on('request', (r) => {
    if (!sentAt && r.method() === 'POST' && /wc\/store\/v1\/checkout/.test(r.url())) {
      sentAt = performance.now();
    }
  });
  // The store's landing route the browser follows (it carries the order's id and key).
  page.on('request', (r) => {
    if (!redirect && /card2crypto\/v1\/orders\/\d+\/landing/.test(r.url())) {
      redirect = r.url();
    }
  });
  beforeClick();
  // The block checkout ignores "Place order" while it is still saving the address: click until it sends.
  for (let i = 0; i < 6 && !sentAt; i++) {
    await page.getByRole('button', { name: 'Place order' }).click();
    for (let waited = 0; waited < 10_000 && !sentAt; waited += 100) {
      await page.waitForTimeout(100);
    }
  }
  if (!sentAt) {
    throw new Error('the block checkout never sent the order');
  }
  return { sentAt: () => sentAt, redirect: () => redirect };
}

const LANDING = /\/landing\/?\?i=/;

export async function slowService(s: Store, setOption: (php: string) => Promise<void>, goals: Goals): Promise<void> {
  const runs = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
  console.log(`\n== Scale 3: a slow, far service (sandbox --latency 300 ms per answer; ${runs} orders in a real browser after one warm-up) ==`);
  const relay = await serviceSwitch(new URL(s.sandbox!.url));
  // The store asks the service through the switch (the API address only; the landing page is the sandbox's own).
  await setOption(
    `$o = get_option( 'woocommerce_card2crypto_settings' ); $o['base_url'] = '${relay.url}'; update_option( 'woocommerce_card2crypto_settings', $o );`,
  );
  const browser = await launchChromium();
  try {
    const place: number[] = [];
    const placeCalls: number[] = [];
    const again: number[] = [];
    const againCalls: number[] = [];
    const callText: string[] = [];
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const before = await callsByEndpoint(s);
      const placed = await placeOrder(page, s);
      await page.waitForURL(LANDING, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      const ms = performance.now() - placed.sentAt();
      const calls = diff(await callsByEndpoint(s), before);
      // "Pay again": the buyer comes back to the order-pay page and presses Pay.
      const link = new URL(placed.redirect());
      const orderId = link.pathname.match(/orders\/(\d+)/)?.[1];
      await page.goto(`${s.storeUrl}/checkout/order-pay/${orderId}/?pay_for_order=true&key=${link.searchParams.get('key')}`, { waitUntil: 'domcontentloaded' });
      const beforeAgain = await callsByEndpoint(s);
      const pressed = performance.now();
      await page.locator('#place_order').click();
      await page.waitForURL(LANDING, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      const againMs = performance.now() - pressed;
      const callsAgain = diff(await callsByEndpoint(s), beforeAgain);
      await context.close();
      if (i === 0) {
        continue; // warm-up
      }
      place.push(ms);
      placeCalls.push(calls.total);
      again.push(againMs);
      againCalls.push(callsAgain.total);
      callText.push(`order ${orderId}: placing ${calls.text}; pay again ${callsAgain.text}`);
    }
    console.log(callText.map((line) => `  ${line}`).join('\n'));
    const placeMedian = median(place);
    console.log(
      `"Place order" to the landing page: median ${placeMedian.toFixed(0)} ms (p75 ${quantile(place, 0.75).toFixed(0)}, max ${Math.max(...place).toFixed(0)})`,
    );
    goals.add('3 slow service', '"Place order" to landing, 300 ms/answer', `${(placeMedian / 1000).toFixed(2)} s`, '<= 1.5 s', placeMedian <= 1500);
    const maxPlace = Math.max(...placeCalls);
    goals.add('3 slow service', 'service calls per new order', `${maxPlace} (each: ${placeCalls.join(', ')})`, '1 (the rate)', maxPlace <= 1);
    const maxAgain = Math.max(...againCalls);
    console.log(`"Pay again" to the landing page: median ${median(again).toFixed(0)} ms`);
    goals.add('3 slow service', 'service calls per "Pay again"', `${maxAgain} (each: ${againCalls.join(', ')})`, '<= 2', maxAgain <= 2);

    // The checkout page with the service down against up, interleaved (a cart in a cookie session).
    const pairs = Number(process.env.BENCH_REQUESTS ?? 40);
    const jar = await cartCookie(s);
    const up: number[] = [];
    const down: number[] = [];
    for (let i = 0; i < pairs + 3; i++) {
      const order: Mode[] = i % 2 ? ['up', 'down'] : ['down', 'up'];
      for (const mode of order) {
        relay.set(mode);
        const t0 = performance.now();
        const r = await fetch(`${s.storeUrl}/checkout/`, { headers: { cookie: jar } });
        await r.text();
        if (r.status !== 200) {
          throw new Error(`the checkout page answered ${r.status} with the service ${mode}`);
        }
        if (i >= 3) {
          (mode === 'up' ? up : down).push(performance.now() - t0);
        }
      }
    }
    const ratio = median(down) / median(up);
    console.log(`checkout page: service up median ${median(up).toFixed(1)} ms, down ${median(down).toFixed(1)} ms (${pairs} interleaved pairs)`);
    goals.add('3 slow service', 'checkout page, service down / up', `${ratio.toFixed(3)}x`, '<= 1.05x', ratio <= 1.05);

    // A payment started while the service is down (the store still believes it healthy).
    relay.set('up');
    // A fresh health check: the store believes the service healthy when it goes down.
    await setOption(HEALTH_CHECK);
    const context = await browser.newContext();
    const page = await context.newPage();
    // The page is filled in with the service up (the store believes it healthy); it goes down just before "Place order".
    const placed = await placeOrder(page, s, () => relay.set('down')).catch(async (error: Error) => {
      await context.close();
      throw error;
    });
    const outcome = await Promise.race([
      page.waitForURL(LANDING, { timeout: 30_000 }).then(() => 'landing'),
      page
        .locator('.wc-block-components-notice-banner.is-error, .woocommerce-error')
        .first()
        .waitFor({ timeout: 30_000 })
        .then(() => 'error'),
    ]).catch(() => 'nothing within 30 s');
    const failMs = performance.now() - placed.sentAt();
    const message =
      outcome === 'error' ? (await page.locator('.wc-block-components-notice-banner.is-error, .woocommerce-error').first().innerText()).trim() : outcome;
    await context.close();
    relay.set('up');
    console.log(`payment started with the service down: ${outcome} after ${(failMs / 1000).toFixed(2)} s; the buyer reads: "${message.replace(/\s+/g, ' ')}"`);
    goals.add(
      '3 slow service',
      'payment start, service down',
      `${outcome} in ${(failMs / 1000).toFixed(2)} s`,
      'plain message <= 5 s',
      outcome === 'error' && failMs <= 5000,
    );
  } finally {
    await browser.close();
    await relay.close();
    await setOption(
      `$o = get_option( 'woocommerce_card2crypto_settings' ); $o['base_url'] = '${s.sandbox!.url}'; update_option( 'woocommerce_card2crypto_settings', $o );`,
    );
  }
}

/** Writes a PHP snippet next to the site and runs it inside WordPress. */
export function phpRunner(s: Store): (php: string) => Promise<void> {
  let n = 0;
  return async (php) => {
    const file = path.join(s.dirs.siteDir, '..', `bench-scale-${process.pid}-${n++}.php`);
    writeFileSync(file, `<?php\n${php}\n`);
    await s.native!.runPhp([file]);
  };
}
