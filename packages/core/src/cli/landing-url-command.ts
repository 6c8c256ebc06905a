/** card2crypto landing-url: build a signed landing URL, or read one back. */
import { buildLandingUrl, parseLandingUrl } from '../landing-url.js';
import { verify } from '../signing/index.js';
import { ValidationError, type Problem } from '../validation.js';
import { buildSignedWidgetSettings } from '../widget-settings-builder.js';
import { validateWidgetSettings, type UnsignedWidgetSettings, type WidgetSettings } from '../widget-settings.js';
import { EXIT_INVALID, EXIT_OK, InputError, parseOptions, readStdinText, requireSecret, SECRET_ENV, UsageError, type CliIo } from './io.js';

export const LANDING_URL_HELP = `Usage:
  card2crypto landing-url --landing URL --success URL --fail URL [--secret S] < settings.json
  card2crypto landing-url --parse URL [--verify [--secret S]]

Build: reads the partner's widget settings (one JSON object without timestamp
and signature) on stdin, validates them, stamps the current time, signs them
(simple form) and prints the landing URL {landing}/?i=<base64 of
{"params": settings, "callbacks": {"success", "fail"}}>. Open it within
30 seconds: the service refuses older timestamps.

Parse: prints the payload of a landing URL (or of its i value) as JSON, lists
any problem with its widget settings, and with --verify checks their signature.

Options:
  --landing URL     the hosted landing page address
  --success URL     where the customer is sent after a successful operation
  --fail URL        where the customer is sent after a failed one
  --secret S        partner secret (default: $${SECRET_ENV}, preferred)
  --now MS          sign with this timestamp (milliseconds) instead of the clock, for reproducible output
  --parse URL       read a landing URL instead of building one
  --verify          with --parse: verify the signature of the params
  -h, --help        this help`;

export async function landingUrlCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    landing: { type: 'string' },
    success: { type: 'string' },
    fail: { type: 'string' },
    secret: { type: 'string' },
    now: { type: 'string' },
    parse: { type: 'string' },
    verify: { type: 'boolean' },
  });
  if (values.help) {
    io.out(`${LANDING_URL_HELP}\n`);
    return EXIT_OK;
  }
  if (values.parse !== undefined) {
    for (const flag of ['landing', 'success', 'fail', 'now'] as const) {
      if (values[flag] !== undefined) {
        throw new UsageError(`--${flag} builds a URL; it cannot be combined with --parse`);
      }
    }
    return parse(values.parse, values.verify === true ? requireSecret(values.secret, io) : undefined, io);
  }
  if (values.verify) {
    throw new UsageError('--verify goes with --parse URL');
  }
  const missing = (['landing', 'success', 'fail'] as const).filter((flag) => values[flag] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.map((flag) => `--${flag} URL`).join(', ')} (or --parse URL to read one)`);
  }
  const secret = requireSecret(values.secret, io);
  const now = values.now === undefined ? io.now() : parseNow(values.now);

  const text = await readStdinText(io, 'the widget settings (a JSON object)');
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    throw new InputError(`stdin is not valid JSON: ${(error as Error).message}`);
  }
  // Report every problem at once: the settings' and the addresses'.
  const problems: Problem[] = [];
  let params: WidgetSettings | undefined;
  try {
    params = buildSignedWidgetSettings(settings as UnsignedWidgetSettings, { secret, now: () => now });
  } catch (error) {
    if (!(error instanceof ValidationError)) {
      throw error;
    }
    problems.push(...error.problems);
  }
  let url: string | undefined;
  try {
    url = buildLandingUrl(values.landing as string, {
      params: params ?? ({} as WidgetSettings),
      callbacks: { success: values.success as string, fail: values.fail as string },
    });
  } catch (error) {
    if (!(error instanceof ValidationError)) {
      throw error;
    }
    // Without signed params the builder only repeats, under "params.", what is listed already.
    problems.push(...error.problems.filter((p) => params !== undefined || !p.field.startsWith('params')));
  }
  if (problems.length > 0 || url === undefined) {
    throw new InputError(problemList('cannot build the landing URL', problems));
  }
  io.out(`${url}\n`);
  return EXIT_OK;
}

function parseNow(text: string): number {
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--now must be whole milliseconds since 1970 (e.g. 1715679067123), not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function parse(urlOrI: string, secret: string | undefined, io: CliIo): number {
  const result = parseLandingUrl(urlOrI);
  if (!result.ok) {
    throw new InputError(problemList('cannot read the landing URL', result.problems));
  }
  const { params } = result.payload;
  io.out(`${JSON.stringify(result.payload, null, 2)}\n`);
  let status = EXIT_OK;
  const problems = validateWidgetSettings(params, { signed: true });
  if (problems.length > 0) {
    io.out(
      `${problemList(
        'problems with params',
        problems.map((p) => ({ ...p, field: `params.${p.field}` })),
      )}\n`,
    );
    status = EXIT_INVALID;
  }
  if (typeof params.timestamp === 'number') {
    const age = Math.round((io.now() - params.timestamp) / 1000);
    io.out(
      `timestamp ${new Date(params.timestamp).toISOString()}: ${age >= 0 ? `${age} s ago` : `${-age} s ahead`} (the service accepts 5 s behind and 30 s ahead of its clock)\n`,
    );
  }
  if (secret !== undefined) {
    const verdict = verify(params, secret, { form: 'simple' });
    if (verdict.ok) {
      io.out('params signature: valid\n');
    } else {
      io.out(`params signature: invalid: ${verdict.reason}: ${verdict.message}\n`);
      if (verdict.canonical !== undefined) {
        io.out(`canonical string checked: ${verdict.canonical}\n`);
      }
      status = EXIT_INVALID;
    }
  }
  return status;
}

function problemList(title: string, problems: readonly Problem[]): string {
  return `${title}:\n${problems.map((p) => `  ${p.field === '' ? '(input)' : p.field}: ${p.message}`).join('\n')}`;
}
