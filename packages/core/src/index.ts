export {};
export * from './status.js';
export * from './retry-schedule.js';
export * from './signing/index.js';
