// Which Chromium runs the suite: Playwright's own when installed, else
// Debian's headless shell (/usr/bin/chromium-headless-shell), else Debian's
// full /usr/bin/chromium (CHROMIUM_PATH overrides them all). The headless
// shell is what Playwright itself uses for headless runs: measured on the
// e2e sites, it spends about a third less CPU opening WordPress's pages than
// the full browser, whose window machinery runs even when headless; on a
// 2-core machine shared by two runs, Chromium's CPU is what the suite waits on.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** undefined means "Playwright's own build"; otherwise a path to launch. */
export function chromiumExecutable(): string | undefined {
  const override = process.env.CHROMIUM_PATH;
  if (override) {
    if (!existsSync(override)) {
      throw new Error(`CHROMIUM_PATH=${override} does not exist.`);
    }
    return override;
  }
  try {
    if (existsSync(chromium.executablePath())) {
      return undefined;
    }
  } catch {
    // Playwright's browser registry may not know this platform: fall through.
  }
  for (const debian of ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']) {
    if (existsSync(debian)) {
      return debian;
    }
  }
  throw new Error(
    "No Chromium for the e2e suite: install Playwright's (npx playwright install chromium) or Debian's (apt-get install -y chromium-headless-shell, or chromium), or set CHROMIUM_PATH.",
  );
}
