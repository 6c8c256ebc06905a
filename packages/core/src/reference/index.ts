export * from './fiat.js';
export * from './crypto.js';
export * from './payment-methods.js';
export * from './countries.js';
export * from './languages.js';
