/**
 * The specs' `test`: Playwright's, with one automatic fixture that closes,
 * at the end of each test, every browser context the test opened itself
 * (`browser.newPage()`, `browser.newContext()`: Playwright closes only the
 * `context` and `page` fixtures it made). A page left open keeps running
 * for the rest of its lane: WordPress's heartbeat, a thank-you page's polls,
 * the compositing of its spinners. Session 16 counted some forty such pages
 * alive at once in a lane, the browsers' GPU processes taking about a core
 * between them, and every later spec slowed. Contexts opened in a
 * `beforeAll` (shared by a file's tests) exist before the test starts, and
 * are left to their file.
 */
import { test as base } from '@playwright/test';

export * from '@playwright/test';

export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => undefined)),
      );
    },
    { auto: true },
  ],
});
