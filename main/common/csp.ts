/**
 * The workbench's Content-Security-Policy, one definition for every way it is served: the engine's
 * HTTP server, the desktop app's `app://` protocol, and the meta tag of the built page. No inline
 * script, no eval, no foreign connections: the page talks to its own origin only.
 */
export const WORKBENCH_CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
] as const;

export const WORKBENCH_CSP = WORKBENCH_CSP_DIRECTIVES.join('; ');

/** Browsers ignore `frame-ancestors` in a meta tag (and warn): the header carries it. */
export const WORKBENCH_CSP_META = WORKBENCH_CSP_DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors')).join('; ');
