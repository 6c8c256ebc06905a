/** card2crypto derive: a wallet's addresses from its extended public key or descriptor. */
import { deriveAddresses, MAX_DERIVE_COUNT, parseWalletKey, WalletKeyError, type WalletKey } from '../bip32/index.js';
import { EXIT_OK, InputError, oneOf, parseOptions, UsageError, type CliIo } from './io.js';

export const WALLET_KEY_ENV = 'CARD2CRYPTO_WALLET_KEY';

export const DERIVE_HELP = `Usage: card2crypto derive --key KEY [--from N] [--count N] [--change]
                         [--environment production|sandbox] [--format table|json]

Prints the addresses a wallet's extended public key gives, as the checkout
derives one for each order: BIP32 public derivation; native segwit (bc1q…,
BIP84) for a zpub or wpkh(…), nested segwit (3…, BIP49) for a ypub or
sh(wpkh(…)), legacy (1…, BIP44) for an xpub or pkh(…); tpub, upub and vpub
give the testnet ones. Compare them with the addresses your wallet shows.

KEY is an extended public key, or an output descriptor of one such key ending
in /* (such as wpkh([fingerprint/84h/0h/0h]xpub…/<0;1>/*)#checksum); a bare
key's addresses are KEY/0/i, its change addresses KEY/1/i. A private key
(xprv, zprv, tprv…) is refused: never paste one anywhere.

Options:
  --key KEY          the key or descriptor (default: $${WALLET_KEY_ENV}; it
                     reveals every address of the wallet, so prefer the
                     variable to a flag other users can see in the process list)
  --from N           first address index (default 0)
  --count N          how many addresses (default 10, at most ${MAX_DERIVE_COUNT})
  --change           change addresses instead of receive addresses
  --environment E    production (mainnet keys only) or sandbox (testnet keys
                     only), as the plugin's setting; default: either network
  --format F         table (default) or json
  -h, --help         this help

Exit status: 0 addresses printed, 1 the key was refused (the reason is
printed), 2 bad command line.`;

const TYPE_NAMES: Record<WalletKey['addressType'], string> = {
  p2wpkh: 'native segwit (p2wpkh, BIP84)',
  'p2sh-p2wpkh': 'nested segwit (p2sh-p2wpkh, BIP49)',
  p2pkh: 'legacy (p2pkh, BIP44)',
};

/** A whole number flag within [min, max]; digits only, so "1e3", "-0" or "0x10" are refused. */
function wholeNumber(flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) {
    return fallback;
  }
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return n;
}

export function deriveCommand(args: string[], io: CliIo): number {
  const { values } = parseOptions(args, {
    key: { type: 'string' },
    from: { type: 'string' },
    count: { type: 'string' },
    change: { type: 'boolean' },
    environment: { type: 'string' },
    format: { type: 'string' },
  });
  if (values.help) {
    io.out(`${DERIVE_HELP}\n`);
    return EXIT_OK;
  }
  const text = values.key ?? io.env[WALLET_KEY_ENV];
  if (text === undefined || text.trim() === '') {
    throw new UsageError(`no key: pass --key (an xpub, ypub, zpub, tpub, upub, vpub or a descriptor) or set ${WALLET_KEY_ENV}`);
  }
  const from = wholeNumber('from', values.from, 0, 0, 0x7fffffff);
  const count = wholeNumber('count', values.count, 10, 1, MAX_DERIVE_COUNT);
  if (from + count - 1 > 0x7fffffff) {
    throw new UsageError(`--from ${from} --count ${count} ends at index ${from + count - 1}, past 2147483647 (the last non-hardened index)`);
  }
  const environment = values.environment === undefined ? undefined : oneOf('environment', values.environment, ['production', 'sandbox'] as const, 'production');
  const format = oneOf('format', values.format, ['table', 'json'] as const, 'table');
  const change = values.change ?? false;

  let wallet: WalletKey;
  let addresses: ReturnType<typeof deriveAddresses>;
  try {
    wallet = parseWalletKey(text, environment ? { environment } : {});
    addresses = deriveAddresses(wallet, { from, count, change });
  } catch (error) {
    if (error instanceof WalletKeyError) {
      throw new InputError(`the key was refused (${error.code}): ${error.message}`);
    }
    throw error;
  }
  const key = wallet.key;
  if (format === 'json') {
    const summary = {
      source: wallet.source,
      prefix: key.prefix,
      network: wallet.network,
      addressType: wallet.addressType,
      depth: key.depth,
      origin: wallet.origin,
      descriptor: wallet.descriptor,
    };
    io.out(`${JSON.stringify({ wallet: summary, addresses }, null, 2)}\n`);
    return EXIT_OK;
  }
  const lines = [
    `key: ${key.prefix} (${wallet.network}), depth ${key.depth}${wallet.origin ? `, origin [${wallet.origin.fingerprint}/${wallet.origin.path}]` : ''}`,
    `addresses: ${TYPE_NAMES[wallet.addressType]}`,
    `descriptor: ${wallet.descriptor}`,
    `${change ? 'change' : 'receive'} addresses ${from} to ${from + count - 1}:`,
  ];
  const width = Math.max(...addresses.map((a) => a.path.length));
  for (const a of addresses) {
    lines.push(`  ${a.path.padEnd(width)}  ${a.address}`);
  }
  io.out(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
