export * from './errors.js';
export * from './search.js';
export * from './settings.js';
export * from './status.js';
export * from './admin.js';
export * from './progress.js';
export * from './api-key.js';
