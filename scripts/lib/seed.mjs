// What the harness puts in a site: the config read by scripts/playground/seed.php
// (plugins to activate, WooCommerce options, sample products, plugin settings
// pointing at the sandbox, the widget block) and the blueprint that runs it.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PLUGINS, ROOT } from './paths.mjs';

/** The PHP the harness runs WordPress on (WooCommerce 9.x supports up to 8.4). */
export const PHP_VERSION = '8.3';
export const ADMIN = { username: 'admin', password: 'password' };
/** The demo store's name (WordPress's blogname), also the partner's name at the sandbox. */
export const SITE_TITLE = 'card2crypto demo store';
export const THEME_SLUG = 'card2crypto-demo-store';
export const CALLBACK_ROUTE = '/wp-json/card2crypto/v1/callback';
/** A valid mainnet address used as the store's payout wallet in the sandbox. */
export const SAMPLE_BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/**
 * The demo store's products: three within the service's EUR range (50.00 to
 * 5,000.00) so the method can be tried on each, and one below it (the
 * sticker pack) to show the buyer what happens when a cart is too small.
 */
export const SAMPLE_PRODUCTS = [
  { sku: 'c2c-hardware-wallet', name: 'Hardware wallet', price: '79.00', description: 'Keeps your keys offline. Pay by card, settle in BTC.' },
  { sku: 'c2c-node-hoodie', name: 'Node operator hoodie', price: '59.90', description: 'Warm, black, and running a full node (figuratively).' },
  { sku: 'c2c-whitepaper-print', name: 'Whitepaper print (A2)', price: '129.00', description: 'The nine pages that started it, printed on heavy paper.' },
  { sku: 'c2c-sticker-pack', name: 'Sticker pack', price: '4.90', description: 'Ten stickers for your laptop.' },
];

/** Per-site partner credentials, generated once and kept with the site. */
export async function partnerCredentials(harnessDir) {
  const file = join(harnessDir, 'partner.json');
  if (existsSync(file)) {
    return JSON.parse(await readFile(file, 'utf8'));
  }
  const credentials = { token: `demo-${randomBytes(8).toString('hex')}`, secret: randomBytes(32).toString('hex') };
  await mkdir(harnessDir, { recursive: true });
  await writeFile(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}

/** The widget block's name from the widget plugin's block.json (built or source), if any. */
export function widgetBlockName() {
  const widget = PLUGINS.find((plugin) => plugin.key === 'widget');
  for (const candidate of ['build/blocks/widget/block.json', 'src/blocks/widget/block.json', 'build/block.json', 'block.json', 'src/block.json']) {
    const file = join(widget.dir, candidate);
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')).name;
      } catch {
        // fall through to the default
      }
    }
  }
  return 'card2crypto/widget';
}

/**
 * Plugin settings pointing at the sandbox. Field ids are those of the settings
 * schema in @card2crypto/core (packages/core/src/settings-schema.ts); both
 * plugins store them as one array option each, checkboxes as 'yes'/'no'.
 */
export function pluginOptions({ partner, sandbox }) {
  const service = sandbox
    ? {
        environment: 'sandbox',
        base_url: sandbox.urls['base url'] || sandbox.url,
        widget_script_url: sandbox.urls['widget script url'] || `${sandbox.url}/widget.js`,
        landing_url: sandbox.urls['landing url'] || `${sandbox.url}/landing`,
      }
    : { environment: 'sandbox' };
  const credentials = { partner_token: partner.token, partner_secret: partner.secret };
  return {
    woocommerce_card2crypto_settings: {
      enabled: 'yes',
      wallet_address: SAMPLE_BTC_ADDRESS,
      ...credentials,
      ...service,
    },
    card2crypto_widget_settings: {
      title: 'Buy bitcoin with a card',
      default_fiat_currency: 'EUR',
      default_amount: '50',
      default_crypto_currency: 'BTC',
      ...credentials,
      ...service,
    },
  };
}

/**
 * Plugin basenames to activate: the ones mounted from source (none when the
 * e2e suite uploads them); the checkout only with WooCommerce, which it requires.
 */
export function pluginsToActivate(mountPlugins, woocommerce) {
  if (!mountPlugins) {
    return [];
  }
  return PLUGINS.filter((plugin) => existsSync(join(plugin.dir, plugin.main)) && (woocommerce || plugin.key !== 'checkout')).map(
    (plugin) => `${plugin.slug}/${plugin.main}`,
  );
}

/** Write config.json and blueprint.json into `harnessDir`; returns the blueprint path. */
export async function writeSeed({ harnessDir, woocommerce, mountPlugins, partner, sandbox, wp = 'latest', php = PHP_VERSION }) {
  const blockName = widgetBlockName();
  const config = {
    siteTitle: SITE_TITLE,
    siteTagline: 'Pay by card, settle in bitcoin',
    theme: THEME_SLUG,
    woocommerce: Boolean(woocommerce),
    woocommerceOptions: {
      woocommerce_currency: 'EUR',
      woocommerce_default_country: 'DE:BE',
      woocommerce_store_address: 'Unter den Linden 1',
      woocommerce_store_city: 'Berlin',
      woocommerce_store_postcode: '10117',
      woocommerce_coming_soon: 'no',
      woocommerce_store_pages_only: 'no',
      woocommerce_onboarding_profile: { skipped: true },
      woocommerce_task_list_hidden: 'yes',
      woocommerce_extended_task_list_hidden: 'yes',
      woocommerce_show_marketplace_suggestions: 'no',
      woocommerce_allow_tracking: 'no',
      woocommerce_enable_guest_checkout: 'yes',
      woocommerce_calc_taxes: 'no',
    },
    activate: pluginsToActivate(mountPlugins, woocommerce),
    options: pluginOptions({ partner, sandbox }),
    products: SAMPLE_PRODUCTS,
    widgetBlockName: blockName,
    widgetBlock: `<!-- wp:${blockName} /-->`,
  };
  await mkdir(harnessDir, { recursive: true });
  await writeFile(join(harnessDir, 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
  const blueprint = {
    $schema: 'https://playground.wordpress.net/blueprint-schema.json',
    // Without preferredVersions the blueprint would pick the newest PHP over --php.
    preferredVersions: { php, wp },
    features: { networking: true },
    steps: [{ step: 'runPHP', code: "<?php require '/card2crypto-scripts/seed.php';" }],
  };
  const file = join(harnessDir, 'blueprint.json');
  await writeFile(file, JSON.stringify(blueprint, null, 2));
  return file;
}

export async function readSeedResult(harnessDir) {
  const file = join(harnessDir, 'seed-result.json');
  return existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : null;
}

export const SCRIPTS_PLAYGROUND_DIR = join(ROOT, 'scripts', 'playground');
