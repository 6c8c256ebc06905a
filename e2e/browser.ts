// Which Chromium runs the suite: Playwright's own when installed, else
// Debian's /usr/bin/chromium (CHROMIUM_PATH overrides both).
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
  if (existsSync('/usr/bin/chromium')) {
    return '/usr/bin/chromium';
  }
  throw new Error(
    "No Chromium for the e2e suite: install Playwright's (npx playwright install chromium) or Debian's (apt-get install -y chromium), or set CHROMIUM_PATH.",
  );
}
