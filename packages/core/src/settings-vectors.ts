/**
 * Parity vectors for the settings rules: inputs and what validateSettings
 * makes of them. Written to schema/rule-vectors.json for the PHP plugins'
 * tests (same (field, rule) problems, same normalised values).
 */
import { WALLET_KEY_MAX_LENGTH, type PluginId } from './settings-schema.js';
import { checkWalletKey, descriptorChecksum } from './bip32/index.js';
import { type SettingsValidationOptions, validateSettings } from './settings-validator.js';

export interface SettingsVectorCase {
  name: string;
  plugin: PluginId;
  input: Record<string, unknown>;
  options?: SettingsValidationOptions;
  /** The problems' messages are part of the vector too: PHP must say them in the same words. */
  messages?: boolean;
}

export interface SettingsVector extends SettingsVectorCase {
  /** (field, rule) of every problem, in the validator's order; with its message when the case has `messages`. */
  problems: { field: string; rule: string; message?: string }[];
  /** Normalised values of the fields named in input (invalid ones as submitted). */
  values: Record<string, string | boolean>;
}

const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** BIP84's account key (mainnet) and a testnet one (vectors/bip32-addresses.json). */
const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const CREDS = { partner_token: 'tok_123', partner_secret: 'sec_456' };
/** A testnet account key (vectors/bip32-addresses.json, random-vpub-1). */
const VPUB = 'vpub5UXEZ74jfrGL3wZUaqJ2ba6w6YnsCF8kwLnVPiaRBoiGwRFqiLzEU4a17HKMT19MYD4PydkrB9hvsogDRTGC1L11r7tvx9Gg5ycMkdih8H3';

/** A valid descriptor of VPUB of exactly `length` characters: a long key origin path, and its checksum. */
function descriptorOfLength(length: number): string {
  const shell = (path: string) => `wpkh([d34db33f${path}]${VPUB}/<0;1>/*)`;
  const bodyLength = length - 9; // "#" and 8 checksum characters
  let path = '';
  while (shell(path).length + 2 <= bodyLength) {
    path += '/1';
  }
  if (shell(path).length < bodyLength) {
    path = `${path.slice(0, -2)}/10`;
  }
  const body = shell(path);
  if (body.length !== bodyLength) {
    throw new Error(`no descriptor of ${length} characters`);
  }
  return `${body}#${descriptorChecksum(body)}`;
}

export const SETTINGS_VECTOR_CASES: readonly SettingsVectorCase[] = [
  { name: 'checkout defaults are valid while disabled', plugin: 'checkout', input: {} },
  { name: 'enabling requires wallet and credentials', plugin: 'checkout', input: { enabled: 'yes' } },
  { name: 'enabled with everything set', plugin: 'checkout', input: { enabled: true, wallet_address: WALLET, ...CREDS } },
  {
    name: 'a new address per order: the key is required instead of the address',
    plugin: 'checkout',
    input: { enabled: true, wallet_mode: 'xpub', ...CREDS },
  },
  {
    name: 'a new address per order from a mainnet zpub in production',
    plugin: 'checkout',
    input: {
      enabled: true,
      wallet_mode: 'xpub',
      wallet_key_secret: `  ${ZPUB}\n`,
      environment: 'production',
      ...CREDS,
      base_url: 'https://api.example.com',
      widget_script_url: 'https://api.example.com/w.js',
      landing_url: 'https://pay.example.com',
    },
  },
  { name: 'a mainnet key is refused in the sandbox', plugin: 'checkout', input: { enabled: true, wallet_mode: 'xpub', wallet_key_secret: ZPUB, ...CREDS } },
  {
    name: 'a private key is refused',
    plugin: 'checkout',
    input: {
      wallet_mode: 'xpub',
      wallet_key_secret: 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    },
  },
  { name: 'a bitcoin address where the key goes is refused', plugin: 'checkout', input: { wallet_mode: 'xpub', wallet_key_secret: WALLET } },
  // Issue 31, point 4: a maximum length, checked before the key is decoded.
  {
    name: `the wallet key: ${WALLET_KEY_MAX_LENGTH} characters (and the spaces around them) are read by the usual rules`,
    plugin: 'checkout',
    input: { enabled: true, wallet_mode: 'xpub', wallet_key_secret: ` ${descriptorOfLength(WALLET_KEY_MAX_LENGTH)}\n`, ...CREDS },
    messages: true,
  },
  {
    name: `the wallet key: ${WALLET_KEY_MAX_LENGTH} characters of the wrong network are refused by the usual rules`,
    plugin: 'checkout',
    input: {
      wallet_mode: 'xpub',
      wallet_key_secret: descriptorOfLength(WALLET_KEY_MAX_LENGTH),
      environment: 'production',
      base_url: 'https://api.example.com',
    },
    messages: true,
  },
  {
    name: `the wallet key: ${WALLET_KEY_MAX_LENGTH + 1} characters are refused before they are read`,
    plugin: 'checkout',
    input: { wallet_mode: 'xpub', wallet_key_secret: descriptorOfLength(WALLET_KEY_MAX_LENGTH + 1) },
    messages: true,
  },
  {
    name: 'the wallet key: characters are counted as code points (300 emoji are 600 UTF-16 units) and refused by the usual rules',
    plugin: 'checkout',
    input: { wallet_mode: 'xpub', wallet_key_secret: '\u{1F511}'.repeat(300) },
    messages: true,
  },
  {
    name: `the wallet key: ${WALLET_KEY_MAX_LENGTH + 1} non-ASCII characters are too long`,
    plugin: 'checkout',
    input: { wallet_mode: 'xpub', wallet_key_secret: '\u00e9'.repeat(WALLET_KEY_MAX_LENGTH + 1) },
    messages: true,
  },
  { name: 'the gap limit is a whole number from 20 to 1000', plugin: 'checkout', input: { gap_limit: '0' } },
  { name: 'a gap limit of 1, which no wallet uses, is refused', plugin: 'checkout', input: { gap_limit: '1' } },
  { name: 'a gap limit of 19 is refused', plugin: 'checkout', input: { gap_limit: '19' } },
  { name: 'a gap limit of 20 is the least', plugin: 'checkout', input: { gap_limit: '20' } },
  { name: 'a gap limit of 1001 is refused', plugin: 'checkout', input: { gap_limit: '1001' } },
  { name: 'a gap limit of 50', plugin: 'checkout', input: { gap_limit: ' 50 ' } },
  { name: 'the background check rate is a whole number from 1 to 20', plugin: 'checkout', input: { reconcile_rate: '0' } },
  { name: 'the background check rate is at most 20', plugin: 'checkout', input: { reconcile_rate: '21' } },
  { name: 'the service rate is a whole number from 1 to 100', plugin: 'checkout', input: { service_rate: '101' } },
  { name: 'a background check rate of 15', plugin: 'checkout', input: { reconcile_rate: ' 15 ' } },
  {
    name: 'credentials from wp-config constants',
    plugin: 'checkout',
    input: { enabled: '1', wallet_address: WALLET },
    options: { definedConstants: ['CARD2CRYPTO_PARTNER_TOKEN', 'CARD2CRYPTO_PARTNER_SECRET'] },
  },
  { name: 'production needs the service addresses', plugin: 'checkout', input: { enabled: 'on', environment: 'production', wallet_address: WALLET, ...CREDS } },
  {
    name: 'production with addresses, trailing slashes removed',
    plugin: 'checkout',
    input: {
      enabled: true,
      environment: 'production',
      wallet_address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      ...CREDS,
      base_url: 'https://api.example.com/',
      widget_script_url: 'https://widget.example.com/widget.js',
      landing_url: 'https://pay.example.com/landing//',
    },
  },
  {
    name: 'production refuses http:// and this computer or private networks (the sandbox), field by field',
    plugin: 'checkout',
    input: {
      environment: 'production',
      base_url: 'http://api.example.com',
      widget_script_url: 'https://127.0.0.1:8787/widget.js',
      landing_url: 'https://user@LocalHost.:8443/landing',
    },
  },
  {
    name: 'production refuses private IPv4 ranges and IPv6 loopback, unique-local and mapped forms',
    plugin: 'checkout',
    input: { environment: 'production', base_url: 'https://192.168.1.10', widget_script_url: 'https://[::1]/w.js', landing_url: 'https://[::ffff:10.0.0.1]/l' },
  },
  {
    name: 'production refuses 172.16/12, link-local and fd00::/8; each with its own field error',
    plugin: 'checkout',
    input: {
      environment: 'production',
      base_url: 'https://172.31.255.1',
      widget_script_url: 'https://[fd12:3456::1]/w.js',
      landing_url: 'https://169.254.169.254/l',
    },
  },
  {
    name: 'production accepts public https addresses near the private ranges',
    plugin: 'checkout',
    input: {
      environment: 'production',
      base_url: 'https://172.32.0.1',
      widget_script_url: 'https://localhost.example.com/w.js',
      landing_url: 'https://[2001:db8::1]/l',
    },
  },
  {
    name: 'the sandbox keeps its local http addresses',
    plugin: 'checkout',
    input: { environment: 'sandbox', base_url: 'http://127.0.0.1:8787', landing_url: 'http://localhost:8787/landing' },
  },
  {
    name: 'testnet wallet rejected in production',
    plugin: 'checkout',
    input: { environment: 'production', wallet_address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' },
  },
  {
    name: 'testnet wallet accepted in sandbox',
    plugin: 'checkout',
    input: { environment: 'sandbox', wallet_address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' },
  },
  { name: 'regtest wallet accepted in sandbox', plugin: 'checkout', input: { wallet_address: 'bcrt1qqqqsyqcyq5rqwzqfpg9scrgwpugpzysnard0ew' } },
  { name: 'wallet with a typo', plugin: 'checkout', input: { wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr' } },
  { name: 'base58 wallet with a typo', plugin: 'checkout', input: { wallet_address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb' } },
  { name: 'upper-case bech32 wallet', plugin: 'checkout', input: { wallet_address: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4' } },
  { name: 'taproot wallet', plugin: 'checkout', input: { wallet_address: 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0' } },
  { name: 'litecoin address', plugin: 'checkout', input: { wallet_address: 'ltc1qg82tmfx0z8zdrldqpgmh4xzqx3l8x0dwk4a5vq' } },
  { name: 'store currency must be an exact code', plugin: 'checkout', input: { store_currency: 'eur' } },
  { name: 'store currency supported', plugin: 'checkout', input: { store_currency: 'BHD' } },
  { name: 'store currency unsupported', plugin: 'checkout', input: { store_currency: 'ISK' } },
  { name: 'payment flow enum', plugin: 'checkout', input: { payment_flow: 'popup' } },
  { name: 'checkbox words', plugin: 'checkout', input: { auto_confirm: 'no', fix_rate: 'yes', debug_logging: 1, delete_data_on_uninstall: 'maybe' } },
  { name: 'title must be one line', plugin: 'checkout', input: { title: 'Card\npayment' } },
  { name: 'title too long', plugin: 'checkout', input: { title: 'x'.repeat(101) } },
  { name: 'title trimmed, non-ASCII counted by characters', plugin: 'checkout', input: { title: `  ${'é'.repeat(100)}  ` } },
  { name: 'description line endings normalised', plugin: 'checkout', input: { description: ' Line one\r\nLine two\r\n' } },
  { name: 'token with a space', plugin: 'checkout', input: { partner_token: 'tok 123' } },
  {
    name: 'empty secret keeps the stored one',
    plugin: 'checkout',
    input: { enabled: true, wallet_address: WALLET, partner_token: 'tok', partner_secret: '' },
    options: { stored: { partner_secret: 'stored-secret' } },
  },
  {
    name: 'service address must be http(s)',
    plugin: 'checkout',
    input: { base_url: 'ftp://api.example.com', landing_url: 'pay.example.com', widget_script_url: 'http://127.0.0.1:8787/widget.js' },
  },
  {
    name: 'service address forms',
    plugin: 'checkout',
    input: { base_url: 'https:api.example.com', widget_script_url: 'HTTPS://CDN.EXAMPLE/W.JS', landing_url: 'http://pay.example.com/ landing' },
  },
  { name: 'callback allowlist normalised', plugin: 'checkout', input: { callback_ips: ' 203.0.113.10, 2001:db8::/32\r\n10.0.0.0/8  ::ffff:192.0.2.1 ' } },
  {
    name: 'callback allowlist with bad entries',
    plugin: 'checkout',
    input: { callback_ips: '256.1.1.1\n1.2.3.4/33\n01.2.3.4\n1.2.3.4::\n2001:db8::1::2\nlocalhost' },
  },
  { name: 'trust proxy header', plugin: 'checkout', input: { trust_proxy_header: 'X-Forwarded-For' } },
  { name: 'trust proxy header: CF-Connecting-IP', plugin: 'checkout', input: { trust_proxy_header: 'CF-Connecting-IP' } },
  { name: 'trust proxy header with a space', plugin: 'checkout', input: { trust_proxy_header: 'X Forwarded For' } },
  // Headers the caller writes itself (or the connection address under another name): they would let anyone past the allowlist.
  { name: 'trust proxy header: Host is refused', plugin: 'checkout', input: { trust_proxy_header: 'Host' } },
  { name: 'trust proxy header: REMOTE_ADDR is refused', plugin: 'checkout', input: { trust_proxy_header: 'REMOTE_ADDR' } },
  { name: 'trust proxy header: another spelling is refused', plugin: 'checkout', input: { trust_proxy_header: 'x-forwarded-for' } },
  {
    name: 'partner fields: a user who may not add unfiltered code keeps them, sent or left out',
    plugin: 'checkout',
    input: { title: 'New title', base_url: 'https://api.example.com/', landing_url: ' https://pay.example.com ' },
    options: {
      stored: {
        environment: 'production',
        base_url: 'https://api.example.com',
        widget_script_url: 'https://cdn.example.com/w.js',
        landing_url: 'https://pay.example.com',
      },
      mayChangePartnerSettings: false,
    },
  },
  {
    name: 'partner fields: a user who may not add unfiltered code cannot change any of them',
    plugin: 'checkout',
    input: {
      environment: 'production',
      base_url: 'https://evil.example',
      widget_script_url: 'https://evil.example/w.js',
      landing_url: 'https://evil.example/landing',
      title: 'Still judged',
    },
    options: { stored: {}, mayChangePartnerSettings: false },
  },
  {
    name: 'partner fields: the widget alike',
    plugin: 'widget',
    input: { ...CREDS, widget_script_url: 'http://127.0.0.1:9999/w.js' },
    options: { stored: { widget_script_url: 'http://127.0.0.1:8787/widget.js' }, mayChangePartnerSettings: false },
  },
  {
    name: 'partner fields: a rule problem is reported as such, not as partner_only',
    plugin: 'widget',
    input: { ...CREDS, landing_url: 'ftp://x' },
    options: { stored: {}, mayChangePartnerSettings: false },
  },
  {
    name: 'partner fields: a user who may add unfiltered code changes them',
    plugin: 'checkout',
    input: { base_url: 'https://api2.example.com' },
    options: { stored: { base_url: 'https://api.example.com' }, mayChangePartnerSettings: true },
  },
  { name: 'unknown field and wrong type', plugin: 'checkout', input: { foo: 'bar', title: 42 } },
  { name: 'widget needs credentials', plugin: 'widget', input: {} },
  { name: 'widget amount normalised to the currency decimals', plugin: 'widget', input: { ...CREDS, default_amount: '100', default_fiat_currency: 'EUR' } },
  { name: 'widget amount below minimum', plugin: 'widget', input: { ...CREDS, default_amount: '49.99' } },
  { name: 'widget amount with too many decimals', plugin: 'widget', input: { ...CREDS, default_amount: '100.001' } },
  { name: 'widget amount trailing zeros are exact', plugin: 'widget', input: { ...CREDS, default_amount: '100.000' } },
  { name: 'widget amount in KRW must be whole', plugin: 'widget', input: { ...CREDS, default_amount: '150000.5', default_fiat_currency: 'KRW' } },
  { name: 'widget amount in KRW', plugin: 'widget', input: { ...CREDS, default_amount: '150000', default_fiat_currency: 'KRW' } },
  { name: 'widget amount in BHD has 3 decimals', plugin: 'widget', input: { ...CREDS, default_amount: '30.5', default_fiat_currency: 'BHD' } },
  { name: 'widget amount above maximum', plugin: 'widget', input: { ...CREDS, default_amount: '5000.01', default_fiat_currency: 'USD' } },
  { name: 'widget amount with thousands separator', plugin: 'widget', input: { ...CREDS, default_amount: '1,000' } },
  { name: 'widget amount with unsupported currency', plugin: 'widget', input: { ...CREDS, default_amount: '100', default_fiat_currency: 'XXX' } },
  { name: 'widget crypto symbol case', plugin: 'widget', input: { ...CREDS, default_crypto_currency: 'btc' } },
  { name: 'widget identifier-style crypto symbol', plugin: 'widget', input: { ...CREDS, default_crypto_currency: '056075bf-715f-4174-b841-e9a77c18328e' } },
  { name: 'widget language', plugin: 'widget', input: { ...CREDS, default_language: 'EN' } },
  { name: 'widget language ok', plugin: 'widget', input: { ...CREDS, default_language: 'de' } },
  // Not offered (the payment page shows English for it), still an ISO 639-1 code: an older save keeps validating.
  { name: 'widget language outside the payment page list', plugin: 'widget', input: { ...CREDS, default_language: 'ja' } },
  {
    name: 'widget colours normalised',
    plugin: 'widget',
    input: {
      ...CREDS,
      color_primary_fill: ' #FF0000 ',
      color_box_shadow: 'RGBA(0,0,0,  0.5)',
      color_background_color: 'hsl(120 50% 50% / 80%)',
      color_success_color: 'Teal',
    },
  },
  {
    name: 'widget colours rejected',
    plugin: 'widget',
    input: {
      ...CREDS,
      color_primary_fill: 'red; } body { color: red',
      color_primary_text: 'rgb(256, 0, 0)',
      color_secondary_text: '#abcde',
      color_warning_color: 'var(--x)',
    },
  },
];

export function settingsRuleVectors(): SettingsVector[] {
  return SETTINGS_VECTOR_CASES.map((c) => {
    const result = validateSettings(c.plugin, c.input, { walletKey: checkWalletKey, ...c.options });
    const values: Record<string, string | boolean> = {};
    for (const key of Object.keys(c.input)) {
      if (key in result.values) {
        values[key] = result.values[key]!;
      }
    }
    return { ...c, problems: result.problems.map(({ field, rule, message }) => (c.messages ? { field, rule, message } : { field, rule })), values };
  });
}

/** The committed schema/rule-vectors.json text. */
export function settingsRuleVectorsJson(): string {
  return `${JSON.stringify({ version: 1, generatedBy: 'packages/core/scripts/export-settings-schema.ts', cases: settingsRuleVectors() }, null, 2)}\n`;
}
