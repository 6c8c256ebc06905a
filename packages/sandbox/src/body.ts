/**
 * Reading request bodies: a size limit, the content type, strict UTF-8.
 * Failures are BodyError with the HTTP status and the project's error code
 * (decisions.md, "Sandbox: request bodies").
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/**
 * One request header, read from rawHeaders: unlike `req.headers`, this does not
 * build the whole header object (a measurable share of a partner-API request).
 */
export function header(req: IncomingMessage, lowerName: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      return raw[i + 1];
    }
  }
  return undefined;
}

/**
 * The body as text. `json` requires a JSON content type (or none);
 * `form` requires application/x-www-form-urlencoded.
 */
export function readBody(req: IncomingMessage, maxBytes: number, kind: 'json' | 'form'): Promise<string> {
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (kind === 'json' && type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    return drainThen(req, new BodyError(400, 'invalid_json', `content type must be application/json, not ${type}`));
  }
  if (kind === 'form' && type !== 'application/x-www-form-urlencoded') {
    return drainThen(req, new BodyError(400, 'invalid_parameter', 'content type must be application/x-www-form-urlencoded'));
  }
  const declared = Number(header(req, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    return drainThen(req, tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed: BodyError | undefined;
    req.on('data', (chunk: Buffer) => {
      if (failed) {
        return;
      }
      size += chunk.length;
      if (size > maxBytes) {
        failed = tooLarge(maxBytes);
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (error) => reject(error));
    req.on('end', () => {
      if (failed) {
        return reject(failed);
      }
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (!isUtf8(bytes)) {
        reject(new BodyError(400, 'invalid_json', 'body is not valid UTF-8'));
      }
      // A byte order mark is not JSON (RFC 8259): kept, so the parser refuses it.
      else {
        resolve(bytes.toString('utf8'));
      }
    });
  });
}

function tooLarge(maxBytes: number): BodyError {
  return new BodyError(400, 'body_too_large', `body is larger than ${maxBytes} bytes`);
}

/** Rejects with `error` once the body has been read and thrown away (so the answer reaches the client cleanly). */
function drainThen(req: IncomingMessage, error: BodyError): Promise<string> {
  return new Promise((_resolve, reject) => {
    let settled = false;
    const done = () => {
      if (settled) {
        return;
      }
      settled = true;
      reject(error);
    };
    req.on('end', done);
    req.on('error', done);
    req.on('close', done);
    req.resume();
  });
}
