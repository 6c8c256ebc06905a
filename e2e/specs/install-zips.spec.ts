// A store owner installs both plugins the way the readme says: Plugins → Add
// New → Upload Plugin with the release zips, then Activate. Then every admin
// page the plugins add (and the ones they touch) must open without a PHP
// error, warning or notice and without a JavaScript error.
import { expect, test, type Page } from './fixtures';
import { RequestUtils } from '@wordpress/e2e-test-utils-playwright';
import { DebugLog, collectJsErrors, ourProblems, phpProblemsIn } from '../checks.ts';
import { WOOCOMMERCE_MISSING, runInfo } from '../run-info.ts';

const info = runInfo();
test.use({ baseURL: info.storeUrl, storageState: info.adminStatePath });

async function uploadAndActivate(page: Page, slug: string, file: string): Promise<void> {
  await page.goto('/wp-admin/plugin-install.php?tab=upload');
  await page.locator('#pluginzip').setInputFiles(file);
  await page.locator('#install-plugin-submit').click();
  await expect(page.locator('#wpbody-content')).toContainText('Plugin installed successfully.', { timeout: 180_000 });
  const activate = page.locator('#wpbody-content a', { hasText: 'Activate Plugin' });
  await expect(activate, `${slug}: WordPress offered no "Activate Plugin" after the upload`).toBeVisible();
  await activate.click();
  await page.waitForLoadState('load');
  await expect(page.locator('body')).not.toContainText('Plugin could not be activated');
}

async function pluginStatus(slug: string, main: string): Promise<string | undefined> {
  const requestUtils = await RequestUtils.setup({ baseURL: `${info.storeUrl}/`, storageStatePath: info.adminStatePath, user: info.admin });
  const plugins = (await requestUtils.rest({ path: '/wp/v2/plugins' })) as { plugin: string; status: string }[];
  await requestUtils.request.dispose();
  return plugins.find((p) => p.plugin === `${slug}/${main.replace(/\.php$/, '')}`)?.status;
}

for (const zip of info.zips) {
  const needsWooCommerce = zip.slug === 'card2crypto-checkout';
  test(`uploads and activates ${zip.slug}.zip`, { tag: '@oldest' }, async ({ page }) => {
    test.skip(needsWooCommerce && !info.hasWooCommerce, WOOCOMMERCE_MISSING);
    expect(zip.error, `No zip for ${zip.slug} (run npm run zip to see why)`).toBeNull();
    await uploadAndActivate(page, zip.slug, zip.file!);
    expect(await pluginStatus(zip.slug, zip.main)).toBe('active');
  });
}

test('no PHP problem or JavaScript error on the admin pages', { tag: '@oldest' }, async ({ page }) => {
  // The newest pair's second lane: its first lane checks the same pair's pages (e2e/run.mjs).
  const checkedBy = process.env.CARD2CRYPTO_E2E_ADMIN_PAGES;
  test.skip(Boolean(checkedBy), `the admin pages of this pair are checked by the ${checkedBy} run`);
  test.setTimeout(20 * 60_000); // a dozen admin screens, each a few seconds of WebAssembly PHP
  const jsErrors = collectJsErrors(page, info.storeUrl);
  const log = new DebugLog(info.siteDir);
  const problems: string[] = [];

  // The plugins' own pages: their settings links on the Plugins screen and
  // their entries in the admin menu.
  await page.goto('/wp-admin/plugins.php');
  const discovered = new Set<string>();
  for (const zip of info.zips) {
    const row = page.locator(`tr[data-plugin^="${zip.slug}/"]`);
    for (const href of await row.locator('.row-actions a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))) {
      if (/[?&](page|tab|section)=/.test(href) && !/action=(deactivate|delete)/.test(href)) {
        discovered.add(href);
      }
    }
  }
  for (const href of await page.locator('#adminmenu a[href*="card2crypto"]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))) {
    discovered.add(href);
  }

  const pages = ['/wp-admin/', '/wp-admin/plugins.php', '/wp-admin/widgets.php', ...discovered];
  if (info.hasWooCommerce) {
    pages.push(
      '/wp-admin/admin.php?page=wc-settings',
      '/wp-admin/admin.php?page=wc-settings&tab=checkout',
      '/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto',
    );
  } else {
    console.log(WOOCOMMERCE_MISSING);
  }

  for (const path of new Set(pages)) {
    // Some screens replace themselves on load (WooCommerce's payments tab
    // opens its React page): the first navigation is then aborted, the next one counts.
    const response = await page.goto(path).catch((error: Error) => {
      if (!/ERR_ABORTED|frame was detached/.test(error.message)) {
        throw error;
      }
      return null;
    });
    if (response) {
      expect(response.status(), `${path} answered ${response.status()}`).toBeLessThan(400);
    }
    await page.waitForLoadState('load');
    for (const line of phpProblemsIn(await page.locator('body').innerText())) {
      problems.push(`${path}: ${line}`);
    }
    for (const line of ourProblems(log.newEntries())) {
      problems.push(`${path} (debug.log): ${line}`);
    }
  }
  expect(problems, 'PHP errors, warnings or notices').toEqual([]);
  expect(jsErrors, 'JavaScript errors').toEqual([]);
});
