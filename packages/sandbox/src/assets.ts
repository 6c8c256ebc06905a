/** Static files of the sandbox's pages (packages/sandbox/assets), read once and kept in memory. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { THEME_PROPERTIES } from '@card2crypto/core';
import { sendError } from './http.js';

// dist/src/assets.js -> packages/sandbox/assets/
const ROOT = fileURLToPath(new URL('../../assets/', import.meta.url));

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** Files that may be served, by public name. */
const FILES: Record<string, string> = {
  'widget.js': 'widget/widget.js',
  'frame.js': 'widget/frame.js',
  'frame.css': 'widget/frame.css',
  'landing.js': 'widget/landing.js',
  'local-time.js': 'local-time.js',
  'pages.css': 'pages.css',
  'dashboard.js': 'dashboard/dashboard.js',
  'dashboard.css': 'dashboard/dashboard.css',
};

const cache = new Map<string, string>();

/** The widget's default colours: `.widgetColor` with every property of core's theme table at its default. */
export function themeDefaultsCss(): string {
  return `.widgetColor {\n${THEME_PROPERTIES.map((t) => `  ${t.cssVar}: ${t.default};\n`).join('')}}\n`;
}

function load(name: string): string | undefined {
  const cached = cache.get(name);
  if (cached !== undefined) {
    return cached;
  }
  let text: string;
  if (name === 'theme.css') {
    text = themeDefaultsCss();
  } else {
    const file = FILES[name];
    if (!file) {
      return undefined;
    }
    text = readFileSync(ROOT + file, 'utf8');
  }
  cache.set(name, text);
  return text;
}

export function sendAsset(res: ServerResponse, name: string): void {
  const text = load(name);
  if (text === undefined) {
    sendError(res, 404, { code: 'not_found', message: `no asset ${name}` });
    return;
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  res.writeHead(200, {
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    // The widget script is included by partner pages on other origins.
    'access-control-allow-origin': '*',
  });
  res.end(text);
}
