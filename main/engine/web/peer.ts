/**
 * The remote address a request came from. A web-standard Request has no socket, so the node
 * adapter records it here; in-process requests (tests, the probe's own fetch goes over a socket)
 * simply have none.
 */
const peers = new WeakMap<Request, string>();

export function setRemoteAddress(req: Request, address: string | undefined): void {
  if (address) peers.set(req, address);
}

export function remoteAddress(req: Request): string {
  return peers.get(req) ?? 'in-process';
}
