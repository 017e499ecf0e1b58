/** Reported in status; kept in step with package.json by test/version.test.ts. */
export const ENGINE_VERSION = '0.1.0';
