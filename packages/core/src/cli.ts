/**
 * The `card2crypto` command line (bin/card2crypto.js runs main()).
 * Every failure is one clear message and a non-zero exit, never a stack trace:
 * 0 success or "valid", 1 invalid signature or bad input data, 2 bad command line.
 */
import { readFileSync } from 'node:fs';

import { DERIVE_HELP, deriveCommand } from './cli/derive-command.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, InputError, UsageError, type CliIo } from './cli/io.js';
import { LANDING_URL_HELP, landingUrlCommand } from './cli/landing-url-command.js';
import { RETRY_SCHEDULE_HELP, retryScheduleCommand } from './cli/retry-schedule-command.js';
import { CANONICAL_HELP, canonicalCommand, SIGN_HELP, signCommand, VERIFY_HELP, verifyCommand } from './cli/signing-commands.js';

export type { CliIo } from './cli/io.js';

interface Command {
  summary: string;
  help: string;
  run: (args: string[], io: CliIo) => number | Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  sign: { summary: 'sign one JSON object read on stdin; prints the signature', help: SIGN_HELP, run: signCommand },
  canonical: { summary: 'print the canonical string (what is signed) of a JSON object', help: CANONICAL_HELP, run: canonicalCommand },
  verify: { summary: 'verify a signed JSON object read on stdin (exit 0 valid, 1 invalid)', help: VERIFY_HELP, run: verifyCommand },
  'landing-url': { summary: 'build a signed landing-page URL, or read one (--parse)', help: LANDING_URL_HELP, run: landingUrlCommand },
  'retry-schedule': { summary: 'print the callback retry schedule', help: RETRY_SCHEDULE_HELP, run: retryScheduleCommand },
  derive: { summary: "print a wallet's addresses from its xpub/ypub/zpub or descriptor", help: DERIVE_HELP, run: deriveCommand },
};

export const USAGE = `Usage: card2crypto <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(16)}${command.summary}`)
  .join('\n')}
  help [command]  show help for a command

The partner secret comes from --secret or, preferably, CARD2CRYPTO_SECRET.
Exit status: 0 success or valid, 1 invalid signature or bad input, 2 bad command line.
Run card2crypto <command> --help for the options of each command.`;

/** Runs one command line (without "node" and the script) and returns the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      const topic = name === 'help' ? args[0] : undefined;
      if (topic === undefined) {
        io.out(`${USAGE}\n`);
        return name === undefined ? EXIT_USAGE : EXIT_OK;
      }
      const command = COMMANDS[topic];
      if (command === undefined) {
        throw new UsageError(`unknown command ${JSON.stringify(topic)}`);
      }
      io.out(`${command.help}\n`);
      return EXIT_OK;
    }
    if (name === '--version' || name === '-v') {
      io.out(`${version()}\n`);
      return EXIT_OK;
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (command === undefined) {
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`card2crypto: ${error.message}\nRun card2crypto ${name !== undefined && Object.hasOwn(COMMANDS, name) ? `${name} ` : ''}--help for usage.\n`);
      return EXIT_USAGE;
    }
    if (error instanceof InputError) {
      io.err(`card2crypto: ${error.message}\n`);
      return EXIT_INVALID;
    }
    // Anything else is a bug; still one line, no stack trace for the user.
    io.err(`card2crypto: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_INVALID;
  }
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The real process: stdin, stdout, stderr, environment and clock. */
export function processIo(): CliIo {
  return {
    async readStdin(): Promise<Uint8Array> {
      if (process.stdin.isTTY) {
        throw new UsageError('this command reads JSON on stdin: pipe or redirect it (e.g. card2crypto sign < body.json)');
      }
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    now: () => Date.now(),
  };
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  // A closed pipe (card2crypto retry-schedule | head) is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      process.exit(process.exitCode ?? EXIT_OK);
    }
  });
  return runCli(argv, processIo());
}
