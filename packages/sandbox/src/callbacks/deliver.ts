/** One callback delivery: a JSON POST with a time limit, answering status and an excerpt of the response. */
import http from 'node:http';
import https from 'node:https';

export interface DeliveryResult {
  /** HTTP status, or null when no answer came (refused, reset, timed out). */
  status: number | null;
  /** The start of the response body (at most EXCERPT_CHARS characters). */
  excerpt: string;
  /** Why there is no answer, or null. */
  error: string | null;
  durationMs: number;
  /** True when the delivery was cut short because the sandbox is stopping (not an attempt). */
  aborted?: boolean;
}

export const EXCERPT_CHARS = 500;
/** Bytes of the response read for the excerpt; the rest is discarded. */
const READ_LIMIT = 4096;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

export function postCallback(url: string, body: string, options: { timeoutMs: number; localAddress?: string; signal?: AbortSignal }): Promise<DeliveryResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const onAbort = () => request.destroy(new Error('the sandbox stopped'));
    const finish = (result: Omit<DeliveryResult, 'durationMs'>) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ status: null, excerpt: '', error: `invalid callback URL ${url}` });
      return;
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'card2crypto-sandbox',
        },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < READ_LIMIT) {
            chunks.push(chunk);
          }
          size += chunk.length;
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).subarray(0, READ_LIMIT).toString('utf8');
          finish({ status: response.statusCode ?? null, excerpt: text.slice(0, EXCERPT_CHARS), error: null });
        });
        response.on('error', (error) => finish({ status: response.statusCode ?? null, excerpt: '', error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted) {
        finish({ status: null, excerpt: '', error: 'the sandbox stopped', aborted: true });
        return;
      }
      finish({ status: null, excerpt: '', error: error.code ? `${error.message} (${error.code})` : error.message });
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
