/** Small helpers for writing HTTP answers. */
import type { ServerResponse } from 'node:http';

export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
}

const COMMON = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

export function sendJsonText(res: ServerResponse, status: number, text: string, headers?: Record<string, string>): void {
  res.writeHead(status, {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(value), headers);
}

/** The project's error body (decisions.md, "Error bodies"): { error: { code, field?, message } }. */
export function sendError(res: ServerResponse, status: number, detail: ErrorDetail, headers: Record<string, string> = {}): void {
  const error: ErrorDetail = { code: detail.code, ...(detail.field !== undefined ? { field: detail.field } : {}), message: detail.message };
  sendJson(res, status, { error }, headers);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), ...headers });
  res.end(html);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON, 'content-length': 0, ...headers });
  res.end();
}

/** HTML-escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** JSON for a <script type="application/json"> block: nothing in it can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
