/**
 * The store's outgoing mail as a person would read it: the native runtime's
 * sendmail stand-in appends every message to the site's logs/mail.log
 * (scripts/lib/native/php-fpm.mjs). Messages are split, their encoded
 * headers (RFC 2047) and quoted-printable or base64 bodies decoded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInfo } from '../run-info.ts';

export interface Mail {
  to: string;
  from: string;
  subject: string;
  contentType: string;
  /** The decoded body (HTML for WooCommerce's mails), with tags and entities left as they are. */
  body: string;
  /** The body as text: tags removed, white space folded. */
  text: string;
}

/** Where the site's mail goes, or null (Playground, or an existing site the harness did not boot). */
export function mailLogPath(): string | null {
  const site = runInfo().siteDir;
  if (!site) {
    return null;
  }
  return [join(site, 'logs', 'mail.log'), join(site, '..', 'logs', 'mail.log')].find((file) => existsSync(file)) ?? null;
}

function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Every message in the log, oldest first. */
export function readMails(): Mail[] {
  const file = mailLogPath();
  if (!file) {
    return [];
  }
  const raw = readFileSync(file, 'utf8');
  const starts = [...raw.matchAll(/^To: /gm)].map((m) => m.index!);
  return starts.map((start, i) => {
    const message = raw.slice(start, starts[i + 1] ?? raw.length);
    const split = message.search(/\r?\n\r?\n/);
    const head = message.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
    const body = decodeBody(message.slice(split).trim(), header('Content-Transfer-Encoding'));
    return {
      to: decodeWords(header('To')),
      from: decodeWords(header('From')),
      subject: decodeWords(header('Subject')),
      contentType: header('Content-Type'),
      body,
      text: body
        .replace(/<style[\s\S]*?<\/style>/gi, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&#0?39;|&#8217;/g, "'")
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim(),
    };
  });
}

/** Messages to `address` whose subject or text names order `orderNumber` (#N). */
export function mailsAbout(address: string, orderNumber: number): Mail[] {
  const tag = new RegExp(`#${orderNumber}\\b`);
  return readMails().filter((m) => m.to.includes(address) && (tag.test(m.subject) || tag.test(m.text)));
}
