/**
 * `validateSettings`: the settings schema's rules applied in TypeScript. The
 * PHP plugins apply the same rules to the same JSON; schema/rule-vectors.json
 * (generated from this validator) lets both sides prove they agree.
 *
 * Problems carry `rule` = 'unknown_field', 'type', 'required', 'partner_only' or the field's
 * rule kind, so PHP and TS can be compared by (field, rule) alone.
 */
import { validateBtcAddress } from './btc-address.js';
import { isIpOrCidr, splitIpList } from './ip.js';
import { MoneyError, decimalToMinor, minorToDecimal } from './money.js';
import { isCryptoSymbol } from './reference/crypto.js';
import { findFiatCurrency } from './reference/fiat.js';
import { isLanguageCode } from './reference/languages.js';
import { type Environment, type Field, type FieldValue, type PluginId, SETTINGS_SCHEMA } from './settings-schema.js';
import { isValidColor, normalizeColor } from './theme.js';
import { type Problem, hasLocalHost, isHttpUrl, isPlainObject, problem } from './validation.js';

export interface SettingsValidationOptions {
  /** The values saved before: a secret field submitted empty keeps its saved value. */
  stored?: Readonly<Record<string, unknown>>;
  /** wp-config constants that are defined: a field whose `constant` is listed needs no value of its own. */
  definedConstants?: readonly string[];
  /**
   * Whether the user saving may change the partner's fields (`partnerOnly`:
   * the service's environment and addresses). Default true. When false, such
   * a field left out of the input keeps its stored value, and a value that
   * differs from the stored one (both normalised) is the problem `partner_only`.
   */
  mayChangePartnerSettings?: boolean;
  /**
   * Checks a `wallet_key` value (an extended public key or descriptor) for the
   * environment: null when it may be used, else why not. The server entry of
   * the package (`@card2crypto/core`) passes BIP32's `parseWalletKey`; the
   * browser entry has no key parser (the key never reaches a browser), so
   * there a `wallet_key` value is a problem.
   */
  walletKey?: (text: string, environment: FieldValue | undefined) => string | null;
}

/** Why a partner's field was refused: the reason part of a `partner_only` problem (after "<Label>: "). */
export const PARTNER_ONLY_MESSAGE =
  "only a user who may add unfiltered code (an administrator; on a multisite network, a super admin) can change the payment service's environment and addresses.";

export interface SettingsValidationResult {
  /**
   * Every field of the plugin in schema order: normalised when valid, the
   * default when absent (or not even of the right type), the submitted value
   * when it breaks its rule (to show it again). Save only when `problems` is empty.
   */
  values: Record<string, FieldValue>;
  problems: Problem[];
}

type Check = { ok: true; value: FieldValue } | { ok: false; message: string };

const TRUE_WORDS = new Set(['1', 'yes', 'on', 'true']);
const FALSE_WORDS = new Set(['0', 'no', 'off', 'false', '']);

/** Validate (and normalise) submitted settings of one plugin; never throws for bad input. */
export function validateSettings(plugin: PluginId, input: unknown, options: SettingsValidationOptions = {}): SettingsValidationResult {
  const schema = SETTINGS_SCHEMA.plugins[plugin];
  if (!schema) {
    throw new TypeError(`Unknown plugin "${String(plugin)}"; expected checkout or widget.`);
  }
  const problems: Problem[] = [];
  const values: Record<string, FieldValue> = {};
  if (!isPlainObject(input)) {
    problems.push(problem('', 'type', 'Settings must be an object of field values.'));
    for (const field of schema.fields) {
      values[field.id] = field.default;
    }
    return { values, problems };
  }

  const known = new Set(schema.fields.map((f) => f.id));
  for (const name of Object.keys(input)) {
    if (!known.has(name)) {
      problems.push(problem(name, 'unknown_field', `"${name}" is not a setting of this plugin.`));
    }
  }

  // Pass 1: coerce to the field's value type, fill defaults, keep stored secrets.
  const invalid = new Set<string>();
  const lockPartner = options.mayChangePartnerSettings === false;
  for (const field of schema.fields) {
    // A partner's field the user may not change and did not send keeps what is stored.
    const raw = lockPartner && field.partnerOnly && (input[field.id] === undefined || input[field.id] === null) ? options.stored?.[field.id] : input[field.id];
    if (raw === undefined || raw === null) {
      values[field.id] = field.default;
    } else if (field.rule.kind === 'boolean') {
      const b = toBoolean(raw);
      if (b === undefined) {
        problems.push(problem(field.id, 'boolean', `${field.label}: expected on or off (true/false, yes/no, 1/0).`));
        invalid.add(field.id);
        values[field.id] = field.default;
      } else {
        values[field.id] = b;
      }
    } else if (typeof raw !== 'string') {
      problems.push(problem(field.id, 'type', `${field.label}: expected text, got ${Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}.`));
      invalid.add(field.id);
      values[field.id] = field.default;
    } else {
      values[field.id] = field.rule.kind === 'text' && field.rule.multiline ? raw.replace(/\r\n?/g, '\n').trim() : raw.trim();
    }
    if (field.secret && values[field.id] === '' && typeof options.stored?.[field.id] === 'string') {
      values[field.id] = (options.stored[field.id] as string).trim();
    }
  }

  // Pass 2: required and rule checks, reading other fields' normalised values.
  const constants = new Set(options.definedConstants ?? []);
  for (const field of schema.fields) {
    if (invalid.has(field.id)) {
      continue;
    }
    const found = problems.length;
    checkField(field, values, constants, problems, options.walletKey);
    if (lockPartner && field.partnerOnly && problems.length === found && values[field.id] !== storedPartnerValue(field, options.stored, values)) {
      problems.push(problem(field.id, 'partner_only', `${field.label}: ${PARTNER_ONLY_MESSAGE}`));
    }
  }
  return { values, problems };
}

/** Required and rule checks of one field (pass 2): normalises values[field.id] or adds its problem. */
function checkField(
  field: Field,
  values: Record<string, FieldValue>,
  constants: ReadonlySet<string>,
  problems: Problem[],
  walletKey: SettingsValidationOptions['walletKey'],
): void {
  const value = values[field.id]!;
  if (value === '' || value === false) {
    const coveredByConstant = field.constant !== undefined && constants.has(field.constant);
    const conditionsHold = (field.requiredWhen ?? []).every((c) => values[c.field] === c.equals);
    if (value === '' && field.required && conditionsHold && !coveredByConstant) {
      problems.push(problem(field.id, 'required', `${field.label} is required.`));
    }
    return;
  }
  const check = checkRule(field, value, values, walletKey);
  if (check.ok) {
    values[field.id] = check.value;
  } else {
    problems.push(problem(field.id, field.rule.kind, `${field.label}: ${check.message}`));
  }
}

/** A partner's field as stored, normalised as a submission would be (so that an unchanged field compares equal). */
function storedPartnerValue(field: Field, stored: Readonly<Record<string, unknown>> | undefined, values: Record<string, FieldValue>): FieldValue {
  const raw = stored?.[field.id];
  const text = typeof raw === 'string' ? raw.trim() : typeof field.default === 'string' ? field.default : '';
  if (text === '') {
    return '';
  }
  const check = checkRule(field, text, values);
  return check.ok ? check.value : text;
}

function toBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') {
    return raw;
  }
  if (raw === 1) {
    return true;
  }
  if (raw === 0) {
    return false;
  }
  if (typeof raw === 'string') {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) {
      return true;
    }
    if (FALSE_WORDS.has(word)) {
      return false;
    }
  }
  return undefined;
}

const PRODUCTION_LOCAL_HOST =
  'production cannot use this computer or a private network (localhost, 127.x, 10.x, 192.168.x, ...): that is the sandbox. Enter the address your partner manager gave you, or choose the sandbox environment.';

function checkRule(field: Field, value: FieldValue, values: Record<string, FieldValue>, walletKey?: SettingsValidationOptions['walletKey']): Check {
  const rule = field.rule;
  const text = String(value);
  switch (rule.kind) {
    case 'boolean':
      return { ok: true, value };
    case 'text': {
      if (!rule.multiline && /[\r\n]/.test(text)) {
        return { ok: false, message: 'must be a single line.' };
      }
      if ([...text].length > rule.maxLength) {
        return { ok: false, message: `at most ${rule.maxLength} characters.` };
      }
      if (rule.pattern !== undefined && !new RegExp(rule.pattern, 'u').test(text)) {
        return { ok: false, message: rule.patternMessage ?? 'has an invalid format.' };
      }
      return { ok: true, value: text };
    }
    case 'enum':
      return rule.values.includes(text) ? { ok: true, value: text } : { ok: false, message: `choose one of ${rule.values.join(', ')}.` };
    case 'url': {
      if (!isHttpUrl(text)) {
        return { ok: false, message: 'enter an absolute address starting with http:// or https://.' };
      }
      if (rule.environmentField !== undefined && values[rule.environmentField] === 'production') {
        if (!/^https:/i.test(text)) {
          return { ok: false, message: 'production needs an https:// address.' };
        }
        if (hasLocalHost(text)) {
          return { ok: false, message: PRODUCTION_LOCAL_HOST };
        }
      }
      return { ok: true, value: rule.stripTrailingSlash ? text.replace(/\/+$/, '') : text };
    }
    case 'btc_address': {
      const env = values[rule.environmentField];
      const networks = env === 'sandbox' || env === 'production' ? rule.networks[env as Environment] : rule.networks.production;
      const result = validateBtcAddress(text, { networks });
      return result.valid ? { ok: true, value: text } : { ok: false, message: result.reason };
    }
    case 'wallet_key': {
      // Before any decoding (which slows down with the square of the length).
      if (text.length > rule.maxLength && [...text].length > rule.maxLength) {
        return { ok: false, message: `at most ${rule.maxLength} characters.` };
      }
      if (!walletKey) {
        return { ok: false, message: 'an extended public key is checked on the server only.' };
      }
      const why = walletKey(text, values[rule.environmentField]);
      return why === null ? { ok: true, value: text } : { ok: false, message: why };
    }
    case 'fiat_currency':
      return findFiatCurrency(text) ? { ok: true, value: text } : { ok: false, message: `"${text}" is not a supported fiat currency.` };
    case 'crypto_currency':
      return isCryptoSymbol(text) ? { ok: true, value: text } : { ok: false, message: `"${text}" is not a supported crypto currency.` };
    case 'minor_amount': {
      const currency = findFiatCurrency(String(values[rule.currencyField] ?? ''));
      // Without a valid currency the amount cannot be judged; that field reports its own problem.
      if (!currency) {
        return { ok: true, value: text };
      }
      let minor: bigint;
      try {
        minor = decimalToMinor(text, currency.decimals);
      } catch (error) {
        if (error instanceof MoneyError && error.code === 'too_many_decimals') {
          return {
            ok: false,
            message: `${currency.code} allows ${currency.decimals === 0 ? 'whole amounts only' : `at most ${currency.decimals} decimal places`}.`,
          };
        }
        return { ok: false, message: 'enter a plain amount such as 100 or 99.50 (no spaces, signs or thousands separators).' };
      }
      const min = BigInt(currency.minMinor);
      const max = BigInt(currency.maxMinor);
      if (minor < min || minor > max) {
        return {
          ok: false,
          message: `must be between ${minorToDecimal(min, currency.decimals)} and ${minorToDecimal(max, currency.decimals)} ${currency.code}.`,
        };
      }
      return { ok: true, value: minorToDecimal(minor, currency.decimals) };
    }
    case 'color':
      return isValidColor(text)
        ? { ok: true, value: normalizeColor(text) }
        : { ok: false, message: 'enter a CSS colour such as #6a42e9, rgba(40, 51, 78, 0.3) or a colour name.' };
    case 'lang':
      return isLanguageCode(text) ? { ok: true, value: text } : { ok: false, message: `"${text}" is not an ISO 639-1 language code.` };
    case 'email':
      return new RegExp(rule.pattern).test(text) && text.length <= 254 ? { ok: true, value: text } : { ok: false, message: 'enter an e-mail address.' };
    case 'ip_list': {
      const entries = splitIpList(text);
      const bad = entries.filter((entry) => !isIpOrCidr(entry));
      if (bad.length > 0) {
        return { ok: false, message: `not an IP address or CIDR range: ${bad.join(', ')}.` };
      }
      if (entries.length > rule.maxEntries) {
        return { ok: false, message: `at most ${rule.maxEntries} entries.` };
      }
      return { ok: true, value: entries.join('\n') };
    }
  }
}
