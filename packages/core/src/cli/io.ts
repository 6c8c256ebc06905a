/**
 * What every CLI command needs from the outside world, passed in so the
 * commands are plain functions: stdin, stdout, stderr, environment, clock.
 */
import { parseArgs } from 'node:util';

export interface CliIo {
  /** The whole of stdin as bytes; rejects with UsageError when stdin is a terminal. */
  readStdin: () => Promise<Uint8Array>;
  out: (text: string) => void;
  err: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
}

/** Exit codes: 0 success (or "valid"), 1 invalid signature or bad input data, 2 bad command line. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A problem with the command line: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A problem with the data given (stdin, a URL): printed as is, exit 1. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

export const SECRET_ENV = 'CARD2CRYPTO_SECRET';

/** --secret wins over CARD2CRYPTO_SECRET; neither is a usage error. */
export function requireSecret(flag: string | undefined, io: CliIo): string {
  const secret = flag ?? io.env[SECRET_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(`no partner secret: set ${SECRET_ENV} (preferred: a --secret value shows in the process list and shell history) or pass --secret`);
  }
  return secret;
}

/** Reads stdin as UTF-8 text (a leading byte-order mark is dropped). */
export async function readStdinText(io: CliIo, what: string): Promise<string> {
  const bytes = await io.readStdin();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${what} on stdin is not valid UTF-8`);
  }
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
  }
  if (text.trim() === '') {
    throw new InputError(`stdin is empty: expected ${what}`);
  }
  return text;
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;
type OptionValues<S extends OptionSpec> = { [K in keyof S]?: S[K]['type'] extends 'string' ? string : boolean } & { help?: boolean };

/** node:util parseArgs (strict, no positionals, -h/--help added) with its errors turned into UsageError. */
export function parseOptions<S extends OptionSpec>(args: string[], options: S): { values: OptionValues<S> } {
  try {
    const { values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
    return { values: values as OptionValues<S> };
  } catch (error) {
    throw new UsageError(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
  }
}

/** Checks a --flag against its allowed values. */
export function oneOf<V extends string>(flag: string, value: string | undefined, allowed: readonly V[], fallback: V): V {
  if (value === undefined) {
    return fallback;
  }
  if ((allowed as readonly string[]).includes(value)) {
    return value as V;
  }
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
}
