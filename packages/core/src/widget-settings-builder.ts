/**
 * Server-side builder of signed widget settings. Node-only (signing uses
 * node:crypto), hence apart from the browser-safe validator.
 */
import { sign } from './signing/index.js';
import { ValidationError } from './validation.js';
import { type UnsignedWidgetSettings, type WidgetSettings, type WidgetValidationOptions, validateWidgetSettings } from './widget-settings.js';

export interface BuildWidgetSettingsOptions {
  /** The partner secret (never sent to a browser; only the signature is). */
  secret: string;
  /** Clock in milliseconds since the epoch; default Date.now. */
  now?: () => number;
  /** Networks accepted for a BTC to_account; default all. */
  btcNetworks?: WidgetValidationOptions['btcNetworks'];
}

/**
 * Validate the partner's settings, stamp `timestamp` (now, in ms) and sign
 * them (simple form). Throws ValidationError listing every problem; the
 * input object is not modified. Sign just in time: the service accepts the
 * timestamp 30 s ahead / 5 s behind its clock.
 */
export function buildSignedWidgetSettings(settings: UnsignedWidgetSettings, options: BuildWidgetSettingsOptions): WidgetSettings {
  const problems = validateWidgetSettings(settings, {
    signed: false,
    ...(options.btcNetworks ? { btcNetworks: options.btcNetworks } : {}),
  });
  if (problems.length > 0) {
    throw new ValidationError('Invalid widget settings', problems);
  }
  const unsigned: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && typeof value !== 'function') {
      unsigned[name] = value;
    }
  }
  const timestamp = (options.now ?? Date.now)();
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0) {
    throw new RangeError(`now() must return whole milliseconds, got ${timestamp}`);
  }
  const stamped = { ...unsigned, timestamp } as Omit<WidgetSettings, 'signature'>;
  return { ...stamped, signature: sign(stamped, options.secret, { form: 'simple' }) };
}
