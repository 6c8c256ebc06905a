/**
 * Shared steps of the checkout specs: the running store (written by the
 * harness's startStore(), running.json in the site's state directory), placing an
 * order through WooCommerce's Store API, signed callbacks from the partner's
 * side and the service's state behind them, the admin's view of an order, and
 * the sandbox widget's purchase steps.
 * Specs that need WooCommerce skip loudly when the store has none.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type FrameLocator, type Page, type APIRequestContext } from '@playwright/test';
import { parseLandingUrl, sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH, knownOperationBody, operationDataFor, type SignedPayment } from '@card2crypto/sandbox';
import { runInfo } from '../run-info.ts';
import { fillLogin } from './login';

export interface RunningStore {
  storeUrl: string;
  admin: { username: string; password: string };
  sandbox: { url: string; dashboardUrl: string; urls: Record<string, string> } | null;
  partner: { token: string; callbackUrl: string };
  woocommerce: { products: Array<{ sku: string; id: number; url: string }>; pages: Record<string, string> } | null;
  woocommerceMessage: string | null;
  dirs: { harnessDir: string; siteDir: string };
}

/** The store the harness started for this run (its state directory is in the run's info). */
export function runningStore(): RunningStore {
  const { stateDir } = runInfo();
  const file = stateDir ? path.join(stateDir, 'running.json') : '(no site booted by the harness)';
  if (!stateDir || !existsSync(file)) {
    throw new Error(`No running store: ${file} is missing (the e2e global setup starts it).`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as RunningStore;
}

/** The partner secret (the harness keeps it with the site; only tests and the sandbox read it). */
export function partnerSecret(store: RunningStore): string {
  return (JSON.parse(readFileSync(path.join(store.dirs.harnessDir, 'partner.json'), 'utf8')) as { secret: string }).secret;
}

/** Skips the calling spec, saying why, when the store runs without WooCommerce or the sandbox. */
export function requireWooCommerce(store: RunningStore): void {
  test.skip(
    !store.woocommerce,
    `SKIPPED: WooCommerce is not installed in the test store (${store.woocommerceMessage ?? 'see scripts/lib/find-woocommerce.mjs'}).`,
  );
  test.skip(!store.sandbox, 'SKIPPED: the sandbox is not built.');
}

export interface PlacedOrder {
  id: number;
  key: string;
  redirect: string;
  params: Record<string, unknown>;
  callbacks: { success: string; fail: string };
}

export const BUYER = {
  first_name: 'Ada',
  last_name: 'Buyer',
  address_1: 'Hauptstraße 1',
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
  email: 'ada.buyer@example.com',
  phone: '',
};

/** Adds a product to a fresh cart and checks out with the payment method (Store API, real HTTP). */
export async function placeOrder(request: APIRequestContext, store: RunningStore, productIndex = 0): Promise<PlacedOrder> {
  const base = `${store.storeUrl}/wp-json/wc/store/v1`;
  const cart = await request.get(`${base}/cart`);
  const nonce = cart.headers().nonce ?? '';
  const headers = { Nonce: nonce, 'Content-Type': 'application/json' };
  const product = store.woocommerce!.products[productIndex]!;
  expect((await request.post(`${base}/cart/add-item`, { headers, data: { id: product.id, quantity: 1 } })).status()).toBe(201);
  const { email, ...shipping } = BUYER;
  const response = await request.post(`${base}/checkout`, {
    headers,
    data: { billing_address: BUYER, shipping_address: shipping, payment_method: 'card2crypto' },
  });
  const body = (await response.json()) as { order_id: number; order_key: string; payment_result: { redirect_url: string } };
  expect(response.status(), JSON.stringify(body)).toBe(200);
  void email;
  // The store sends the buyer through its own link, which signs the landing URL on arrival.
  const link = await request.get(body.payment_result.redirect_url, { maxRedirects: 0 });
  expect(link.status()).toBe(302);
  const redirect = link.headers().location ?? '';
  const parsed = parseLandingUrl(redirect);
  if (!parsed.ok) {
    throw new Error(`Not a landing URL: ${redirect}`);
  }
  return { id: body.order_id, key: body.order_key, redirect, params: parsed.payload.params, callbacks: parsed.payload.callbacks };
}

/** operation_data as the service sends it for an order's attempt (the sandbox's fixture, shared with the WordPress-level tests). */
export function operationData(
  order: PlacedOrder,
  status: string,
  code: number,
  options: { id?: string; amount?: number; wallet?: string; currency?: string } = {},
): Record<string, unknown> {
  return operationDataFor(order.params as unknown as SignedPayment, status, code, { ...options, id: options.id ?? `op-${order.id}-a` });
}

/** POSTs a callback signed with `secret` (the partner's, or a wrong one); returns "status body". */
export async function sendCallback(store: RunningStore, secret: string, operation: Record<string, unknown>): Promise<string> {
  const body: Record<string, unknown> = { operation_data: operation };
  body.signature = sign(body, secret, { form: 'general' });
  const response = await fetch(`${store.storeUrl}/wp-json/card2crypto/v1/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return `${response.status} ${await response.text()}`;
}

/**
 * Puts `operation` (operation_data, as operationData() builds it) into the service's state through the
 * sandbox's test helper (POST /sandbox/operations, packages/sandbox/README.md), signed with `secret` like a
 * partner API request: the operation-info endpoint, which the store asks before a callback may complete an
 * order, then answers with it. Sends no callback. A callback sent after this is backed by the service;
 * one sent without it (or after a different state) is not.
 */
export async function serviceHas(store: RunningStore, secret: string, operation: Record<string, unknown>): Promise<void> {
  if (!store.sandbox) {
    throw new Error('serviceHas() needs the sandbox');
  }
  const body = knownOperationBody(operation, store.partner.token, secret);
  const response = await fetch(`${store.sandbox.url}${SANDBOX_OPERATIONS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `the sandbox's answer to ${SANDBOX_OPERATIONS_PATH}: ${await response.clone().text()}`).toBe(200);
}

export async function loginAsAdmin(page: Page, store: RunningStore): Promise<void> {
  await page.goto(`${store.storeUrl}/wp-login.php`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  await fillLogin(page, store.admin.username, store.admin.password);
  await page.locator('#wp-submit').click();
  await page.waitForURL(/wp-admin/, { timeout: 240_000 });
}

/**
 * WooCommerce 11 celebrates a store's first paid orders with a full-screen overlay on the order
 * screen ("Cha-ching! Order number one"), which takes every click: whenever it shows on `page`,
 * the owner closes it with "Don't show again" (Playwright runs this before each action and assertion).
 */
export async function dismissOrderMilestones(page: Page): Promise<void> {
  await page.addLocatorHandler(page.locator('#woo-egg-overlay'), async (overlay) => {
    await overlay.getByRole('button', { name: "Don't show again" }).click();
  });
}

export interface AdminOrderView {
  status: string;
  notes: string[];
  panel: Record<string, string>;
}

/** The order edit screen (HPOS) as the owner sees it. */
export async function adminOrder(page: Page, store: RunningStore, orderId: number): Promise<AdminOrderView> {
  await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${orderId}`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  const status = await page.locator('#order_status').inputValue();
  const notes = await page.locator('ul.order_notes li .note_content').allInnerTexts();
  const panel: Record<string, string> = {};
  for (const dd of await page.locator('#card2crypto-checkout-payment dd').all()) {
    panel[(await dd.getAttribute('data-card2crypto')) ?? ''] = await dd.innerText();
  }
  // WordPress typesets quotes in notes (wptexturize): compare them as straight quotes.
  return {
    status,
    notes: notes.map((n) =>
      n
        .trim()
        .replace(/[\u201c\u201d\u2033]/g, '"')
        .replace(/[\u2018\u2019]/g, "'"),
    ),
    panel,
  };
}

/** Waits until the admin view satisfies `check` (callbacks arrive asynchronously). */
export async function waitForOrder(
  page: Page,
  store: RunningStore,
  orderId: number,
  check: (view: AdminOrderView) => boolean,
  timeoutMs = 120_000,
): Promise<AdminOrderView> {
  const deadline = Date.now() + timeoutMs;
  let view = await adminOrder(page, store, orderId);
  while (!check(view)) {
    if (Date.now() > deadline) {
      throw new Error(`Order ${orderId} never reached the expected state: ${JSON.stringify(view, null, 1)}`);
    }
    await page.waitForTimeout(2000);
    view = await adminOrder(page, store, orderId);
  }
  return view;
}

/**
 * Pays in the sandbox widget with a test card (packages/sandbox/README.md). `frameSelector` narrows
 * the widget where a page holds more than one (the order-pay page also shows the widget block in
 * the sidebar).
 */
export async function payInWidget(page: Page, card: string, frameSelector = 'iframe.card2crypto-widget-frame'): Promise<void> {
  const frame: FrameLocator = page.frameLocator(frameSelector);
  // Continue is enabled once the widget has its quote. Chromium throttles a cross-origin frame that
  // is out of view (another widget growing above it can push it out), so keep it in view meanwhile.
  const frameElement = page.locator(frameSelector).first();
  await expect
    .poll(
      async () => {
        await frameElement.scrollIntoViewIfNeeded().catch(() => {});
        return frame.locator('#continue:not([disabled])').count();
      },
      { timeout: 180_000, message: 'the widget offers Continue (its quote arrived)' },
    )
    .toBeGreaterThan(0);
  await frame.locator('#continue').click();
  await frame.locator('#continue').click();
  await frame.locator(`button[data-card="${card}"]`).click();
  await frame.locator('#continue').click();
  await frame.locator('#pay').click();
}

export const CARDS = {
  success: '4242424242424242',
  refused: '4000010100000000',
  confirmation: '4000000800000004',
} as const;

/** Changes payment method settings through the settings page, as the owner does. */
export async function saveSettings(
  page: Page,
  store: RunningStore,
  changes: { check?: Record<string, boolean>; fill?: Record<string, string>; select?: Record<string, string> },
): Promise<void> {
  await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`, {
    waitUntil: 'domcontentloaded',
    timeout: 240_000,
  });
  for (const [id, on] of Object.entries(changes.check ?? {})) {
    await page.locator(`#woocommerce_card2crypto_${id}`).setChecked(on);
  }
  for (const [id, value] of Object.entries(changes.fill ?? {})) {
    await page.locator(`#woocommerce_card2crypto_${id}`).fill(value);
  }
  for (const [id, value] of Object.entries(changes.select ?? {})) {
    await page.locator(`#woocommerce_card2crypto_${id}`).selectOption(value);
  }
  await submitWooCommerceSettings(page);
}

/**
 * Reads (currentSettings) or changes (setSettings) the checkout's settings through WooCommerce's own REST route
 * (PUT wc/v3/payment_gateways/card2crypto), as the admin of `page`: for specs
 * whose subject is not the settings page (settings.spec.ts and the XSS spec
 * drive the form itself with saveSettings). A checkbox takes a boolean. Throws,
 * naming the setting, when WooCommerce refuses or stores something else.
 */
export async function currentSettings(page: Page): Promise<Record<string, string>> {
  const { status, json } = await adminRest(page, 'GET', 'wc/v3/payment_gateways/card2crypto');
  if (status !== 200) {
    throw new Error(`GET wc/v3/payment_gateways/card2crypto: HTTP ${status} ${JSON.stringify(json)}`);
  }
  return Object.fromEntries(Object.entries((json as { settings: Record<string, { value: string }> }).settings).map(([id, { value }]) => [id, value]));
}

export async function setSettings(page: Page, changes: Record<string, string | boolean>): Promise<void> {
  const settings = Object.fromEntries(Object.entries(changes).map(([id, value]) => [id, typeof value === 'boolean' ? (value ? 'yes' : 'no') : value]));
  const { status, json } = await adminRest(page, 'PUT', 'wc/v3/payment_gateways/card2crypto', { settings });
  if (status !== 200) {
    throw new Error(`PUT wc/v3/payment_gateways/card2crypto ${JSON.stringify(settings)}: HTTP ${status} ${JSON.stringify(json)}`);
  }
  const stored = (json as { settings: Record<string, { value: unknown }> }).settings;
  for (const [id, value] of Object.entries(settings)) {
    if (stored[id]?.value !== value) {
      throw new Error(`setting ${id}: asked for ${JSON.stringify(value)}, WooCommerce stored ${JSON.stringify(stored[id]?.value)}`);
    }
  }
}

/** Saves the WooCommerce settings form on `page`; false when WooCommerce keeps Save disabled (nothing changed). */
export async function submitWooCommerceSettings(page: Page): Promise<boolean> {
  const save = page.locator('button[name="save"]');
  await page.waitForTimeout(500);
  if (!(await save.isEnabled())) {
    return false;
  } // WooCommerce enables it only when something changed: already as asked.
  // The save can outlast the click's own wait on a busy WebAssembly WordPress: wait for the navigation alone.
  const saved = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 300_000 });
  await save.click({ noWaitAfter: true });
  await saved;
  return true;
}

/**
 * Puts `quantity` of a product in the cart of `page`'s browser context: the same GET
 * ?add-to-cart=<id> a link would send, through the context's own request client (it shares the
 * cookies, so WooCommerce's session cookie lands in the browser), without rendering the shop page it
 * answers with: the page is not what the checkout specs test, and rendering it costs the browser a
 * second or more of CPU each time. It waits for the whole answer: WooCommerce saves the cart when
 * that request ends, so a page opened after the answer's first bytes (page.goto's domcontentloaded)
 * could read the cart from before it (checkout-range once saw its old cart for a minute).
 */
export async function addToCart(page: Page, store: RunningStore, productId: number, quantity = 1): Promise<void> {
  const response = await page.request.get(`${store.storeUrl}/?add-to-cart=${productId}&quantity=${quantity}`, { timeout: 180_000 });
  expect(response.status(), `GET ?add-to-cart=${productId}&quantity=${quantity}`).toBe(200);
}

/** Block checkout as a guest: product to cart, address, place order; ends on the landing page (or the order-pay page, embedded flow). */
export async function blockCheckout(page: Page, store: RunningStore, productIndex = 0, landing = true): Promise<void> {
  const product = store.woocommerce!.products[productIndex]!;
  await addToCart(page, store, product.id);
  await page.goto(store.woocommerce!.pages.checkout!, { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Email address').fill(BUYER.email);
  const form = page.locator('.wc-block-checkout');
  await form.getByLabel('First name').first().fill(BUYER.first_name);
  await form.getByLabel('Last name').first().fill(BUYER.last_name);
  await form.getByLabel('Address', { exact: true }).first().fill(BUYER.address_1);
  await form.getByLabel('City').first().fill(BUYER.city);
  await form.getByLabel('Postal code').first().fill(BUYER.postcode);
  await expect(
    page.locator('.wc-block-components-radio-control__label, .wc-block-components-payment-method-label').filter({ hasText: 'Credit or debit card' }).first(),
  ).toBeVisible();
  await expect(page.getByText('Accepted: Visa, Maestro, MasterCard, SEPA, Google Pay.')).toBeVisible();
  // The block checkout ignores "Place order" while it is still saving the address: click until it submits.
  let submitted = false;
  const onRequest = (r: { url: () => string; method: () => string }) => {
    if (r.method() === 'POST' && /wc\/store\/v1\/checkout/.test(r.url())) {
      submitted = true;
    }
  };
  page.on('request', onRequest);
  for (let i = 0; i < 6 && !submitted; i++) {
    await page.getByRole('button', { name: 'Place order' }).click();
    for (let waited = 0; waited < 20_000 && !submitted; waited += 500) {
      await page.waitForTimeout(500);
    }
  }
  page.off('request', onRequest);
  expect(submitted, 'the block checkout never sent the order').toBe(true);
  await page.waitForURL(landing ? /\/landing\/\?i=/ : /order-pay\/\d+/, { timeout: 180_000 });
}

export function orderIdFromUrl(url: string): number {
  const match = /order-(?:received|pay)\/(\d+)/.exec(url);
  if (!match) {
    throw new Error(`No order id in ${url}`);
  }
  return Number(match[1]);
}

/**
 * Test only, written into the store by the helpers below: reads an order's
 * reconciliation plan (its current attempt's next check, checks done,
 * retirement) and makes its next check due now, for the logged-in owner.
 * The plugin keeps no such route: a store's owner waits for the check or
 * uses "Refresh from the service".
 */
const RECONCILE_PROBE = `<?php
add_action( 'rest_api_init', static function () {
	register_rest_route( 'card2crypto-e2e/v1', '/reconcile/(?P<id>\\d+)', array(
		'methods'             => array( 'GET', 'POST' ),
		'permission_callback' => static function () { return current_user_can( 'manage_woocommerce' ); },
		'callback'            => static function ( WP_REST_Request $request ) {
			$order   = wc_get_order( (int) $request['id'] );
			$attempt = $order ? Card2Crypto\\Checkout\\Plugin::service( Card2Crypto\\Checkout\\Attempts\\Attempt_Store::class )->current_attempt( $order ) : null;
			if ( null === $attempt ) {
				return new WP_REST_Response( array( 'error' => 'no attempt' ), 404 );
			}
			if ( 'POST' === $request->get_method() ) {
				Card2Crypto\\Checkout\\Plugin::service( Card2Crypto\\Checkout\\Attempts\\Check_Queue::class )->check_by( $attempt->id(), time() );
				Card2Crypto\\Checkout\\Plugin::service( Card2Crypto\\Checkout\\Service\\Reconciler::class )->ensure_batch( time() );
				$attempt = Card2Crypto\\Checkout\\Plugin::service( Card2Crypto\\Checkout\\Attempts\\Attempt_Store::class )->attempt( $attempt->id() );
			}
			return array(
				'now'           => time(),
				'next_check_at' => null === $attempt->next_check_at() ? null : strtotime( $attempt->next_check_at() . ' UTC' ),
				'checks'        => $attempt->checks(),
				'retired'       => $attempt->is_retired(),
			);
		},
	) );
} );
`;

const BATCH_HOOK = 'card2crypto_checkout_reconcile_batch';

/** An order's reconciliation plan as the store keeps it (its current attempt). */
export interface ReconcilePlan {
  /** When the batch checks it next (Unix seconds), null when no check is planned. */
  nextCheckAt: number | null;
  /** Checks done so far. */
  checks: number;
  /** Retired: the service never heard of it; never checked again. */
  retired: boolean;
  /** Seconds from now to the next check, to the nearest minute (the plan is read seconds after it was made); null without one. */
  delaySeconds: number | null;
}

function installReconcileProbe(store: RunningStore): void {
  const dir = path.join(store.dirs.siteDir, 'wp-content', 'mu-plugins');
  const file = path.join(dir, 'card2crypto-e2e-reconcile.php');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, RECONCILE_PROBE);
  }
}

/** The order's reconciliation plan (`due`: its next check made due now first). */
export async function reconcilePlan(page: Page, store: RunningStore, orderId: number, due = false): Promise<ReconcilePlan> {
  installReconcileProbe(store);
  const answer = await adminRest(page, due ? 'POST' : 'GET', `card2crypto-e2e/v1/reconcile/${orderId}`);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const plan = answer.json as { now: number; next_check_at: number | null; checks: number; retired: boolean };
  return {
    nextCheckAt: plan.next_check_at,
    checks: plan.checks,
    retired: plan.retired,
    delaySeconds: plan.next_check_at === null ? null : Math.round((plan.next_check_at - plan.now) / 60) * 60,
  };
}

/** The order's planned check: there must be one; its delay from now, to the nearest minute. */
export async function pendingReconcile(page: Page, store: RunningStore, orderId: number): Promise<ReconcilePlan & { delaySeconds: number }> {
  const plan = await reconcilePlan(page, store, orderId);
  expect(plan.nextCheckAt, `a check of order ${orderId} is planned`).not.toBeNull();
  return plan as ReconcilePlan & { delaySeconds: number };
}

/**
 * Runs the order's next check now, as the owner can: its check made due
 * (test probe), then the one reconciliation batch action run through its
 * "Run" link in WooCommerce → Status → Scheduled Actions, which processes it
 * as Action Scheduler's queue runner would. The check must have been done.
 */
export async function runReconcile(page: Page, store: RunningStore, orderId: number): Promise<void> {
  const before = await reconcilePlan(page, store, orderId, true);
  // Done: checked (a check counted), or planned again (a decline's last look, or nothing more: no next check).
  const done = (p: ReconcilePlan) => p.checks > before.checks || p.nextCheckAt === null || p.nextCheckAt > (before.nextCheckAt ?? 0);
  for (let tries = 0; tries < 5; tries++) {
    // WP-Cron's runner may have taken the batch meanwhile: that is the same check.
    if (done(await reconcilePlan(page, store, orderId))) {
      return;
    }
    await page.goto(
      `${store.storeUrl}/wp-admin/admin.php?page=wc-status&tab=action-scheduler&status=pending&s=${encodeURIComponent(BATCH_HOOK)}&orderby=schedule&order=asc`,
      { waitUntil: 'domcontentloaded', timeout: 240_000 },
    );
    for (const row of await page.locator('#the-list tr').all()) {
      const hook =
        (await row
          .locator('.column-hook')
          .textContent()
          .catch(() => null)) ?? '';
      const run = row.locator('.row-actions .run a');
      if (hook.trim().startsWith(BATCH_HOOK) && (await run.count()) > 0) {
        await page.goto(new URL((await run.getAttribute('href'))!, page.url()).href, { waitUntil: 'domcontentloaded', timeout: 300_000 });
        break;
      }
    }
    await page.waitForTimeout(1000);
  }
  expect(done(await reconcilePlan(page, store, orderId)), `the check of order ${orderId} ran`).toBe(true);
}

/**
 * Test only, written into the store by the helpers below (never part of a
 * plugin zip): moves the store's time where a spec would otherwise wait for
 * a timer, for the logged-in owner. Each route moves one clock:
 * - health: the store's cached "does the service accept us" state goes
 *   `seconds` back (its lifetime then ends, as the minutes would end it);
 * - window: the payment window (the plugin's filter) for this store, in
 *   seconds; null gives it back to whatever else sets it.
 */
const CLOCK_PROBE = `<?php
add_filter( 'card2crypto_checkout_payment_window', static function ( $seconds ) {
	$set = get_option( 'card2crypto_e2e_payment_window', null );
	return null === $set ? $seconds : (int) $set;
}, 20 );
add_action( 'rest_api_init', static function () {
	$owner = static function () { return current_user_can( 'manage_woocommerce' ); };
	register_rest_route( 'card2crypto-e2e/v1', '/clock/health', array(
		'methods'             => 'POST',
		'permission_callback' => $owner,
		'callback'            => static function ( WP_REST_Request $request ) {
			$option = Card2Crypto\\Checkout\\Service\\Service_Health::OPTION;
			$state  = get_option( $option, null );
			if ( ! is_array( $state ) ) {
				return new WP_REST_Response( array( 'error' => 'no health state' ), 404 );
			}
			$state['at'] = (int) $state['at'] - (int) $request['seconds'];
			update_option( $option, $state, true );
			return $state;
		},
	) );
	register_rest_route( 'card2crypto-e2e/v1', '/clock/window', array(
		'methods'             => 'POST',
		'permission_callback' => $owner,
		'callback'            => static function ( WP_REST_Request $request ) {
			if ( null === $request['seconds'] ) {
				delete_option( 'card2crypto_e2e_payment_window' );
			} else {
				update_option( 'card2crypto_e2e_payment_window', (int) $request['seconds'], true );
			}
			return array( 'window' => Card2Crypto\\Checkout\\Plugin::service( Card2Crypto\\Checkout\\Attempts\\Order_Attempts::class )->payment_window() );
		},
	) );
} );
`;

/** Writes the clock probe into the store (once). */
function installClockProbe(store: RunningStore): void {
  const dir = path.join(store.dirs.siteDir, 'wp-content', 'mu-plugins');
  const file = path.join(dir, 'card2crypto-e2e-clock.php');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, CLOCK_PROBE);
  }
}

/** One move of the store's clocks (CLOCK_PROBE), as the logged-in owner of `page`; answers the probe's JSON. */
export async function moveStoreClock(
  page: Page,
  store: RunningStore,
  what: 'health' | 'window',
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  installClockProbe(store);
  const answer = await adminRest(page, 'POST', `card2crypto-e2e/v1/clock/${what}`, body);
  expect(answer.status, `clock/${what}: ${JSON.stringify(answer.json)}`).toBe(200);
  return answer.json as Record<string, unknown>;
}

/** A REST call as the logged-in admin of `page` (cookie + the REST nonce WordPress hands out to logged-in users). */
export async function adminRest(page: Page, method: string, route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async (call) => {
      const nonce = await (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
      const response = await fetch(`/wp-json/${call.route}`, {
        method: call.method,
        headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': nonce },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    { method, route, body },
  );
}

/** A new page holding the classic (shortcode) checkout; returns its address. */
export async function classicCheckoutPage(page: Page): Promise<string> {
  const created = await adminRest(page, 'POST', 'wp/v2/pages', {
    title: `Classic checkout ${Date.now()}`,
    status: 'publish',
    content: '<!-- wp:shortcode -->[woocommerce_checkout]<!-- /wp:shortcode -->',
  });
  expect(created.status).toBe(201);
  return (created.json as { link: string }).link;
}

/**
 * The classic (shortcode) checkout at `checkoutUrl` as a guest buying the first sample product, filled
 * in with the card2crypto method chosen and its payment box open, up to (not including) "Place order".
 */
export async function fillClassicCheckout(page: Page, store: RunningStore, checkoutUrl: string): Promise<void> {
  await addToCart(page, store, store.woocommerce!.products[0]!.id);
  await page.goto(checkoutUrl, { waitUntil: 'domcontentloaded' });
  await page.locator('#billing_first_name').fill(BUYER.first_name);
  await page.locator('#billing_last_name').fill(BUYER.last_name);
  await page.locator('#billing_address_1').fill(BUYER.address_1);
  await page.locator('#billing_city').fill(BUYER.city);
  await page.locator('#billing_postcode').fill(BUYER.postcode);
  await page.locator('#billing_email').fill(BUYER.email);
  const method = page.locator('#payment_method_card2crypto');
  await expect(method).toBeAttached();
  await method.check({ force: true });
  await expect(page.locator('.card2crypto-payment-fields')).toBeVisible();
}

/**
 * A declined card payment, as the store took it in when the buyer came back:
 * the order failed, with a note of what the service said and what the buyer
 * was told, and no reconciliation check has had to run.
 */
export async function expectDeclineToldAndRecorded(admin: Page, store: RunningStore, orderId: number, status = 'wc-failed'): Promise<void> {
  const view = await adminOrder(admin, store, orderId);
  expect(view.status).toBe(status);
  expect(
    view.notes.some((n) => n.includes('The card payment was refused') && n.includes('The buyer was told: "Your card payment was declined.')),
    view.notes.join('\n'),
  ).toBe(true);
  expect((await reconcilePlan(admin, store, orderId)).checks).toBe(0);
}
