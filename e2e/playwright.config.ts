// One WordPress boot per run (global setup), reused by every spec. In the
// full mode the "install" project uploads the plugin zips first and everything
// else depends on it; the smoke mode checks the `npm start` store alone.
// e2e/run.mjs runs this config once per WordPress/WooCommerce pair.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './browser.ts';
import { E2E_MODE, E2E_RUN_DIR, E2E_SITE } from './run-info.ts';

const executablePath = chromiumExecutable();

export default defineConfig({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // One retry in CI only: a slow request on a loaded 2-core machine can time
  // out; a real failure fails twice and still fails the run.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 5 * 60_000,
  expect: { timeout: 30_000 },
  // The JSON report gives e2e/run.mjs each file's duration.
  reporter: [['list'], ['json', { outputFile: `${E2E_RUN_DIR}report.json` }]],
  outputDir: `../test-results/${E2E_SITE}`,
  use: {
    baseURL: process.env.WP_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    actionTimeout: 60_000,
    navigationTimeout: 3 * 60_000,
    // Recording a trace costs every action a screenshot and a DOM snapshot, on a 2-core machine already busy with
    // two WordPress sites: in CI a failed test's retry records it, locally the failed test itself.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) },
  },
  projects:
    E2E_MODE === 'smoke'
      ? [{ name: 'smoke', testMatch: /store\.spec\.ts/ }]
      : [
          { name: 'install', testMatch: /install-zips\.spec\.ts/ },
          { name: 'store', testIgnore: /install-zips\.spec\.ts/, dependencies: ['install'] },
        ],
});
