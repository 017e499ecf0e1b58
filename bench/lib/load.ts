/**
 * Load generation with autocannon, run as a child process (its CLI with `--json`) so that it never
 * shares the event loop of a server under test in this process, plus an RSS sampler for the
 * "memory grows at most 10%" check.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rssOfPid } from './cpu.js';
import { percentile } from './stats.js';

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  body: string;
  headers: Record<string, string>;
  timeoutS?: number;
}

export interface LoadResult {
  requests_total: number;
  requests_per_s: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number; mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export function autocannonCli(root: string): string | null {
  const p = join(root, 'node_modules/autocannon/autocannon.js');
  return existsSync(p) ? p : null;
}

export function runAutocannon(root: string, o: LoadOptions): Promise<LoadResult> {
  const cli = autocannonCli(root);
  if (!cli) return Promise.reject(new Error('autocannon is not installed'));
  const args = [
    cli,
    '-c',
    String(o.connections),
    '-d',
    String(o.durationS),
    '-t',
    String(o.timeoutS ?? 30),
    '-m',
    'POST',
    '-b',
    o.body,
    '-n',
    '-j',
  ];
  for (const [k, v] of Object.entries(o.headers)) args.push('-H', `${k}=${v}`);
  args.push(o.url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 2 ** 20 }, (err, stdout) => {
      if (err) return reject(new Error(`autocannon failed: ${err.message}`));
      const r = JSON.parse(stdout) as {
        requests: { total: number; average: number };
        latency: Record<string, number>;
        errors: number;
        timeouts: number;
        non2xx: number;
      };
      resolve({
        requests_total: r.requests.total,
        requests_per_s: r.requests.average,
        latency_ms: {
          p50: r.latency.p50,
          p90: r.latency.p90,
          p99: r.latency.p99,
          max: r.latency.max,
          mean: r.latency.average,
        },
        errors: r.errors,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
      });
    });
  });
}

export interface RssSampler {
  /**
   * first/last: one sample each, which lands anywhere in a garbage collector's cycle (hundreds of
   * MB apart under load); early/late: the medians of the first and last quarter of the samples.
   */
  stop(): { first: number; last: number; early: number; late: number; max: number; samples: number };
}

/** Samples RSS (MB) of this process, or of `pid`, every `everyMs`. */
export function sampleRss(everyMs: number, pid?: number): RssSampler {
  const read = (): number | null =>
    pid === undefined ? process.memoryUsage.rss() / 2 ** 20 : rssOfPid(pid, (p) => readFileSync(p, 'utf8'));
  const values: number[] = [];
  const take = () => {
    const v = read();
    if (v !== null) values.push(v);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      const quarter = Math.max(1, Math.floor(values.length / 4));
      return {
        first: values[0] ?? Number.NaN,
        last: values[values.length - 1] ?? Number.NaN,
        early: percentile(values.slice(0, quarter), 50),
        late: percentile(values.slice(-quarter), 50),
        max: Math.max(...values),
        samples: values.length,
      };
    },
  };
}

/** The JSON-RPC body of one stateless `tools/call search`. */
export function searchCallBody(query: string, args: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search', arguments: { query, top_k: 10, ...args } },
  });
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
