export {};
export * from './status.js';
export * from './retry-schedule.js';
