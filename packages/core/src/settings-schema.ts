/**
 * One declarative description of both plugins' settings. The PHP plugins read
 * the exported JSON (packages/core/schema/settings.json, see its README) to
 * render their settings pages and apply the same rules; `validateSettings`
 * applies them in TypeScript. Browser-safe.
 */
import { type BtcNetwork } from './btc-address.js';
import { CRYPTO_ASSETS, cryptoAssetLabel } from './reference/crypto.js';
import { FIAT_CURRENCIES } from './reference/fiat.js';
import { LANGUAGES, PAYMENT_PAGE_LANGUAGES } from './reference/languages.js';
import { THEME_PROPERTIES } from './theme.js';

export type PluginId = 'checkout' | 'widget';
export type Environment = 'sandbox' | 'production';
export type FieldType = 'checkbox' | 'text' | 'textarea' | 'secret' | 'select' | 'url' | 'amount' | 'color' | 'email';
export type FieldValue = string | boolean;

/** Validation rule of a field. Empty values of optional fields are valid without consulting the rule. */
export type Rule =
  /** true/false; also accepts 'yes'/'no', '1'/'0', 'on'/'off', 1/0 and '' (false). */
  | { kind: 'boolean' }
  /** Trimmed text of at most maxLength characters (UTF-16 code units in TS, mb_strlen in PHP) matching pattern (ECMAScript and PCRE compatible). */
  | { kind: 'text'; maxLength: number; pattern?: string; patternMessage?: string; multiline?: boolean }
  /** One of values (the field's options). */
  | { kind: 'enum'; values: string[] }
  /** Absolute http(s) URL; trailing slashes removed when stripTrailingSlash. */
  /**
   * Absolute http(s) address. With environmentField: when that field is
   * "production", only https:// to a public host (no localhost, loopback,
   * private or link-local address: those are the sandbox).
   */
  | { kind: 'url'; stripTrailingSlash: boolean; environmentField?: string }
  /** Bitcoin address (base58check or bech32/bech32m) of a network allowed in the environment chosen in environmentField. */
  | { kind: 'btc_address'; environmentField: string; networks: Record<Environment, BtcNetwork[]> }
  /**
   * An extended public key (xpub/ypub/zpub, tpub/upub/vpub) or a ranged output
   * descriptor of one, of the network the environment in environmentField
   * takes (production: mainnet; sandbox: testnet). Private keys, bad
   * checksums and hardened steps after the key are refused (bip32/index.ts,
   * parseWalletKey; PHP Btc\Bip32::parse_wallet_key()). At most maxLength
   * characters (Unicode code points), checked before the key is decoded.
   */
  | { kind: 'wallet_key'; environmentField: string; maxLength: number }
  /** Code of reference.fiat. */
  | { kind: 'fiat_currency' }
  /** Symbol of reference.crypto (exact case). */
  | { kind: 'crypto_currency' }
  /**
   * Decimal string in major units of the fiat currency held by currencyField
   * ("100", "99.5"): it must convert exactly to minor units (no more decimals
   * than the currency has), lie within that currency's min..max (reference.fiat)
   * and is stored with the currency's full decimals ("100.00").
   */
  | { kind: 'minor_amount'; currencyField: string }
  /** CSS colour (see theme.ts isValidColor), stored trimmed, lower case, single spaces; written to the partner CSS as property. */
  | { kind: 'color'; property: string }
  /**
   * ISO 639-1 code (lower case) of reference.languages, whether or not it is
   * one of the field's options (reference.paymentPageLanguages: the payment
   * page shows English for the others).
   */
  | { kind: 'lang' }
  /** E-mail address matching pattern. */
  | { kind: 'email'; pattern: string }
  /** IPv4/IPv6 addresses or CIDR ranges separated by commas/whitespace; stored one per line. */
  | { kind: 'ip_list'; maxEntries: number };

export type RuleKind = Rule['kind'];

/** A condition on another field's (normalised) value. */
export interface Condition {
  field: string;
  equals: FieldValue;
}

export interface FieldOption {
  value: string;
  label: string;
}

export interface Field {
  /** Option key (snake_case), unique within the plugin. */
  id: string;
  type: FieldType;
  /** Plain English; PHP wraps it in __() with the plugin's text domain. */
  label: string;
  help: string;
  default: FieldValue;
  /** Needed for the plugin to work: an empty value is a problem (when every requiredWhen condition holds). */
  required: boolean;
  /** All must hold for `required` to apply; absent = always. */
  requiredWhen?: Condition[];
  /** Never rendered back into a page, never logged; an empty submission keeps the stored value. */
  secret: boolean;
  /**
   * What the page calls a `secret` field's saved value, which it never shows: a secret (absent), or
   * a key: a public key kept out of pages because it reveals the wallet's history, which is no secret
   * and is never called one.
   */
  keptAs?: 'key';
  /** wp-config.php constant that, when defined, overrides the stored value (credentials). */
  constant?: string;
  /**
   * The partner's, not the shop's (the service's environment and addresses):
   * only a user who may add unfiltered code (`partnerOnlyCapability`) changes
   * it; everyone else sees it read-only, and a change they submit is the
   * problem `partner_only` (validateSettings with mayChangePartnerSettings: false).
   */
  partnerOnly?: boolean;
  /** Choices of a select. */
  options?: FieldOption[];
  /** Service address used when the field is empty, per environment (absent = none: the field is then required there). */
  environmentDefaults?: Partial<Record<Environment, string>>;
  placeholder?: string;
  rule: Rule;
  /** Id of a group of the plugin. */
  group: string;
}

export interface FieldGroup {
  id: string;
  label: string;
}

export interface PluginSchema {
  title: string;
  groups: FieldGroup[];
  fields: Field[];
}

export interface SettingsSchema {
  version: 1;
  /**
   * The WordPress capability a user needs to change a `partnerOnly` field:
   * whoever may add unfiltered code (on a multisite network WordPress grants
   * it to super admins only; DISALLOW_UNFILTERED_HTML takes it from everyone).
   */
  partnerOnlyCapability: 'unfiltered_html';
  plugins: Record<PluginId, PluginSchema>;
  /** Reference data the rules need (fiat limits and decimals for minor_amount). */
  reference: {
    fiat: { code: string; name: string; decimals: number; min: number; max: number; minMinor: number; maxMinor: number }[];
    crypto: { symbol: string; ticker: string; name: string; chain: string; decimals: number }[];
    /** Every ISO 639-1 code with its English name: what the lang rule accepts. */
    languages: { code: string; name: string }[];
    /** The codes of the languages the payment page is offered in (reference/languages.ts PAYMENT_PAGE_LANGUAGES). */
    paymentPageLanguages: string[];
  };
}

/** Default service addresses of the local sandbox (`npm start`); production addresses come from the partner manager. */
export const SANDBOX_SERVICE_URLS = Object.freeze({
  base_url: 'http://127.0.0.1:8787',
  widget_script_url: 'http://127.0.0.1:8787/widget.js',
  landing_url: 'http://127.0.0.1:8787/landing',
});

/** See SettingsSchema.partnerOnlyCapability. */
export const PARTNER_ONLY_CAPABILITY = 'unfiltered_html';

/** The headers a reverse proxy or CDN sets with the caller's address: the only ones the callback allowlist may trust. */
export const PROXY_ADDRESS_HEADERS = Object.freeze(['X-Forwarded-For', 'X-Real-IP', 'CF-Connecting-IP', 'True-Client-IP', 'Forwarded'] as const);

/**
 * The longest wallet key or descriptor read, in characters (the wallet_key
 * rule's maxLength; parseWalletKey refuses longer text before decoding it).
 * An extended public key has 111 characters; a descriptor of one with its key
 * origin, a <0;1> step and its checksum about 150; 512 leaves room for long
 * origin paths (docs/decisions.md, "Wallet key: a maximum length").
 */
export const WALLET_KEY_MAX_LENGTH = 512;

export const PARTNER_TOKEN_CONSTANT = 'CARD2CRYPTO_PARTNER_TOKEN';
export const PARTNER_SECRET_CONSTANT = 'CARD2CRYPTO_PARTNER_SECRET';

// ---------------------------------------------------------------- field makers

const CREDENTIAL_PATTERN = '^\\S+$';

const fiatOptions = (): FieldOption[] => FIAT_CURRENCIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));

function credentialFields(requiredWhen: Condition[] | undefined): Field[] {
  const when = requiredWhen ? { requiredWhen } : {};
  return [
    {
      id: 'partner_token',
      type: 'text',
      label: 'Partner token',
      help: `Your partner identifier, issued by the service with your secret. Can instead be set in wp-config.php as ${PARTNER_TOKEN_CONSTANT}.`,
      default: '',
      required: true,
      ...when,
      secret: false,
      constant: PARTNER_TOKEN_CONSTANT,
      rule: { kind: 'text', maxLength: 256, pattern: CREDENTIAL_PATTERN, patternMessage: 'The partner token must not contain spaces.' },
      group: 'credentials',
    },
    {
      id: 'partner_secret',
      type: 'secret',
      label: 'Partner secret',
      help: `Signs widget settings and API requests and checks the service's signatures. It never leaves this server. Leave empty to keep the saved secret; or set it in wp-config.php as ${PARTNER_SECRET_CONSTANT}.`,
      default: '',
      required: true,
      ...when,
      secret: true,
      constant: PARTNER_SECRET_CONSTANT,
      rule: { kind: 'text', maxLength: 512, pattern: CREDENTIAL_PATTERN, patternMessage: 'The partner secret must not contain spaces.' },
      group: 'credentials',
    },
  ];
}

function serviceFields(requiredWhen: Condition[]): Field[] {
  const url = (id: keyof typeof SANDBOX_SERVICE_URLS, label: string, help: string, stripTrailingSlash: boolean): Field => ({
    id,
    type: 'url',
    label,
    help: `${help} Required in production. In the sandbox environment, leave it empty to use the local sandbox (its address shows in the empty field).`,
    default: '',
    required: true,
    requiredWhen: [...requiredWhen, { field: 'environment', equals: 'production' }],
    secret: false,
    partnerOnly: true,
    environmentDefaults: { sandbox: SANDBOX_SERVICE_URLS[id] },
    placeholder: SANDBOX_SERVICE_URLS[id],
    rule: { kind: 'url', stripTrailingSlash, environmentField: 'environment' },
    group: 'service',
  });
  return [
    {
      id: 'environment',
      type: 'select',
      label: 'Environment',
      help: 'Sandbox talks to a test service and moves no real money. Switch to production with the addresses and credentials your partner manager gives you.',
      default: 'sandbox',
      required: true,
      secret: false,
      partnerOnly: true,
      options: [
        { value: 'sandbox', label: 'Sandbox (testing)' },
        { value: 'production', label: 'Production (live payments)' },
      ],
      rule: { kind: 'enum', values: ['sandbox', 'production'] },
      group: 'service',
    },
    url('base_url', 'API address', "The partner API's address, as your partner manager gives it.", true),
    url('widget_script_url', 'Widget script address', "The address of the service's widget script, as your partner manager gives it.", false),
    url('landing_url', 'Landing page address', "The address of the service's hosted payment page, as your partner manager gives it.", true),
  ];
}

const boolean = (id: string, label: string, help: string, def: boolean, group: string): Field => ({
  id,
  type: 'checkbox',
  label,
  help,
  default: def,
  required: false,
  secret: false,
  rule: { kind: 'boolean' },
  group,
});

// ---------------------------------------------------------------- the schema

const ENABLED: Condition[] = [{ field: 'enabled', equals: true }];

const checkout: PluginSchema = {
  title: 'Card to crypto payments',
  groups: [
    { id: 'general', label: 'Checkout' },
    { id: 'payment', label: 'Payment' },
    { id: 'credentials', label: 'Credentials' },
    { id: 'service', label: 'Service' },
    { id: 'security', label: 'Callbacks and security' },
    { id: 'advanced', label: 'Advanced' },
  ],
  fields: [
    boolean('enabled', 'Enable card payments', 'Offer this payment method at checkout.', false, 'general'),
    {
      id: 'title',
      type: 'text',
      label: 'Title',
      help: 'Name of the payment method that buyers see at checkout.',
      default: 'Credit or debit card',
      required: true,
      requiredWhen: ENABLED,
      secret: false,
      rule: { kind: 'text', maxLength: 100 },
      group: 'general',
    },
    {
      id: 'description',
      type: 'textarea',
      label: 'Description',
      // Empty by default: the payment box always says how paying works, the accepted methods and the
      // BTC estimate, so a default sentence here would only repeat one of those lines.
      help: 'Optional text shown under the title at checkout, above what the method always shows (how paying works, the accepted cards, the BTC estimate).',
      default: '',
      required: false,
      secret: false,
      rule: { kind: 'text', maxLength: 1000, multiline: true },
      group: 'general',
    },
    {
      id: 'wallet_mode',
      type: 'select',
      label: 'Where the bitcoin goes',
      help: "One address receives every payment, or each order gets a new address of your wallet, derived from its extended public key, so that no one can read the store's income from one address and each payment on chain belongs to one order.",
      default: 'address',
      required: false,
      secret: false,
      options: [
        { value: 'address', label: 'One address' },
        { value: 'xpub', label: 'A new address for each order (from an extended public key)' },
      ],
      rule: { kind: 'enum', values: ['address', 'xpub'] },
      group: 'payment',
    },
    {
      id: 'wallet_address',
      type: 'text',
      label: 'Bitcoin wallet address',
      help: 'Your wallet that receives the bitcoin bought with each payment. Production accepts mainnet addresses only; the sandbox also accepts testnet and regtest addresses.',
      default: '',
      required: true,
      requiredWhen: [...ENABLED, { field: 'wallet_mode', equals: 'address' }],
      secret: false,
      rule: {
        kind: 'btc_address',
        environmentField: 'environment',
        networks: { production: ['mainnet'], sandbox: ['mainnet', 'testnet', 'regtest'] },
      },
      group: 'payment',
    },
    {
      id: 'wallet_key_secret',
      type: 'secret',
      label: 'Extended public key or descriptor',
      help: "Your wallet's zpub, ypub or xpub (vpub, upub or tpub for the sandbox and testnet), or an output descriptor such as wpkh([fingerprint/84h/0h/0h]xpub…/0/*). Public keys only: never paste a private key (xprv, zprv…). It cannot spend anything, but it reveals every address of the wallet and so its whole payment history: once saved it is never shown in a page, sent to a browser or written to a log.",
      default: '',
      required: true,
      requiredWhen: [...ENABLED, { field: 'wallet_mode', equals: 'xpub' }],
      secret: true,
      keptAs: 'key',
      rule: { kind: 'wallet_key', environmentField: 'environment', maxLength: WALLET_KEY_MAX_LENGTH },
      group: 'payment',
    },
    {
      id: 'gap_limit',
      type: 'text',
      label: 'Wallet gap limit',
      help: 'How many unused addresses in a row your wallet looks ahead (20 in most wallets, the least any uses). The store never hands out an address past it, warns you before every address inside it is in use, and then takes new card payments again as soon as one is paid or freed.',
      default: '20',
      required: false,
      secret: false,
      rule: {
        kind: 'text',
        maxLength: 4,
        pattern: '^(?:[2-9][0-9]|[1-9][0-9]{2}|1000)$',
        patternMessage: 'enter a whole number from 20 (the least any wallet uses) to 1000.',
      },
      group: 'payment',
    },
    {
      id: 'store_currency',
      type: 'select',
      label: 'Store currency',
      help: 'Currency in which buyers pay. "Same as the shop" uses the WooCommerce currency, which must then be one the service supports.',
      default: '',
      required: false,
      secret: false,
      options: [{ value: '', label: 'Same as the shop (WooCommerce currency)' }, ...fiatOptions()],
      rule: { kind: 'fiat_currency' },
      group: 'payment',
    },
    {
      id: 'payment_flow',
      type: 'select',
      label: 'Payment flow',
      help: 'Redirect sends buyers to the hosted payment page and back; embedded shows the payment widget on your order page.',
      default: 'redirect',
      required: true,
      secret: false,
      options: [
        { value: 'redirect', label: 'Redirect to the payment page' },
        { value: 'embedded', label: 'Embedded widget on the order page' },
      ],
      rule: { kind: 'enum', values: ['redirect', 'embedded'] },
      group: 'payment',
    },
    boolean(
      'auto_confirm',
      'Confirm operations automatically',
      'When the service asks for partner confirmation, confirm automatically if the amount and currency match the order. Turn off to confirm or cancel each one from the order screen.',
      true,
      'payment',
    ),
    boolean(
      'fix_rate',
      'Fix the exchange rate when the order is placed',
      'Fixes the rate with the service each time the buyer goes to pay, so the bitcoin amount is known in advance and the buyer cannot change the amount or the currencies in the payment window. A fixed rate expires: the buyer must pay before it does, or pay again at a fresh rate. When off, the buyer can change the amount, and an order paid for another amount is held for you to check.',
      true,
      'payment',
    ),
    ...credentialFields(ENABLED),
    ...serviceFields(ENABLED),
    {
      id: 'callback_ips',
      type: 'textarea',
      label: 'Callback IP allowlist',
      help: 'IP addresses or ranges (CIDR), one per line, that callbacks may come from, as given by support. Empty accepts correctly signed callbacks from any address.',
      default: '',
      required: false,
      secret: false,
      placeholder: '203.0.113.10\n2001:db8::/32',
      rule: { kind: 'ip_list', maxEntries: 100 },
      group: 'security',
    },
    {
      id: 'trust_proxy_header',
      type: 'select',
      label: 'Client address header',
      help: "Only when the site is behind a reverse proxy or CDN: the header your proxy sets with the caller's address (its last entry is used). Any other header can be sent by the caller itself, so only these are offered.",
      default: '',
      required: false,
      secret: false,
      options: [{ value: '', label: 'None: the connection address' }, ...PROXY_ADDRESS_HEADERS.map((h) => ({ value: h, label: h }))],
      rule: { kind: 'enum', values: ['', ...PROXY_ADDRESS_HEADERS] },
      group: 'security',
    },
    {
      id: 'service_rate',
      type: 'text',
      label: 'Service requests a second',
      help: "The most requests a second the whole store sends the service, from every web server together: buyers' payments, callback confirmations, the owner's buttons, price and country updates and background checks share it, paying buyers first and background work last. The service limits each partner's requests a second; set this under the limit your partner manager gives you. 10 by default (the sandbox allows 20).",
      default: '10',
      required: false,
      secret: false,
      partnerOnly: true,
      rule: { kind: 'text', maxLength: 3, pattern: '^(?:[1-9][0-9]?|100)$', patternMessage: 'enter a whole number from 1 to 100.' },
      group: 'advanced',
    },
    {
      id: 'reconcile_rate',
      type: 'text',
      label: 'Background checks a second',
      help: "How many requests a second the store may send the service while it catches up on payments whose callbacks were lost (in the background, through WooCommerce's scheduled actions). Never more than the store's service requests a second, and only while buyers leave room: background checks wait whenever buyers need the service. 10 by default.",
      default: '10',
      required: false,
      secret: false,
      rule: { kind: 'text', maxLength: 2, pattern: '^(?:[1-9]|1[0-9]|20)$', patternMessage: 'enter a whole number from 1 to 20.' },
      group: 'advanced',
    },
    boolean(
      'debug_logging',
      'Debug logging',
      'Write requests, callbacks and decisions to the WooCommerce log. The partner secret is never logged.',
      false,
      'advanced',
    ),
    deleteDataOnUninstall("Remove the plugin's settings and stored operation data when the plugin is deleted. Orders and their notes are kept."),
  ],
};

/** Both plugins keep their settings on deactivation; deleting the plugin removes them only when the owner asked. */
function deleteDataOnUninstall(help: string): Field {
  return boolean('delete_data_on_uninstall', 'Delete data on uninstall', help, false, 'advanced');
}

const widget: PluginSchema = {
  title: 'Card to crypto widget',
  groups: [
    { id: 'general', label: 'Widget' },
    { id: 'credentials', label: 'Credentials' },
    { id: 'service', label: 'Service' },
    { id: 'appearance', label: 'Colours' },
    { id: 'advanced', label: 'Advanced' },
  ],
  fields: [
    {
      id: 'title',
      type: 'text',
      label: 'Title',
      help: 'Heading shown above the widget. Leave empty for none.',
      default: 'Buy crypto',
      required: false,
      secret: false,
      rule: { kind: 'text', maxLength: 100 },
      group: 'general',
    },
    ...credentialFields(undefined),
    {
      id: 'default_fiat_currency',
      type: 'select',
      label: 'Default fiat currency',
      help: 'Currency the buyer pays with, preselected in the widget.',
      default: 'EUR',
      required: true,
      secret: false,
      options: fiatOptions(),
      rule: { kind: 'fiat_currency' },
      group: 'general',
    },
    {
      id: 'default_amount',
      type: 'amount',
      label: 'Default amount',
      help: "Amount in the default fiat currency pre-filled in the widget, e.g. 100 or 99.50; it must lie within the service's limits for that currency. Leave empty to let the buyer type it.",
      default: '',
      required: false,
      secret: false,
      placeholder: '100.00',
      rule: { kind: 'minor_amount', currencyField: 'default_fiat_currency' },
      group: 'general',
    },
    {
      id: 'default_crypto_currency',
      type: 'select',
      label: 'Default crypto currency',
      help: 'Crypto currency preselected in the widget.',
      default: 'BTC',
      required: true,
      secret: false,
      options: CRYPTO_ASSETS.map((a) => ({ value: a.symbol, label: cryptoAssetLabel(a) })),
      rule: { kind: 'crypto_currency' },
      group: 'general',
    },
    {
      id: 'default_language',
      type: 'select',
      label: 'Widget language',
      help: 'Language of the payment page. "Site language" follows the language of the page when the payment page is offered in it, else English.',
      default: '',
      required: false,
      secret: false,
      // The languages the payment page is offered in; any other ISO 639-1 code (an older save) stays valid (rule lang).
      options: [{ value: '', label: 'Site language' }, ...PAYMENT_PAGE_LANGUAGES.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))],
      rule: { kind: 'lang' },
      group: 'general',
    },
    ...serviceFields([]),
    ...THEME_PROPERTIES.map((t): Field => ({
      id: `color_${t.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`,
      type: 'color',
      label: t.label,
      help: `${t.affects}. Default ${t.default}.`,
      default: t.default,
      required: false,
      secret: false,
      placeholder: t.default,
      rule: { kind: 'color', property: t.cssVar },
      group: 'appearance',
    })),
    deleteDataOnUninstall("Remove the plugin's settings when the plugin is deleted. Deactivating never removes them."),
  ],
};

export const SETTINGS_SCHEMA: SettingsSchema = deepFreeze({
  version: 1,
  partnerOnlyCapability: PARTNER_ONLY_CAPABILITY,
  plugins: { checkout, widget },
  reference: {
    fiat: FIAT_CURRENCIES.map(({ code, name, decimals, min, max, minMinor, maxMinor }) => ({ code, name, decimals, min, max, minMinor, maxMinor })),
    crypto: CRYPTO_ASSETS.map(({ symbol, ticker, name, chain, decimals }) => ({ symbol, ticker, name, chain, decimals })),
    languages: LANGUAGES.map(({ code, name }) => ({ code, name })),
    paymentPageLanguages: PAYMENT_PAGE_LANGUAGES.map((l) => l.code),
  },
});

/** The committed schema/settings.json text: 2-space JSON plus a final newline. */
export function settingsSchemaJson(): string {
  return `${JSON.stringify(SETTINGS_SCHEMA, null, 2)}\n`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) {
      deepFreeze(inner);
    }
    Object.freeze(value);
  }
  return value;
}
