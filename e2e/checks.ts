// Checks every admin and store page gets: no PHP error text, no JavaScript
// error, and (when WordPress runs here) no new debug-log entry from our plugins.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

/** PHP's own error prefixes as printed on a page, and WordPress's fatal-error screen. */
export const PHP_PROBLEM = /\b(Fatal error|Parse error|Warning|Notice|Deprecated|Strict Standards):\s|There has been a critical error on this website/;

/** The PHP problems printed in `text` (one line each). */
export function phpProblemsIn(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => PHP_PROBLEM.test(line))
    .map((line) => line.trim().slice(0, 300));
}

/**
 * Collect JavaScript errors of `page`: uncaught exceptions and console errors
 * from the store itself. Console errors about resources on other hosts (the
 * run is offline: WooCommerce's marketplace images and the like) are left out.
 */
export function collectJsErrors(page: Page, storeUrl: string): string[] {
  const errors: string[] = [];
  const origin = new URL(storeUrl).origin;
  page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') {
      return;
    }
    const where = message.location().url;
    if (where && !where.startsWith(origin) && /Failed to load resource|net::ERR_/.test(message.text())) {
      return;
    }
    errors.push(`${page.url()}: ${message.text()}${where ? ` (${where})` : ''}`);
  });
  return errors;
}

/** Reads what WordPress appended to wp-content/debug.log since the last call. */
export class DebugLog {
  private readonly file: string | null;
  private offset = 0;

  constructor(siteDir: string | null) {
    this.file = siteDir ? join(siteDir, 'wp-content', 'debug.log') : null;
    this.offset = this.size();
  }

  get available(): boolean {
    return this.file !== null;
  }

  private size(): number {
    return this.file && existsSync(this.file) ? statSync(this.file).size : 0;
  }

  /** New log entries (each "[date] PHP ..." line) since the previous call. */
  newEntries(): string[] {
    if (!this.file || !existsSync(this.file)) {
      return [];
    }
    const size = this.size();
    if (size < this.offset) {
      this.offset = 0;
    }
    const text = readFileSync(this.file).subarray(this.offset, size).toString('utf8');
    this.offset = size;
    return text.split('\n').filter((line) => line.startsWith('['));
  }
}

/** Entries caused by our plugins, or fatal whoever caused them. */
export function ourProblems(entries: string[]): string[] {
  return entries.filter((line) => /\/plugins\/card2crypto-|card2crypto/i.test(line) || /PHP (Fatal|Parse) error/.test(line));
}
