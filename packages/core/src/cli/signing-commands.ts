/** card2crypto sign | canonical | verify */
import {
  canonicalString,
  JsonParseError,
  LosslessNumber,
  parseJsonLossless,
  sign,
  SigningInputError,
  verify,
  type LosslessJsonValue,
  type NumberReading,
  type SigningForm,
} from '../signing/index.js';
import { EXIT_INVALID, EXIT_OK, InputError, oneOf, parseOptions, readStdinText, requireSecret, SECRET_ENV, type CliIo } from './io.js';

const FORMS = ['general', 'simple'] as const;
const NUMBER_READINGS = ['js', 'raw'] as const;

export const SIGN_HELP = `Usage: card2crypto sign [--secret S] [--form general|simple] [--numbers js|raw] < body.json

Reads one JSON object on stdin and prints its signature (128 hex characters,
HMAC-SHA512 of the canonical string) on the last line. A "signature" member in
the input is ignored.

Options:
  --secret S        partner secret (default: $${SECRET_ENV}, preferred)
  --form F          general (API requests, callbacks; default) or simple (flat widget settings)
  --numbers N       js (default): numbers as JavaScript writes them, as the SDK signs;
                    raw: numbers exactly as written in the input
  -h, --help        this help`;

export const CANONICAL_HELP = `Usage: card2crypto canonical [--form general|simple] [--numbers js|raw] < body.json

Prints the canonical string of one JSON object read on stdin: the exact text
that is signed (flattened a:b:c names, sorted, name:value joined with ";").
Compare it with the other side's when a signature is refused.

Options:
  --form F          general (default) or simple
  --numbers N       js (default) or raw, as for sign
  -h, --help        this help`;

export const VERIFY_HELP = `Usage: card2crypto verify [--secret S] [--form general|simple] < signed.json

Verifies the top-level "signature" member of one JSON object read on stdin.
Numbers are read both as received and as JavaScript writes them; null both as
an empty value and as absent. Exits 0 and prints "valid" when the signature
matches; otherwise exits 1 and says why (missing, malformed or mismatch; on a
mismatch it prints the canonical string it checked).

Options:
  --secret S        partner secret (default: $${SECRET_ENV}, preferred)
  --form F          general (default) or simple (also requires a flat object)
  -h, --help        this help`;

export async function signCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { secret: { type: 'string' }, form: { type: 'string' }, numbers: { type: 'string' } });
  if (values.help) {
    return help(io, SIGN_HELP);
  }
  const form = oneOf('form', values.form, FORMS, 'general');
  const numbers = oneOf('numbers', values.numbers, NUMBER_READINGS, 'js');
  const secret = requireSecret(values.secret, io);
  const body = await readBody(io, numbers);
  io.out(`${signing(() => sign(body, secret, { form, numbers }))}\n`);
  return EXIT_OK;
}

export async function canonicalCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { form: { type: 'string' }, numbers: { type: 'string' } });
  if (values.help) {
    return help(io, CANONICAL_HELP);
  }
  const form = oneOf('form', values.form, FORMS, 'general');
  const numbers = oneOf('numbers', values.numbers, NUMBER_READINGS, 'js');
  const body = await readBody(io, numbers);
  io.out(`${signing(() => canonicalString(body, { form, numbers }))}\n`);
  return EXIT_OK;
}

export async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { secret: { type: 'string' }, form: { type: 'string' } });
  if (values.help) {
    return help(io, VERIFY_HELP);
  }
  const form: SigningForm = oneOf('form', values.form, FORMS, 'general');
  const secret = requireSecret(values.secret, io);
  const bytes = await io.readStdin();
  const result = verify(bytes, secret, { form });
  if (result.ok) {
    io.out(
      `valid (numbers read ${result.reading.numbers === 'raw' ? 'as received' : 'as JavaScript writes them'}, null ${result.reading.nulls === 'empty' ? 'as empty' : 'as absent'})\n`,
    );
    return EXIT_OK;
  }
  io.out(`invalid: ${result.reason}: ${result.message}\n`);
  if (result.canonical !== undefined) {
    io.out(`canonical string checked: ${result.canonical}\n`);
  }
  return EXIT_INVALID;
}

function help(io: CliIo, text: string): number {
  io.out(`${text}\n`);
  return EXIT_OK;
}

/** Parses stdin as one JSON object, keeping number text, and warns where JS numbers lose digits. */
async function readBody(io: CliIo, numbers: NumberReading): Promise<Record<string, LosslessJsonValue>> {
  const text = await readStdinText(io, 'a JSON object');
  let value: LosslessJsonValue;
  try {
    value = parseJsonLossless(text);
  } catch (error) {
    throw new InputError(`stdin is not valid JSON: ${error instanceof JsonParseError ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof LosslessNumber) {
    throw new InputError(
      `stdin must hold one JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'a number' : typeof value}`,
    );
  }
  if (numbers === 'js') {
    warnImpreciseIntegers(value, '', io);
  }
  return value;
}

function warnImpreciseIntegers(value: LosslessJsonValue, path: string, io: CliIo): void {
  if (value instanceof LosslessNumber) {
    if (/^-?\d+$/.test(value.text) && !Number.isSafeInteger(value.value)) {
      io.err(`warning: member "${path}": ${value.text} is beyond 2^53-1 and is signed as ${String(value.value)}; use --numbers raw to sign its digits\n`);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      warnImpreciseIntegers(child, path === '' ? key : `${path}:${key}`, io);
    }
  }
}

function signing<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SigningInputError) {
      throw new InputError(`cannot sign: ${error.message}`);
    }
    throw error;
  }
}
