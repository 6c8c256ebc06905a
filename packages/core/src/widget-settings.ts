/**
 * Widget settings (first argument of the widget run function): types for every
 * documented setting and event handler, and a validator that reports every
 * problem at once, each with the field and the rule it broke.
 *
 * Browser-safe: no node: imports here. The signing builder lives in
 * widget-settings-builder.ts (it needs node:crypto through signing/).
 */
import type { OperationData } from './api/types.js';
import { type BtcNetwork, validateBtcAddress } from './btc-address.js';
import { formatMinorUnits } from './money.js';
import { cryptoSymbolCaseInsensitive, findCryptoAsset } from './reference/crypto.js';
import { FIAT_CURRENCIES, findFiatCurrency } from './reference/fiat.js';
import { isLanguageCode } from './reference/languages.js';
import { type Problem, isEmail, isHttpUrl, isPlainObject, problem } from './validation.js';

/** Settings the partner decides (everything except `timestamp` and `signature`). */
export interface UnsignedWidgetSettings {
  /** Id of the HTML element that receives the widget. */
  target_element: string;
  partner_token: string;
  /** ISO 4217 code, upper case, from the supported fiat table. */
  from_currency?: string;
  /** Minor units of from_currency (100 per euro). Requires from_currency. */
  from_amount?: number;
  /** Supported crypto symbol exactly as the service writes it (e.g. BTC). */
  to_currency?: string;
  /** Minor units of to_currency (100,000,000 per BTC); must be a safe integer. Requires to_currency. */
  to_amount?: number;
  /** Customer's wallet address. */
  to_account?: string;
  /** ISO 639-1 alpha-2, lower case; the widget defaults to en. */
  lang?: string;
  /** Customer login (an e-mail address). */
  user_login?: string;
  /** Operation id in the partner's system. */
  partner_operation_id?: string;
  /** Absolute http(s) URL of the CSS file with widget colours. */
  partner_css?: string;
  /** Rate identifier from the rate-fixing endpoint (setting name: decisions.md). */
  calculation_id?: string;
}

/** Signed settings as passed to the widget. */
export interface WidgetSettings extends UnsignedWidgetSettings {
  /** Milliseconds since the Unix epoch, stamped when signing. */
  timestamp: number;
  /** HMAC-SHA512 hex of the other settings (simple form). */
  signature: string;
}

export interface WidgetSize {
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
}

/** Event handlers the widget calls (all optional). */
export interface WidgetEventHandlers {
  /** Widget content finished loading. */
  onLoaded?: (size: WidgetSize) => void;
  /** Widget document resized (e.g. height changes between purchase steps). */
  onResize?: (size: WidgetSize) => void;
  /** Widget closed. */
  onExit?: () => void;
  /** An error stops the process. */
  onError?: (error: { message: string }) => void;
  /** Widget starts from its starting point (each reset to the beginning). */
  onStarted?: () => void;
  /** Transaction registered in processing; receives the operation id. */
  onOperationCreated?: (operationId: string) => void;
  /** The user pressed Pay. */
  onPaymentSent?: () => void;
  /** Operation status set to success. */
  onOperationSuccess?: (data: OperationData) => void;
  /** Purchase operation in progress. */
  onOperationPending?: (data: OperationData) => void;
  /** Purchase operation unsuccessful. */
  onOperationFail?: (data: OperationData) => void;
}

/** What the widget run function takes: signed settings plus handlers. */
export type WidgetRunSettings = WidgetSettings & WidgetEventHandlers;

export const WIDGET_SETTING_NAMES = Object.freeze([
  'target_element',
  'partner_token',
  'timestamp',
  'signature',
  'from_currency',
  'from_amount',
  'to_currency',
  'to_amount',
  'to_account',
  'lang',
  'user_login',
  'partner_operation_id',
  'partner_css',
  'calculation_id',
] as const);

export const WIDGET_EVENT_NAMES = Object.freeze([
  'onLoaded',
  'onResize',
  'onExit',
  'onError',
  'onStarted',
  'onOperationCreated',
  'onPaymentSent',
  'onOperationSuccess',
  'onOperationPending',
  'onOperationFail',
] as const);

export interface WidgetValidationOptions {
  /**
   * true (default): validate signed settings (timestamp and signature required).
   * false: validate what a partner passes to the builder (timestamp and
   * signature must be absent: the builder stamps and signs).
   */
  signed?: boolean;
  /** Networks accepted for a BTC to_account; default all (mainnet, testnet, regtest). */
  btcNetworks?: readonly BtcNetwork[];
}

const SETTING_NAMES = new Set<string>(WIDGET_SETTING_NAMES);
const EVENT_NAMES = new Set<string>(WIDGET_EVENT_NAMES);
const HTML_ID_RE = /^[^\s]+$/;
const NO_SPACE_RE = /^\S+$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const TRON_ADDRESS_RE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** Earliest plausible millisecond timestamp (2001-09-09); anything smaller was probably given in seconds. */
const MIN_MS_TIMESTAMP = 1e12;
const MAX_TEXT = 1024;

/** What every rule family reads from: the settings, their readers, and where problems go. */
interface Check {
  input: Record<string, unknown>;
  options: WidgetValidationOptions;
  signed: boolean;
  /** The settings that must be present (the stamped ones too when signed). */
  required: readonly string[];
  problems: Problem[];
  /** Given, and not undefined. */
  present: (name: string) => boolean;
  /** The setting as a non-empty string of at most MAX_TEXT characters, else undefined (its problem noted). */
  str: (name: string) => string | undefined;
  /** The setting as a number, else undefined (its problem noted). */
  num: (name: string) => number | undefined;
}

/**
 * Every problem with a widget settings object, in field order; [] when valid.
 * Rules: `object`, `required`, `type`, `unknown_field`, `set_by_builder`,
 * `not_empty`, `html_id`, `text`, `timestamp`, `signature`, `fiat_currency`,
 * `crypto_currency`, `minor_amount`, `safe_integer`, `min`, `max`, `requires`,
 * `wallet_address`, `btc_address`, `lang`, `email`, `url`, `calculation_id`, `handler`.
 * Each family of rules is one function below, applied in this order.
 */
export function validateWidgetSettings(input: unknown, options: WidgetValidationOptions = {}): Problem[] {
  if (!isPlainObject(input)) {
    return [problem('', 'object', 'Widget settings must be a plain object.')];
  }
  const check = newCheck(input, options);
  checkNames(check);
  checkRequired(check);
  checkIdentity(check);
  if (check.signed) {
    checkStamp(check);
  }
  checkFiat(check);
  checkCrypto(check);
  checkBuyer(check);
  checkRateAndLook(check);
  return orderByField(check.problems);
}

function newCheck(input: Record<string, unknown>, options: WidgetValidationOptions): Check {
  const signed = options.signed ?? true;
  const problems: Problem[] = [];
  const required = signed ? ['target_element', 'partner_token', 'timestamp', 'signature'] : ['target_element', 'partner_token'];
  return {
    input,
    options,
    signed,
    required,
    problems,
    present: (name) => input[name] !== undefined,
    str(name) {
      const value = input[name];
      if (value === undefined || value === null) {
        return undefined;
      }
      if (typeof value !== 'string') {
        problems.push(problem(name, 'type', `${name} must be a string, not ${describe(value)}.`));
        return undefined;
      }
      if (value === '') {
        problems.push(
          required.includes(name)
            ? problem(name, 'required', `${name} is required and must not be empty.`)
            : problem(name, 'not_empty', `${name} must not be empty (leave it out instead).`),
        );
        return undefined;
      }
      if (value.length > MAX_TEXT) {
        problems.push(problem(name, 'text', `${name} is longer than ${MAX_TEXT} characters.`));
        return undefined;
      }
      return value;
    },
    num(name) {
      const value = input[name];
      if (value === undefined || value === null) {
        return undefined;
      }
      if (typeof value !== 'number') {
        problems.push(problem(name, 'type', `${name} must be a number, not ${describe(value)}.`));
        return undefined;
      }
      return value;
    },
  };
}

/** Names: unknown settings, handlers that are not functions, stamped fields given too early, null for absent. */
function checkNames({ input, signed, required, problems }: Check): void {
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) {
      continue;
    }
    if (EVENT_NAMES.has(name)) {
      if (typeof value !== 'function') {
        problems.push(problem(name, 'handler', `${name} must be a function.`));
      }
    } else if (!SETTING_NAMES.has(name)) {
      problems.push(problem(name, 'unknown_field', `"${name}" is not a widget setting or event handler (check the spelling).`));
    } else if (!signed && (name === 'timestamp' || name === 'signature')) {
      problems.push(problem(name, 'set_by_builder', `${name} is set when the settings are signed; do not pass it.`));
    } else if (value === null && !required.includes(name)) {
      problems.push(problem(name, 'type', `${name} must be left out rather than set to null.`));
    }
  }
}

function checkRequired({ input, required, problems, present }: Check): void {
  for (const name of required) {
    if (!present(name) || input[name] === null) {
      problems.push(problem(name, 'required', `${name} is required.`));
    }
  }
}

/** target_element and partner_token. */
function checkIdentity({ problems, str }: Check): void {
  const targetElement = str('target_element');
  if (targetElement !== undefined && !HTML_ID_RE.test(targetElement)) {
    problems.push(problem('target_element', 'html_id', 'target_element must be an element id without spaces.'));
  }
  const partnerToken = str('partner_token');
  if (partnerToken !== undefined && !NO_SPACE_RE.test(partnerToken)) {
    problems.push(problem('partner_token', 'text', 'partner_token must not contain spaces.'));
  }
}

/** timestamp and signature, of signed settings. */
function checkStamp({ problems, str, num }: Check): void {
  const timestamp = num('timestamp');
  if (timestamp !== undefined) {
    if (!Number.isSafeInteger(timestamp) || timestamp <= 0) {
      problems.push(problem('timestamp', 'timestamp', 'timestamp must be a positive whole number of milliseconds since 1970-01-01 UTC.'));
    } else if (timestamp < MIN_MS_TIMESTAMP) {
      problems.push(problem('timestamp', 'timestamp', `timestamp ${timestamp} looks like seconds; it must be milliseconds since 1970-01-01 UTC.`));
    }
  }
  const signature = str('signature');
  if (signature !== undefined && !/^[0-9a-fA-F]{128}$/.test(signature)) {
    problems.push(problem('signature', 'signature', 'signature must be 128 hexadecimal characters (HMAC-SHA512).'));
  }
}

/** from_currency and from_amount: a supported fiat currency, an amount in its minor units within its limits. */
function checkFiat({ problems, present, str, num }: Check): void {
  const fromCurrency = str('from_currency');
  const fiat = fromCurrency === undefined ? undefined : findFiatCurrency(fromCurrency);
  if (fromCurrency !== undefined && !fiat) {
    problems.push(problem('from_currency', 'fiat_currency', fiatCurrencyMessage('from_currency', fromCurrency)));
  }
  const fromAmount = num('from_amount');
  if (present('from_amount') && !present('from_currency')) {
    problems.push(problem('from_amount', 'requires', 'from_amount must not be passed without from_currency.'));
  }
  if (fromAmount === undefined) {
    return;
  }
  if (!Number.isSafeInteger(fromAmount) || fromAmount <= 0) {
    problems.push(
      problem('from_amount', 'minor_amount', `from_amount must be a positive whole number of minor units (e.g. 1050 for 10.50), got ${fromAmount}.`),
    );
  } else if (fiat) {
    if (fromAmount < fiat.minMinor) {
      problems.push(
        problem(
          'from_amount',
          'min',
          `from_amount ${fromAmount} (${formatMinorUnits(fromAmount, fiat.code)} ${fiat.code}) is below the minimum ${formatMinorUnits(fiat.minMinor, fiat.code)} ${fiat.code} (${fiat.minMinor} minor units).`,
        ),
      );
    } else if (fromAmount > fiat.maxMinor) {
      problems.push(
        problem(
          'from_amount',
          'max',
          `from_amount ${fromAmount} (${formatMinorUnits(fromAmount, fiat.code)} ${fiat.code}) is above the maximum ${formatMinorUnits(fiat.maxMinor, fiat.code)} ${fiat.code} (${fiat.maxMinor} minor units).`,
        ),
      );
    }
  }
}

/** to_currency, to_amount and to_account: a supported asset written as the service writes it, an exact amount, an address of its chain. */
function checkCrypto({ input, options, problems, present, str, num }: Check): void {
  const toCurrency = str('to_currency');
  const asset = toCurrency === undefined ? undefined : findCryptoAsset(toCurrency);
  if (toCurrency !== undefined && !asset) {
    const canonical = cryptoSymbolCaseInsensitive(toCurrency);
    problems.push(
      problem(
        'to_currency',
        'crypto_currency',
        canonical ? `to_currency "${toCurrency}" must be written exactly "${canonical}".` : `to_currency "${toCurrency}" is not a supported crypto asset.`,
      ),
    );
  }
  if (present('to_amount') && !present('to_currency')) {
    problems.push(problem('to_amount', 'requires', 'to_amount must not be passed without to_currency.'));
  }
  const toAmount = input.to_amount;
  if (typeof toAmount === 'bigint') {
    problems.push(problem('to_amount', 'type', 'to_amount must be a number (the widget takes JSON numbers), not a bigint.'));
  } else {
    const value = num('to_amount');
    if (value !== undefined) {
      if (Number.isInteger(value) && value > 0 && !Number.isSafeInteger(value)) {
        problems.push(
          problem(
            'to_amount',
            'safe_integer',
            `to_amount ${value} is not a safe integer (at most ${Number.MAX_SAFE_INTEGER}); it cannot be sent exactly as a number. Pass from_amount instead.`,
          ),
        );
      } else if (!Number.isSafeInteger(value) || value <= 0) {
        problems.push(problem('to_amount', 'minor_amount', `to_amount must be a positive whole number of minor units (100000000 per BTC), got ${value}.`));
      }
    }
  }

  const toAccount = str('to_account');
  if (toAccount === undefined) {
    return;
  }
  if (!NO_SPACE_RE.test(toAccount)) {
    problems.push(problem('to_account', 'wallet_address', 'to_account must not contain spaces.'));
  } else if (asset?.chain === 'Bitcoin') {
    const result = validateBtcAddress(toAccount, options.btcNetworks ? { networks: options.btcNetworks } : {});
    if (!result.valid) {
      problems.push(problem('to_account', 'btc_address', `to_account is not a valid Bitcoin address: ${result.reason}`));
    }
  } else if (asset && (asset.chain === 'Ethereum' || asset.chain === 'Binance Smart Chain' || asset.chain === 'Polygon')) {
    if (!EVM_ADDRESS_RE.test(toAccount)) {
      problems.push(problem('to_account', 'wallet_address', `to_account must be a ${asset.chain} address: 0x followed by 40 hexadecimal characters.`));
    }
  } else if (asset?.chain === 'TRON' && !TRON_ADDRESS_RE.test(toAccount)) {
    problems.push(problem('to_account', 'wallet_address', 'to_account must be a TRON address: T followed by 33 base58 characters.'));
  }
}

/** lang, user_login and partner_operation_id: who buys, in which language, for which of the partner's operations. */
function checkBuyer({ problems, str }: Check): void {
  const lang = str('lang');
  if (lang !== undefined && !isLanguageCode(lang)) {
    problems.push(
      problem(
        'lang',
        'lang',
        isLanguageCode(lang.toLowerCase())
          ? `lang must be lower case: "${lang.toLowerCase()}".`
          : `lang "${lang}" is not an ISO 639-1 two-letter language code (e.g. en, de).`,
      ),
    );
  }
  const userLogin = str('user_login');
  if (userLogin !== undefined && !isEmail(userLogin)) {
    problems.push(problem('user_login', 'email', 'user_login must be an e-mail address.'));
  }
  str('partner_operation_id');
}

/** partner_css and calculation_id: the widget's colours and a fixed rate. */
function checkRateAndLook({ problems, str }: Check): void {
  const partnerCss = str('partner_css');
  if (partnerCss !== undefined && !isHttpUrl(partnerCss)) {
    problems.push(problem('partner_css', 'url', 'partner_css must be an absolute http(s) URL of a CSS file.'));
  }
  const calculationId = str('calculation_id');
  if (calculationId !== undefined && !NO_SPACE_RE.test(calculationId)) {
    problems.push(problem('calculation_id', 'calculation_id', 'calculation_id must be the rate identifier returned by rate fixing (no spaces).'));
  }
}

function fiatCurrencyMessage(field: string, code: string): string {
  if (!/^[A-Z]{3}$/.test(code)) {
    const upper = code.toUpperCase();
    return /^[A-Z]{3}$/.test(upper) && findFiatCurrency(upper)
      ? `${field} must be upper case: "${upper}".`
      : `${field} "${code}" must be a three-letter upper-case ISO 4217 code.`;
  }
  return `${field} "${code}" is not supported; supported: ${FIAT_CURRENCIES.map((c) => c.code).join(', ')}.`;
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return `a ${typeof value}`;
}

/** Problems in documented order: settings, then handlers, then unknown names; stable and readable. */
function orderByField(problems: Problem[]): Problem[] {
  const names: readonly string[] = [...WIDGET_SETTING_NAMES, ...WIDGET_EVENT_NAMES];
  const order = (field: string): number => {
    const i = names.indexOf(field);
    return i < 0 ? names.length : i;
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => order(a.p.field) - order(b.p.field) || a.i - b.i)
    .map(({ p }) => p);
}
