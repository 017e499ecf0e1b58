/**
 * Which address the HTTP server really binds, and whether that is loopback. A name is resolved
 * first and judged by every address it resolves to (`localhost` is only a name: a hosts file or
 * a resolver can point it anywhere), the server listens on the resolved address itself, and the
 * address actually bound is checked again once listening.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CairnError } from '../errors.js';

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** 127.0.0.0/8, ::1, and either written as an IPv4-mapped IPv6 address. */
export function isLoopbackIp(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /^(?:::ffff:)?(\d+)\.\d+\.\d+\.\d+$/.exec(a);
  if (v4 && isIP(a.replace(/^::ffff:/, '')) === 4) return v4[1] === '127';
  if (isIP(a) !== 6) return false;
  return a === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(a) || a === '0:0:0:0:0:0:0:1';
}

export interface BindTarget {
  /** What the user gave (`mcp.host` or `--host`). */
  host: string;
  /** The IP address to listen on. */
  address: string;
  /** Every address the host resolved to is loopback. */
  loopback: boolean;
}

/** Resolves `host`; unresolvable is a typed configuration error. */
export async function resolveBindHost(host: string, lookup: Lookup = systemLookup): Promise<BindTarget> {
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal)) return { host, address: literal, loopback: isLoopbackIp(literal) };
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch (err) {
    throw new CairnError('config_invalid', `Cannot resolve the listen address ${host}: ${(err as Error).message}`, {
      remedy: 'Use 127.0.0.1 (or another address of this machine).',
      details: { key: 'mcp.host' },
    });
  }
  if (addresses.length === 0)
    throw new CairnError('config_invalid', `The listen address ${host} resolves to nothing.`, {
      details: { key: 'mcp.host' },
    });
  return { host, address: addresses[0].address, loopback: addresses.every((a) => isLoopbackIp(a.address)) };
}

/** The refusal for a non-loopback address without the opt-in; `what` says which address it was. */
export function nonLoopbackRefusal(what: string): CairnError {
  return new CairnError('config_invalid', `Refusing to listen on ${what}: not a loopback address.`, {
    remedy: 'Use 127.0.0.1, or set mcp.allow_non_loopback (then the API key is required).',
    details: { key: 'mcp.host' },
  });
}
