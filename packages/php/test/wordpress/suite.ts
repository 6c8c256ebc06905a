/**
 * The shared library inside a real WordPress (Playground) on the oldest and
 * newest supported PHP, with WooCommerce when the harness finds it:
 *
 * - isolation: both plugins active at once, built with different versions
 *   of the shared library, each loading only its own copy, no fatal error;
 * - the callback route: raw body, 200/400/401/403/500 as decided, a log line;
 * - the partner API client on wp_remote_post against a real HTTP server;
 * - both settings pages over HTTP as a browser form submits them (nonce,
 *   field names): invalid values refused by name while the rest is saved,
 *   secrets write-only and kept when left empty, wp-config constants.
 *
 * The browser version of the settings round trip is e2e/specs/settings.spec.ts.
 * One file per PHP version (wordpress-php*.test.ts) so the two sites boot in parallel.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deriveAddresses, parseJsonLossless, sign } from '@card2crypto/core';
import { AdminSession, formFields } from '../support/admin-session.js';
import { closedPort, listenOnFreePort } from '../support/listen.js';
import { nativeWordPressMissing, startWordPress, type WordPressSite } from '../support/wordpress.js';

export interface SiteConfig {
  php: string;
  port: number;
  /** PHP constants defined for every request, as wp-config.php would. */
  defines: Record<string, string>;
}
const CHECKOUT_LIB = '2.0.0-test-new';
const WIDGET_LIB = '1.0.0-test-old';
const CALLBACK_SECRET = 'wp-callback-secret-Ω';
const API_SECRET = 'wp-api-secret-123';
const WIDGET_SECRET = 'wid\\get"secret\'<XYZ>'; // Backslash, quotes and brackets survive as typed.
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** A testnet account key (core's vectors/bip32-addresses.json, random-vpub-0): native segwit tb1q… addresses. */
/** BIP84's documented account key (m/84'/0'/0' of its test mnemonic). */
const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const WALLET_VPUB = 'vpub5a4dEdDnep63MvxDLiqv26g1p6LS4uq2KhUq6gmaJhgzVLuVB19FJ8Deb4UbNg3Pv4UXq2AxawQgg6mRCeSWX7Eor8SG3omJPhuVgtwya1o';

function signedText(text: string, secret: string): string {
  return `${text.slice(0, -1)},"signature":"${sign(parseJsonLossless(text) as object, secret)}"}`;
}

const OPERATION =
  '{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"op-wp-1","from":{"amount":2500,"currency":{"code":"EUR"}},"currency_rate":61000.50},"partner_info":{"operation_id":"order-77"}}}';

interface LibraryInfo {
  version: string;
  namespace: string;
  file: string;
  classes: Record<string, string | null>;
}
interface State {
  php: string;
  woocommerce: string | null;
  active_plugins: string[];
  checkout: LibraryInfo | null;
  widget: LibraryInfo | null;
  gateways: string[];
  unprefixed: boolean;
}

/**
 * The settings option as saved, with the partner secret read from its own
 * option (it is never kept in the settings option, which WooCommerce's REST
 * API and exports read).
 */
async function savedWith(site: WordPressSite, option: string, secretOption: string): Promise<Record<string, string>> {
  const saved = (await site.probe<Record<string, string>>({ action: 'get_option', name: option })) ?? {};
  assert.equal('partner_secret' in saved, false, `${option} never holds the secret`);
  const secret = await site.probe<{ value?: string } | null>({ action: 'get_option', name: secretOption });
  return { ...saved, ...(secret?.value !== undefined ? { partner_secret: secret.value } : {}) };
}

/**
 * Where the native runtime is installed the suite runs there (config.php
 * "native", fast, on MariaDB); Playground's PHP versions run it otherwise.
 */
export async function wordpressSuite(config: SiteConfig): Promise<void> {
  const nativeMissing = await nativeWordPressMissing();
  const skip =
    config.php === 'native'
      ? (nativeMissing ?? false)
      : nativeMissing === null &&
        `the native runtime runs this suite here (wordpress-native.test.ts); CARD2CRYPTO_RUNTIME=playground runs it on PHP ${config.php}`;
  describe(
    `WordPress on PHP ${config.php}`,
    { timeout: 20 * 60_000, skip: process.env.CARD2CRYPTO_RUNTIME === 'playground' && config.php !== 'native' ? false : skip },
    () => {
      let site: WordPressSite;
      let api: http.Server;
      let apiPort = 0;
      const apiRequests: string[] = [];

      before(async () => {
        site = await startWordPress({
          name: `php-${config.php}`,
          phpVersion: config.php,
          checkout: { libVersion: CHECKOUT_LIB },
          widget: { libVersion: WIDGET_LIB },
          port: config.port,
          defines: config.defines,
        });
        api = http.createServer((req, res) => {
          let raw = '';
          req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
          req.on('end', () => {
            apiRequests.push(raw);
            const mode = (req.url ?? '').split('/')[1];
            if (mode === 'slow') {
              setTimeout(() => res.end(signedText('{"service_fee":0.01}', API_SECRET)), 2500);
              return;
            }
            if (mode === 'e429') {
              res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '12' });
              res.end('{"error":{"code":"too_many_requests","message":"slow down"}}');
              return;
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            // The widget's own address answers as the service does for the widget's secret.
            const secret = mode === 'widget' ? WIDGET_SECRET : API_SECRET;
            res.end(mode === 'forged' ? `{"service_fee":0.01,"signature":"${'0'.repeat(128)}"}` : signedText('{"service_fee":0.0125}', secret));
          });
        });
        apiPort = await listenOnFreePort(api);
      });

      after(async () => {
        await site?.stop();
        await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
      });

      test('both plugins are active at once, each on its own copy and version of the shared library', async () => {
        const response = await site.get('/wp-json/c2c-test/v1/state');
        assert.equal(response.status, 200);
        const state = (await response.json()) as State;
        if (config.php !== 'native') {
          assert.equal(state.php.slice(0, 3), config.php);
        }
        assert.ok(state.active_plugins.includes('card2crypto-checkout/card2crypto-checkout.php'));
        assert.ok(state.active_plugins.includes('card2crypto-widget/card2crypto-widget.php'));
        assert.equal(state.checkout?.version, CHECKOUT_LIB);
        assert.equal(state.widget?.version, WIDGET_LIB);
        assert.equal(state.checkout?.namespace, 'Card2Crypto\\Checkout\\Shared');
        assert.equal(state.widget?.namespace, 'Card2Crypto\\Widget\\Shared');
        for (const [plugin, info] of [
          ['card2crypto-checkout', state.checkout],
          ['card2crypto-widget', state.widget],
        ] as const) {
          for (const [name, file] of Object.entries(info!.classes)) {
            assert.ok(file?.startsWith(`${site.pluginFilesDir}/${plugin}/lib/shared/`), `${plugin} loads ${name} from its own copy, not ${file}`);
          }
        }
        assert.equal(state.unprefixed, false, 'nobody loaded the unprefixed namespace');
        if (site.woocommerce) {
          assert.ok(state.gateways.includes('card2crypto'), 'the gateway is registered with WooCommerce');
        }
        const debugLog = path.join(site.siteDir, 'wp-content', 'debug.log');
        const log = existsSync(debugLog) ? readFileSync(debugLog, 'utf8') : '';
        assert.doesNotMatch(log, /PHP (Fatal|Parse) error|Cannot redeclare|Cannot declare class/);
        assert.doesNotMatch(log, /card2crypto-(checkout|widget)\/[^\n]*(Warning|Deprecated|Notice)/, 'no PHP warning from either plugin');
        if (config.php === 'native') {
          // The web server never hands out logs: debug.log, and WooCommerce's and the plugins' log folder.
          for (const file of ['/wp-content/debug.log', '/wp-content/uploads/wc-logs/card2crypto-checkout.log', '/wp-content/.htaccess']) {
            assert.equal((await site.get(file)).status, 403, `${file} is not served`);
          }
        }
      });

      test('the callback route verifies the raw body and answers as decided', async () => {
        await site.probe({ action: 'set_option', name: 'woocommerce_card2crypto_settings', value: { partner_secret: CALLBACK_SECRET, debug_logging: 'yes' } });
        const post = async (body: string, contentType = 'application/json') => {
          const response = await fetch(`${site.url}/wp-json/card2crypto/v1/callback`, { method: 'POST', headers: { 'content-type': contentType }, body });
          return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
        };
        const valid = signedText(OPERATION, CALLBACK_SECRET);
        // (Each request here boots WordPress with WooCommerce in WebAssembly: the cases are the ones only
        // a real route can get wrong; every other body is covered against core in suites/callbacks.ts.)
        assert.deepEqual(await post(valid), { status: 200, type: 'text/plain; charset=utf-8', text: 'OK' });
        assert.deepEqual(await post(valid.replace('2500', '2501')), { status: 401, type: 'text/plain; charset=utf-8', text: 'Wrong signature' });
        // Verified over the raw text: a parsed-and-re-encoded body would read 61000.50 as 61000.5 and accept this.
        assert.equal((await post(valid.replace('61000.50', '61000.5'))).status, 401, 'number text is verified as received');
        const empty = await post('');
        assert.equal(empty.status, 400);
        assert.match(empty.text, /^Callback could not be processed: callback body is empty/);
        // WordPress itself refuses JSON it cannot parse; the route answers in its own words instead.
        const broken = await post('{"operation_data": {', 'application/json');
        assert.equal(broken.status, 400);
        assert.match(broken.text, /not a valid JSON object/);
        const invalid = await post(signedText('{"operation_data":{"status":"pending","operation_info":{"id":"x"}}}', CALLBACK_SECRET));
        assert.equal(invalid.status, 400);
        assert.match(invalid.text, /operation_data\.status_code/);

        // Only the allowlisted addresses (Playground's requests come from 127.0.0.1).
        await site.probe({
          action: 'set_option',
          name: 'woocommerce_card2crypto_settings',
          value: { partner_secret: CALLBACK_SECRET, debug_logging: 'yes', callback_ips: '203.0.113.10' },
        });
        assert.equal((await post(valid)).status, 403);
        await site.probe({
          action: 'set_option',
          name: 'woocommerce_card2crypto_settings',
          value: { partner_secret: CALLBACK_SECRET, debug_logging: 'yes', callback_ips: '203.0.113.10\n127.0.0.0/8\n::1' },
        });
        assert.equal((await post(valid)).status, 200);

        // No secret configured: "not received", so that the service sends it again later.
        await site.probe({ action: 'set_option', name: 'woocommerce_card2crypto_settings', value: { debug_logging: 'yes' } });
        await site.probe({ action: 'delete_option', name: 'card2crypto_checkout_partner_secret' });
        assert.equal((await post(valid)).status, 500);

        if (site.woocommerce) {
          const lines = await site.probe<string[]>({ action: 'log_files' });
          const text = lines.join('\n');
          assert.match(text, /Callback verified: operation op-wp-1, status "pending" \(2\), partner operation order-77/);
          assert.match(text, /Callback from 127\.0\.0\.1 refused \(401\): \(signature\) callback signature does not match/);
          assert.equal(text.includes(CALLBACK_SECRET), false, 'the secret is never logged');
        }
      });

      test('the partner API client works on wp_remote_post: verified answers, refusals, timeouts', async () => {
        const call = (mode: string, method: string, args: unknown[] = [], timeout = 5) =>
          site.probe<{
            value?: unknown;
            exception?: { class: string; kind: string; status: number; meaning: string; message: string; trace: string };
            logs: string[];
          }>({
            action: 'api',
            base_url: `http://127.0.0.1:${apiPort}/${mode}`,
            token: 'wp-token',
            secret: API_SECRET,
            timeout,
            method,
            args,
          });
        apiRequests.length = 0;
        const ok = await call('ok', 'params');
        assert.deepEqual(ok.value, { service_fee: 0.0125 });
        assert.equal(apiRequests.length, 1);
        const sent = JSON.parse(apiRequests[0]!) as Record<string, unknown>;
        assert.equal(sent.partner_token, 'wp-token');
        assert.ok(Math.abs(Date.now() - Number(sent.timestamp)) < 30_000);
        assert.equal(sent.signature, sign({ partner_token: sent.partner_token, timestamp: sent.timestamp } as object, API_SECRET));

        const forged = await call('forged', 'params');
        assert.equal(forged.exception?.kind, 'bad_signature');
        const limited = await call('e429', 'params');
        assert.equal(limited.exception?.status, 429);
        assert.equal(limited.exception?.meaning, 'Too many requests');
        assert.match(limited.exception!.message, /retry after 12 s/);
        const slow = await call('slow', 'params', [], 1);
        assert.equal(slow.exception?.kind, 'timeout');
        assert.equal(slow.exception?.status, 0);
        const refused = await site.probe<{ exception?: { kind: string } }>({
          action: 'api',
          base_url: `http://127.0.0.1:${await closedPort()}/none`,
          token: 't',
          secret: API_SECRET,
          method: 'params',
          args: [],
        });
        assert.equal(refused.exception?.kind, 'network');
        for (const r of [ok, forged, limited, slow, refused]) {
          assert.equal(JSON.stringify(r).includes(API_SECRET), false, 'no secret in messages, traces or logs');
        }
      });

      test('widget settings page: a refused save writes nothing and shows what was typed, new credentials asked of the service, the secret write-only', async () => {
        const admin = new AdminSession(site.url);
        await admin.login();
        const pagePath = '/wp-admin/options-general.php?page=card2crypto-widget';
        let page = await admin.request(pagePath);
        assert.equal(page.status, 200);
        assert.match(page.text, /Card2Crypto Widget settings/);
        const submit = async (changes: Record<string, string>) => {
          const fields = formFields(page.text).find((f) => f.get('option_page') === 'card2crypto-widget');
          assert.ok(fields, 'the settings form is on the page');
          const form = new URLSearchParams();
          for (const [k, v] of fields) {
            form.set(k, v);
          }
          for (const [k, v] of Object.entries(changes)) {
            form.set(`card2crypto_widget_settings[${k}]`, v);
          }
          // options.php redirects back to the page with settings-updated, which shows the save's messages.
          page = await admin.request('/wp-admin/options.php', { form });
          return savedWith(site, 'card2crypto_widget_settings', 'card2crypto_widget_partner_secret');
        };

        const usesConstant = 'CARD2CRYPTO_PARTNER_TOKEN' in config.defines;
        const widgetSecret = WIDGET_SECRET;
        // Saving new credentials tests them with a signed params request, answered by the fake service.
        let saved = await submit({
          partner_token: 'widget-token',
          partner_secret: widgetSecret,
          base_url: `http://127.0.0.1:${apiPort}/widget`,
          default_amount: '100',
          default_fiat_currency: 'EUR',
          title: 'Buy bitcoin',
        });
        assert.equal(saved.partner_secret, widgetSecret);
        assert.equal(saved.default_amount, '100.00', 'amount normalised to the currency decimals');
        assert.equal(saved.title, 'Buy bitcoin');
        assert.match(page.text, /Settings saved\. The service accepted the partner token and secret\./);
        assert.match(page.text, /data-card2crypto="widget-connection"[^>]*>\s*<p>Connected: the service accepted a signed request/);
        for (const form of [widgetSecret, 'secret&#039;&lt;XYZ', "secret'<XYZ"]) {
          assert.equal(page.text.includes(form), false, 'the secret never comes back to the browser');
        }
        assert.match(page.text, /A secret is saved/);
        if (usesConstant) {
          assert.match(page.text, /Set in wp-config\.php by CARD2CRYPTO_PARTNER_TOKEN/);
          assert.match(page.text, /id="card2crypto_widget_settings-partner_token"[^>]*disabled/);
          assert.equal(page.text.includes('token-from-wp-config'), false);
        } else {
          assert.equal(saved.partner_token, 'widget-token');
        }

        // An invalid amount and colour: nothing saved, each error next to its field, what was typed shown again.
        saved = await submit({
          partner_secret: '',
          default_amount: '1,000',
          color_primary_fill: 'red; }',
          title: 'Buy crypto now',
          default_crypto_currency: 'ETH',
        });
        assert.equal(saved.partner_secret, widgetSecret, 'an empty secret field keeps the saved secret');
        assert.equal(saved.default_amount, '100.00', 'the invalid amount was not saved');
        assert.equal(saved.color_primary_fill, '#6a42e9', 'the invalid colour was not saved');
        assert.equal(saved.title, 'Buy bitcoin', 'nothing was saved');
        assert.match(page.text, /Nothing was saved: correct the fields marked below and save again; what you typed is kept in the form\./);
        assert.match(page.text, /id="card2crypto_widget_settings-default_amount-error"[^>]*><strong>Default amount: enter a plain amount/);
        assert.match(page.text, /id="card2crypto_widget_settings-color_primary_fill-error"[^>]*><strong>Primary colour: enter a CSS colour/);
        assert.match(page.text, /id="card2crypto_widget_settings-default_amount"[^>]*aria-invalid="true"/);
        assert.match(
          page.text,
          /value="Buy crypto now"[^>]*id="card2crypto_widget_settings-title"|id="card2crypto_widget_settings-title"[^>]*value="Buy crypto now"|<input type="text" class="regular-text" value="Buy crypto now"/,
        );
        // Shown once: the page after is the stored settings again.
        page = await admin.request(pagePath);
        assert.equal(page.text.includes('value="Buy crypto now"'), false, 'what was typed is shown once');

        // A new secret the service refuses: nothing saved, the reason next to the secret field.
        saved = await submit({ partner_secret: 'rotated-secret', title: 'Buy crypto now' });
        assert.equal(saved.partner_secret, widgetSecret, 'the refused secret was not saved');
        assert.equal(saved.title, 'Buy bitcoin');
        assert.match(page.text, /Nothing was saved: the service refuses these credentials\./);
        assert.match(
          page.text,
          /id="card2crypto_widget_settings-partner_secret-error"[^>]*><strong>Partner secret: Not connected: the service&#039;s answer is not signed with this partner secret/,
        );
        // The status box still says what the saved credentials do: they are the ones in use (issue 32, point 6).
        assert.match(page.text, /data-card2crypto="widget-connection"[^>]*>\s*<p>Connected: the service accepted a signed request/);
        page = await admin.request(pagePath);
        assert.match(page.text, /data-card2crypto="widget-connection"[^>]*>\s*<p>Connected: the service accepted a signed request/);

        // Below the currency minimum.
        saved = await submit({ default_amount: '10' });
        assert.equal(saved.default_amount, '100.00');
        assert.match(page.text, /Default amount: must be between 50\.00 and 5000\.00 EUR/);
      });

      test('checkout settings in WooCommerce: the same rules, write-only secret, refusals named', async (t) => {
        if (!site.woocommerce) {
          t.skip(`WooCommerce not available: ${site.woocommerceMessage}`);
          return;
        }
        await site.probe({ action: 'set_option', name: 'woocommerce_card2crypto_settings', value: {} });
        const admin = new AdminSession(site.url);
        await admin.login();
        const pagePath = '/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto';
        let page = await admin.request(pagePath);
        assert.equal(page.status, 200);
        assert.match(page.text, /Bitcoin wallet address/);
        const submit = async (changes: Record<string, string | null>) => {
          const fields = formFields(page.text, /<form[^>]*id="mainform"[^>]*>([\s\S]*?)<\/form>/g)[0];
          if (!fields?.has('_wpnonce')) {
            throw new Error('the WooCommerce settings form is not on the page');
          }
          const form = new URLSearchParams();
          for (const [k, v] of fields) {
            form.set(k, v);
          }
          for (const [k, v] of Object.entries(changes)) {
            if (v === null) {
              form.delete(`woocommerce_card2crypto_${k}`);
            } else {
              form.set(`woocommerce_card2crypto_${k}`, v);
            }
          }
          form.set('save', 'Save changes');
          page = await admin.request(pagePath, { form });
          return savedWith(site, 'woocommerce_card2crypto_settings', 'card2crypto_checkout_partner_secret');
        };
        // Saving tests the credentials with a signed params request (the fake service signs with API_SECRET).
        const baseUrl = `http://127.0.0.1:${apiPort}/ok`;
        let saved = await submit({
          enabled: 'yes',
          wallet_address: WALLET,
          partner_token: 'shop-token',
          partner_secret: API_SECRET,
          base_url: baseUrl,
          title: 'Pay by card',
        });
        assert.equal(saved.enabled, 'yes');
        assert.equal(saved.wallet_address, WALLET);
        assert.equal(saved.partner_secret, API_SECRET);
        assert.equal(page.text.includes(API_SECRET), false, 'the secret never comes back to the browser');
        assert.match(page.text, /A secret is saved/);
        assert.match(page.text, /The service accepted the partner token and secret\./);

        // A secret the service's answers are not signed with: refused, said next to the secret, nothing saved.
        saved = await submit({ partner_secret: 'shop-secret-wrong', title: 'Typed title' });
        assert.equal(saved.partner_secret, API_SECRET, 'a refused secret is not saved');
        assert.equal(saved.title, 'Pay by card', 'a refused save writes nothing');
        assert.equal(page.text.includes('shop-secret-wrong'), false, 'a typed secret never comes back to the browser');
        assert.match(page.text, /Nothing was saved: the service refuses these credentials/);
        assert.match(page.text, /id="woocommerce_card2crypto_partner_secret-error"[^>]*>[\s\S]*?not signed with this partner secret/);
        assert.match(page.text, /id="woocommerce_card2crypto_title"[^>]*value="Typed title"|value="Typed title"[^>]*id="woocommerce_card2crypto_title"/);
        assert.doesNotMatch(page.text, /Your settings have been saved/);
        // The refused credentials are not the store's: its state, and the status box, still speak of the saved ones.
        assert.match(page.text, /data-card2crypto="connection">Still connected with the saved credentials/);
        const health = await site.probe<{ state?: string } | null>({ action: 'get_option', name: 'card2crypto_checkout_service_health' });
        assert.equal(health?.state, 'ok', `the saved credentials' state stands: ${JSON.stringify(health)}`);

        // The wallet's extended public key is kept out of pages, but it is no secret, and never called one.
        assert.match(page.text, /reveals every address of the wallet and so its whole payment history/);
        assert.match(page.text, /No key is saved yet\./);
        assert.doesNotMatch(page.text, /Kept like the partner secret/);

        // Fields failing their rules: nothing saved, each error next to its field, what was typed kept.
        saved = await submit({
          wallet_address: `${WALLET.slice(0, -1)}r`,
          partner_secret: '',
          wallet_key_secret: WALLET_VPUB,
          title: 'Card payment',
          store_currency: 'ISK',
          base_url: 'ftp://x',
        });
        assert.equal(saved.wallet_address, WALLET, 'a wallet with a typo is not saved');
        assert.equal(saved.partner_secret, API_SECRET, 'an empty secret field keeps the saved secret');
        assert.equal(saved.title, 'Pay by card', 'a refused save writes nothing, not even its valid fields');
        assert.equal(saved.store_currency ?? '', '', 'an unsupported currency is not saved');
        assert.match(page.text, /Bitcoin wallet address: Checksum mismatch/);
        assert.match(page.text, /Store currency: &quot;ISK&quot; is not a supported fiat currency|Store currency: "ISK" is not a supported fiat currency/);
        assert.match(page.text, /API address: enter an absolute address/);
        assert.match(page.text, /id="woocommerce_card2crypto_wallet_address-error"/);
        assert.match(page.text, /value="Card payment"/);
        assert.match(page.text, /Nothing was saved: correct the fields marked below/);
        assert.match(page.text, /id="woocommerce_card2crypto_wallet_key_secret-error"[^>]*>[\s\S]*?The key you entered was not saved: enter it again\./);
        assert.doesNotMatch(page.text, /The secret you entered was not saved/, 'no secret was typed');

        // A testnet wallet is refused in production; unticking the checkbox disables.
        saved = await submit({ environment: 'production', wallet_address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' });
        assert.equal(saved.environment ?? 'sandbox', 'sandbox', 'nothing saved');
        assert.match(page.text, /Bitcoin wallet address: This is a testnet address; expected mainnet/);
        saved = await submit({ enabled: null, environment: 'sandbox', wallet_address: WALLET, base_url: baseUrl, store_currency: '', title: 'Pay by card' });
        assert.equal(saved.enabled, 'no');
        if ('CARD2CRYPTO_PARTNER_TOKEN' in config.defines) {
          assert.match(page.text, /Set in wp-config\.php by CARD2CRYPTO_PARTNER_TOKEN/);
        }
      });

      test('a stale refusal is asked again without holding a page and without WP-Cron: after the answer on PHP-FPM, once across concurrent requests', async (t) => {
        if (!site.woocommerce) {
          t.skip(`WooCommerce not available: ${site.woocommerceMessage}`);
          return;
        }
        const option = 'woocommerce_card2crypto_settings';
        const secretOption = 'card2crypto_checkout_partner_secret';
        // (An option not saved yet reads as an empty answer: put back as empty.)
        const saved = await site.probe<unknown>({ action: 'get_option', name: option }).catch(() => null);
        const secretBefore = await site.probe<unknown>({ action: 'get_option', name: secretOption }).catch(() => null);
        t.after(async () => {
          await site.probe({ action: 'set_raw_option', name: option, value: saved ?? {} });
          await site.probe({ action: 'set_raw_option', name: secretOption, value: secretBefore ?? {} });
          await site.probe({ action: 'delete_option', name: 'card2crypto_checkout_service_health' });
        });
        // The service answers a params request after 2.5 s (within the client's 3 s) and accepts the store.
        // Written as stored, around the settings' own save rules (a service address is an administrator's to change).
        await site.probe({
          action: 'set_raw_option',
          name: option,
          value: { enabled: 'yes', partner_token: 'shop-token', wallet_address: WALLET, environment: 'sandbox', base_url: `http://127.0.0.1:${apiPort}/slow` },
        });
        await site.probe({ action: 'set_raw_option', name: secretOption, value: { value: API_SECRET } });
        // The service refused the store two minutes ago: the state is older than its one-minute lifetime.
        await site.probe({ action: 'service_health', write: 'refused', age: 120 });
        apiRequests.length = 0;

        // Three visitors' requests read the stale state at once.
        const reads = await Promise.all(
          [0, 1, 2].map(async () => {
            const started = Date.now();
            const read = await site.probe<{ available: boolean; queued: number }>({ action: 'service_health', read: true });
            return { ...read, ms: Date.now() - started };
          }),
        );
        for (const read of reads) {
          assert.equal(read.available, false, 'the previous answer holds until the service answers');
          assert.ok(read.ms < 2000, `a visitor's answer does not wait for the service's 2.5 s (took ${read.ms} ms)`);
        }
        const health = () => site.probe<{ state: string } | null>({ action: 'get_option', name: 'card2crypto_checkout_service_health' });
        if (config.php === 'native') {
          // PHP-FPM sends the answer, then the same request asks: no Action Scheduler, no WP-Cron loopback.
          assert.deepEqual(
            reads.map((r) => r.queued),
            [0, 0, 0],
          );
          const deadline = Date.now() + 20_000;
          while ((await health())?.state !== 'ok' && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          assert.equal((await health())?.state, 'ok', 'the service accepted the store: the method is offered again');
          assert.equal(apiRequests.length, 1, `one params request for three visitors (${apiRequests.length})`);
          const later = await site.probe<{ available: boolean; queued: number }>({ action: 'service_health', read: true });
          assert.deepEqual(later, { available: true, queued: 0 });
        } else {
          // Playground's PHP cannot send its answer first: one background check waits in Action Scheduler.
          assert.ok(
            reads.every((r) => r.queued === 1),
            JSON.stringify(reads),
          );
          assert.equal(apiRequests.length, 0, 'no visitor request asked the service');
        }
      });

      test('a new address per order: concurrent checkouts on every PHP worker take distinct indexes with no gap; a freed index is taken first', async (t) => {
        if (!site.woocommerce) {
          t.skip(`WooCommerce not available: ${site.woocommerceMessage}`);
          return;
        }
        const option = 'woocommerce_card2crypto_settings';
        const keyOption = 'card2crypto_checkout_wallet_key_secret';
        const saved = await site.probe<unknown>({ action: 'get_option', name: option }).catch(() => null);
        t.after(async () => {
          await site.probe({ action: 'set_raw_option', name: option, value: saved ?? {} });
          await site.probe({ action: 'delete_option', name: keyOption });
        });
        // A gap limit of 1000: the 200 checkouts below stay inside what the wallet sees.
        await site.probe({ action: 'set_raw_option', name: option, value: { enabled: 'yes', wallet_mode: 'xpub', environment: 'sandbox', gap_limit: '1000' } });
        await site.probe({ action: 'set_raw_option', name: keyOption, value: { value: WALLET_VPUB } });
        const expected = deriveAddresses(WALLET_VPUB, { from: 0, count: 201, environment: 'sandbox' }).map((a) => a.address);
        const fresh = await site.probe<{ first: string[]; gap: number }>({ action: 'order_address', gap: true });
        assert.deepEqual(fresh.first, expected.slice(0, 3), "the settings page shows the wallet's first three addresses, as core derives them");
        assert.equal(fresh.gap, 0);

        // 200 checkouts at once (PHP-FPM's workers take them four at a time, on one MariaDB).
        const count = config.php === 'native' ? 200 : 20;
        const taken = await Promise.all(
          Array.from({ length: count }, () =>
            site.probe<{ order: number; attempt: number; wallet: string; index: number; address: string; meta: { index: number; address: string } }>({
              action: 'order_address',
            }),
          ),
        );
        const failed = taken.filter((x) => typeof x.index !== 'number');
        assert.deepEqual(failed, [], 'every checkout got its address');
        const indexes = taken.map((x) => x.index).sort((a, b) => a - b);
        assert.deepEqual(
          indexes,
          Array.from({ length: count }, (_, i) => i),
          'every index once, none skipped',
        );
        for (const x of taken) {
          assert.equal(x.address, expected[x.index], `index ${x.index} is the wallet's address ${x.index}`);
          assert.equal(x.wallet, x.address, 'the attempt asks for that address');
          assert.deepEqual(x.meta, { index: x.index, address: x.address, payment: '' }, 'the order keeps the index and the address');
        }
        assert.equal(new Set(taken.map((x) => x.address)).size, count, 'no two orders share an address');

        // The service confirmed that the payment at index 7 ended unpaid: the next order takes 7, the one after the next new index.
        const seventh = taken.find((x) => x.index === 7)!;
        const freed = await site.probe<{ gap: number; highest: number }>({ action: 'order_address', free: seventh.attempt });
        assert.equal(freed.highest, count - 1);
        const reuse = await site.probe<{ index: number; address: string }>({ action: 'order_address' });
        assert.equal(reuse.index, 7, "the freed index is taken first (the wallet's gap limit)");
        assert.equal(reuse.address, expected[7]);
        const next = await site.probe<{ order: number; index: number }>({ action: 'order_address' });
        assert.equal(next.index, count);
        // An unpaid order keeps its address across its payments: ten more payments of one order, one index.
        const again = await Promise.all(
          Array.from({ length: 10 }, () => site.probe<{ index: number; address: string }>({ action: 'order_address', order: next.order })),
        );
        assert.deepEqual(
          again.map((x) => x.index),
          Array(10).fill(count),
          'every payment of the order is signed for its one address',
        );

        // The owner lowers the gap limit to 20 (an older version handed out 201 addresses with no payment): the wallet
        // does not show the addresses past index 19, and the notice says so, with the gap limit the wallet needs.
        await site.probe({ action: 'set_raw_option', name: option, value: { enabled: 'yes', wallet_mode: 'xpub', environment: 'sandbox', gap_limit: '20' } });
        const gap = await site.probe<{ gap: number; warn: boolean; limit: number; standing: string; cap: number }>({ action: 'order_address', gap: true });
        assert.equal(gap.gap, count + 1, 'no payment yet: every address handed out counts');
        assert.equal(gap.limit, 20);
        assert.equal(gap.cap, 19);
        assert.equal(gap.standing, 'past');
        assert.equal(gap.warn, true, 'past the gap limit: the owner is warned');
        const owner = new AdminSession(site.url);
        await owner.login();
        const dashboard = await owner.request('/wp-admin/index.php');
        assert.match(
          dashboard.text,
          /card2crypto-address-gap[\s\S]*?Card2Crypto: your wallet does not show payments to some addresses\.[\s\S]*?Some addresses are already past it \(up to index 200\): payments to them do not show in your wallet until you raise its gap limit to at least 201\./,
          'the admin notice says so on any screen, and what the wallet needs',
        );
        // No new address past what the wallet sees: a new order's payment is refused in plain words ...
        const refused = await site.probe<{ refused?: string }>({ action: 'order_address' });
        assert.equal(refused.refused, 'Card payment cannot take new orders right now. Please try again in an hour.');
        // ... until an order inside the gap gives its address back: the next order takes it.
        const third = taken.find((x) => x.index === 3)!;
        await site.probe({ action: 'order_address', free: third.attempt });
        const inside = await site.probe<{ index: number }>({ action: 'order_address' });
        assert.equal(inside.index, 3, 'a freed index inside the gap');

        // The owner pastes BIP84's documented account key (a zpub: mainnet, so production) and sees the addresses
        // every BIP84 wallet shows for it, and the warning, on the settings page.
        await site.probe({
          action: 'set_raw_option',
          name: option,
          value: { enabled: 'yes', wallet_mode: 'xpub', environment: 'production', gap_limit: '20' },
        });
        await site.probe({ action: 'set_raw_option', name: keyOption, value: { value: BIP84_ZPUB } });
        const admin = new AdminSession(site.url);
        await admin.login();
        const settingsPage = await admin.request('/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto');
        assert.equal(settingsPage.status, 200);
        const box = /<ol start="0" data-card2crypto="first-addresses">([\s\S]*?)<\/ol>/.exec(settingsPage.text)?.[1] ?? '';
        assert.deepEqual(
          [...box.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]),
          ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g', 'bc1qp59yckz4ae5c4efgw2s5wfyvrz0ala7rgvuz8z'],
        );
        assert.ok(!settingsPage.text.includes(BIP84_ZPUB), 'the page never shows the key');
        assert.match(settingsPage.text, /data-card2crypto="address-gap">0 addresses past the last paid one are in use; your wallet looks 20 addresses ahead/);

        // Twenty orders of this wallet hold every address it sees: the owner was told before (near), is told now (full),
        // and the twenty-first order is refused rather than given an address the wallet would not show.
        const standings: string[] = [];
        for (let i = 0; i < 20; i++) {
          const one = await site.probe<{ index: number }>({ action: 'order_address' });
          assert.equal(one.index, i);
          standings.push((await site.probe<{ standing: string }>({ action: 'order_address', gap: true })).standing);
        }
        assert.deepEqual(standings.slice(0, 14), Array(14).fill('ok'));
        assert.deepEqual(standings.slice(14, 19), Array(5).fill('near'), 'told before it happens');
        assert.equal(standings[19], 'full');
        assert.equal(
          (await site.probe<{ refused?: string }>({ action: 'order_address' })).refused,
          'Card payment cannot take new orders right now. Please try again in an hour.',
        );
        const full = await admin.request('/wp-admin/index.php');
        assert.match(
          full.text,
          /card2crypto-address-gap[\s\S]*?Card2Crypto: new orders cannot be paid by card now: every address your wallet sees is in use\./,
        );
      });

      test("the visitors' budget on the shared database: takers at once on every PHP worker never pass more than the limit", async () => {
        const budget = <T>(op: string, input: Record<string, unknown> = {}) => site.probe<T>({ action: 'budget', op, ...input });
        assert.equal(await budget<boolean>('install'), true, 'the table is made (dbDelta)');
        const now = Math.floor(Date.now() / 1000);
        const take = (name: string, limit: number, countRefused: boolean, times: number, at = now) =>
          budget<number[]>('take', { name, limit, span: 60, count_refused: countRefused, times, now: at });
        // 40 requests at once (PHP-FPM's workers take them four at a time, on one MariaDB), 25 takes each, from one
        // budget of 100 a minute: exactly 100 pass, whichever worker's turn it is.
        const requests = config.php === 'native' ? 40 : 4;
        const burst = (await Promise.all(Array.from({ length: requests }, () => take('burst', 100, false, 25)))).flat();
        assert.equal(burst.filter((wait) => wait === 0).length, Math.min(100, requests * 25), 'never more than the limit pass');
        assert.ok(
          burst.filter((wait) => wait !== 0).every((wait) => wait >= 1 && wait <= 120),
          'every refusal is told when one more fits',
        );
        assert.equal(await budget<number>('spent', { name: 'burst' }), Math.min(100, requests * 25), 'a refused take is not counted');
        // Counted refusals (the checkout's order budget): every take counts, ten pass.
        const flood = (await Promise.all(Array.from({ length: requests }, () => take('flood', 10, true, 25)))).flat();
        assert.equal(flood.filter((wait) => wait === 0).length, 10);
        assert.equal(await budget<number>('spent', { name: 'flood' }), requests * 25);
        // A sliding window: three in a minute; a minute later the three still weigh, and the refusal says when one fits.
        assert.deepEqual(await take('slide', 3, false, 4), [0, 0, 0, 60 + 20]);
        assert.deepEqual(await take('slide', 3, false, 1, now + 60), [20]);
        assert.deepEqual(await take('slide', 3, false, 1, now + 80), [0]);
        // The hourly clean-up deletes the budgets whose windows have passed, and nothing else.
        assert.equal(await budget<number>('clean', { now: now + 100 }), 0);
        assert.equal(await budget<number>('clean', { now: now + 60 + 121 }), 3);
        assert.equal(await budget<number>('spent', { name: 'slide' }), 0);
        assert.equal(await budget<boolean>('drop'), false, 'dropped');
      });

      test("a site lock taken without waiting: another connection's hold is an answer, the lock given back however the work ends", async () => {
        const got = await site.probe<{
          native: boolean;
          busy?: { held: string; result: boolean; ms: number };
          free: boolean;
          after?: string;
          after_throw?: string;
          ran: string[];
        }>({ action: 'site_lock', name: 'c2c_test_batch' });
        assert.equal(got.free, true, 'free: the work ran');
        if (!got.native) {
          // SQLite (Playground) has no named locks: the work runs without one.
          assert.deepEqual(got.ran, ['free']);
          return;
        }
        assert.equal(got.busy!.held, '1', 'the other connection holds the lock');
        assert.equal(got.busy!.result, false, 'held elsewhere: not run');
        assert.ok(got.busy!.ms < 1000, `not waited for (${got.busy!.ms} ms)`);
        assert.deepEqual(got.ran, ['free', 'while running, free to another connection: 0', 'threw: inside']);
        assert.equal(got.after, '1', 'given back after the work');
        assert.equal(got.after_throw, '1', 'given back after a failure');
      });

      test('uninstall removes the settings only when the owner asked for it', async () => {
        // Whatever the owner chose, the secret and the widget's last connection check (a hash of the credentials) go.
        const scenarios = [
          ['card2crypto-checkout/card2crypto-checkout.php', 'woocommerce_card2crypto_settings', ['card2crypto_checkout_partner_secret']],
          [
            'card2crypto-widget/card2crypto-widget.php',
            'card2crypto_widget_settings',
            ['card2crypto_widget_partner_secret', 'card2crypto_widget_connection', 'card2crypto_widget_db_version'],
            // The visitors' budgets (counts of the last minutes) go always.
            ['card2crypto_widget_budgets'],
          ],
        ].flatMap(([plugin, option, always, tables]) => [
          { plugin, option, always, tables, stored: { title: 'kept', delete_data_on_uninstall: 'no' } },
          { plugin, option, always, tables, stored: { title: 'kept' } },
          { plugin, option, always, tables, stored: { title: 'gone', delete_data_on_uninstall: 'yes' } },
        ]);
        const remaining = await site.probe<unknown[]>({ action: 'uninstall', scenarios });
        assert.deepEqual(remaining, [
          { title: 'kept', delete_data_on_uninstall: 'no' },
          { title: 'kept' },
          null,
          { title: 'kept', delete_data_on_uninstall: 'no' },
          { title: 'kept' },
          null,
        ]);
      });

      test('without WooCommerce the checkout plugin shows a notice instead of failing', async (t) => {
        if (!site.woocommerce) {
          t.skip('WooCommerce was never active here');
          return;
        }
        await site.probe({ action: 'deactivate', plugin: 'woocommerce/woocommerce.php' });
        const admin = new AdminSession(site.url);
        await admin.login();
        const page = await admin.request('/wp-admin/plugins.php');
        assert.equal(page.status, 200);
        assert.match(page.text, /Card2Crypto Checkout needs WooCommerce/);
        assert.doesNotMatch(page.text, /Fatal error|critical error/);
        const state = (await (await site.get('/wp-json/c2c-test/v1/state')).json()) as State;
        assert.ok(state.active_plugins.includes('card2crypto-checkout/card2crypto-checkout.php'));
        assert.equal(state.checkout?.version, CHECKOUT_LIB);
      });
    },
  );
}
