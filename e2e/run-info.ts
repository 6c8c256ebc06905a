// What global setup learned about the run, shared with the specs through a
// JSON file named by C2C_E2E_INFO (environment variables set in global setup
// reach the workers).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RunInfo {
  /** Booted here (true) or an existing WordPress given by WP_BASE_URL (false). */
  booted: boolean;
  /** native or playground (null for an existing WordPress). */
  runtime: string | null;
  /** The booted site's state directory (holding running.json), when booted here. */
  stateDir: string | null;
  storeUrl: string;
  admin: { username: string; password: string };
  adminStatePath: string;
  hasWooCommerce: boolean;
  woocommerceMessage: string | null;
  woocommerceVersion: string | null;
  wordpressVersion: string | null;
  sandbox: { url: string; dashboardUrl: string } | null;
  /** The WordPress directory on this machine (for the debug log), when booted here. */
  siteDir: string | null;
  /** Zips to upload, or why they could not be built. */
  zips: { slug: string; main: string; file: string | null; error: string | null }[];
  products: { sku: string; url: string | null }[];
  /** The store's WooCommerce pages as the seed reported them (the block checkout, the classic one beside it), when booted here. */
  pages?: { shop?: string | null; cart?: string | null; checkout?: string | null; classic_checkout?: string | null } | null;
}

/** The harness site e2e runs use; another name lets two runs share a checkout (each boots its own WordPress). */
export const E2E_SITE = process.env.CARD2CRYPTO_E2E_SITE || 'e2e';

/** full: the whole suite on zips uploaded by the install project; smoke: the `npm start` store (plugins mounted from source), store.spec.ts only. */
export const E2E_MODE = process.env.CARD2CRYPTO_E2E_MODE === 'smoke' ? 'smoke' : 'full';

/** Where a run keeps run-info.json and the admin's session (the site's own files are in RunInfo.stateDir). */
export const E2E_RUN_DIR = fileURLToPath(new URL(`../.card2crypto/${E2E_SITE}-run/`, import.meta.url));

const LAST_RUN = `${E2E_RUN_DIR}run-info.json`;

/**
 * The current run's info. Outside a run (`playwright test --list`, an editor
 * plugin collecting tests) global setup has not run: the last run's file, or
 * a stand-in that boots nothing, lets the specs load.
 */
export function runInfo(): RunInfo {
  const file = process.env.C2C_E2E_INFO ?? (existsSync(LAST_RUN) ? LAST_RUN : null);
  if (file) {
    return JSON.parse(readFileSync(file, 'utf8')) as RunInfo;
  }
  return {
    booted: false,
    runtime: null,
    stateDir: null,
    storeUrl: 'http://127.0.0.1:9',
    admin: { username: 'admin', password: 'password' },
    adminStatePath: '',
    hasWooCommerce: false,
    woocommerceMessage: 'not started',
    woocommerceVersion: null,
    wordpressVersion: null,
    sandbox: null,
    siteDir: null,
    zips: [],
    products: [],
  };
}

export const WOOCOMMERCE_MISSING =
  '*** WooCommerce not found: WooCommerce tests SKIPPED. Put a WooCommerce plugin folder at ~/.cache/card2crypto/woocommerce/<version> or set WOOCOMMERCE_DIR=/path/to/woocommerce, then run again.';
