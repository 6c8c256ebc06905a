export {};
export * from './status.js';
export * from './retry-schedule.js';
export * from './signing/index.js';
export * from './api/index.js';
export * from './callbacks.js';
export * from './browser.js';
export * from './widget-settings-builder.js';
export * from './bip32/index.js';
