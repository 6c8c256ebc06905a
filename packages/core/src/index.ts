export {};
export * from './status.js';
export * from './retry-schedule.js';
export * from './signing/index.js';
export * from './api/index.js';
export * from './callbacks.js';
export * from './browser.js';
export * from './widget-settings-builder.js';
export * from './bip32/index.js';

import { checkWalletKey } from './bip32/index.js';
import { type PluginId } from './settings-schema.js';
import { type SettingsValidationOptions, type SettingsValidationResult, validateSettings as validateSettingsWith } from './settings-validator.js';

/**
 * validateSettings() with every rule, the `wallet_key` one included (BIP32:
 * an extended public key never reaches a browser, so the browser entry has
 * no parser for it).
 */
export function validateSettings(plugin: PluginId, input: unknown, options: SettingsValidationOptions = {}): SettingsValidationResult {
  return validateSettingsWith(plugin, input, { walletKey: checkWalletKey, ...options });
}
