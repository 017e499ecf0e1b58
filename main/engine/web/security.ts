/**
 * Cairn's own request checks for the MCP endpoint and the admin API. The SDK's Host/Origin
 * options are deprecated, off by default and match whole strings only, so a `localhost:*`
 * allowlist (any port) needs this matcher.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Query parameters that look like credentials; a URL must never carry one (logs, history, Referer). */
const CREDENTIAL_PARAMS = ['key', 'api_key', 'apikey', 'token', 'access_token', 'auth', 'authorization'];

/**
 * `*` after a colon matches a port (digits only); elsewhere it matches a run of name characters
 * (no `/`, `@` or whitespace), so `localhost:*` cannot be satisfied by `localhost:1@evil.example`.
 * Everything else matches literally, case-insensitively.
 */
export function matchesPattern(value: string, pattern: string): boolean {
  return patternRegExp(pattern).test(value);
}

/** Compiled once per pattern: every MCP request checks its Host and Origin against the lists. */
const compiled = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re) return re;
  let source = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += pattern[i - 1] === ':' ? '\\d+' : '[^\\s/@]*';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  // No `g` flag: test() keeps no state between calls, so one instance serves every request.
  re = new RegExp(source + '$', 'i');
  // Patterns come from settings; a bound keeps a long-running engine's map from growing with edits.
  if (compiled.size >= 256) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/** A pattern that lets any host or origin through: allowed only as an explicit entry, warned about. */
export function isAllowAll(pattern: string): boolean {
  return pattern === '*' || pattern === '*:*' || /^[a-z][a-z0-9+.-]*:\/\/\*(:\*)?$/i.test(pattern);
}

/** Adds the default port, so `localhost:*` also matches a client that omits it. */
function hostWithPort(host: string): string {
  if (/^\[[^\]]+\]:\d+$/.test(host) || /^[^:[\]]+:\d+$/.test(host)) return host;
  return `${host}:80`;
}

function originWithPort(origin: string): string {
  if (/:\d+$/.test(origin)) return origin;
  return origin.toLowerCase().startsWith('https:') ? `${origin}:443` : `${origin}:80`;
}

export function hostAllowed(host: string | null, allowed: readonly string[]): boolean {
  if (!host) return false;
  const h = host.trim();
  return allowed.some((p) => matchesPattern(h, p) || matchesPattern(hostWithPort(h), p));
}

/**
 * Origin is checked only when present (non-browser clients send none). `null` (sandboxed
 * frames, file: pages, some redirects) is a foreign origin unless explicitly allowed.
 */
export function originAllowed(origin: string | null, allowed: readonly string[], sameOrigin?: string): boolean {
  if (origin === null) return true;
  if (sameOrigin !== undefined && origin.toLowerCase() === sameOrigin.toLowerCase()) return true;
  return allowed.some((p) => matchesPattern(origin, p) || matchesPattern(originWithPort(origin), p));
}

export function securityWarnings(
  hosts: readonly string[],
  origins: readonly string[],
  dnsProtection: boolean,
  loopbackOnly: boolean,
): string[] {
  const warnings: string[] = [];
  if (!dnsProtection)
    warnings.push('DNS rebinding protection is off: any web page can reach the MCP endpoint through a rebound name.');
  for (const h of hosts)
    if (isAllowAll(h)) warnings.push(`allowed_hosts contains '${h}', which accepts any Host header.`);
  for (const o of origins)
    if (isAllowAll(o)) warnings.push(`allowed_origins contains '${o}', which accepts requests from any web page.`);
  if (!loopbackOnly)
    warnings.push(
      'The server listens on a non-loopback address; other machines can reach it (the API key is required).',
    );
  return warnings;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | null): string | null {
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}

/**
 * Constant-time comparison: both sides are hashed first so neither the content nor the length
 * of the secret leaks through timing.
 */
export function secretEquals(given: string | null, expected: string | null): boolean {
  if (!given || !expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The name of a credential-looking query parameter, if the URL carries one. */
export function credentialInQuery(url: URL): string | null {
  for (const name of url.searchParams.keys()) {
    if (CREDENTIAL_PARAMS.includes(name.toLowerCase())) return name;
  }
  return null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}
