/**
 * A headless Chromium for the scale benchmark's browser figures: Playwright's
 * own build when installed, else Debian's headless shell, else Debian's full
 * Chromium (CHROMIUM_PATH overrides them all), as e2e/browser.ts chooses.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export async function launchChromium(): Promise<Browser> {
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
  const override = process.env.CHROMIUM_PATH;
  let executablePath: string | undefined = override;
  if (!executablePath) {
    let own = '';
    try {
      own = chromium.executablePath();
    } catch {
      // Playwright's registry may not know this platform.
    }
    if (!own || !existsSync(own)) {
      executablePath = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));
      if (!executablePath) {
        throw new Error("No Chromium: install Debian's chromium-headless-shell (or chromium), or set CHROMIUM_PATH.");
      }
    }
  }
  return chromium.launch({ headless: true, args, ...(executablePath ? { executablePath } : {}) });
}
