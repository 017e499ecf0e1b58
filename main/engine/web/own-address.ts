/**
 * The loopback names of this server's own address (`127.0.0.1:<port>`, `localhost:<port>`,
 * `[::1]:<port>`). The workbench and the admin API always answer to them, whatever the Host
 * allowlist says, so no saved setting can lock the person out of the page that edits it. This does
 * not weaken DNS-rebinding protection: a rebound page's requests carry the attacker's name in
 * Host, never a loopback literal.
 */
export function ownHosts(origin: string): string[] {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const names = new Set([url.hostname.toLowerCase(), '127.0.0.1', 'localhost', '[::1]']);
  return [...names].map((n) => `${n}:${port}`);
}

export function isOwnHost(host: string | null, origin: string): boolean {
  if (!host) return false;
  return ownHosts(origin).includes(host.trim().toLowerCase());
}
