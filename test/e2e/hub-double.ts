/**
 * A test double of the Hugging Face hub (the real one cannot be reached here): a loopback HTTP
 * server answering `/<owner>/<name>/resolve/main/<file>` from a model folder on disk, as
 * transformers.js asks for it (including its `Range: bytes=0-0` size probe). One file can be
 * held half-sent until the test calls `release()`, so a download in progress can be observed
 * without depending on how fast anything runs. The engine finds it through `HF_ENDPOINT`.
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

export interface HubDouble {
  /** For `HF_ENDPOINT`, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  /** Files sent whole, in order. */
  requested: string[];
  /** Resolves once the held file's first half has been sent. */
  holding: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startHubDouble(folder: string, repo: string, holdFile?: string): Promise<HubDouble> {
  const requested: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const prefix = `/${repo}/resolve/main/`;
  const server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '').split('?')[0]);
    const rel = url.startsWith(prefix) ? normalize(url.slice(prefix.length)) : '';
    const file = join(folder, rel);
    if (!rel || rel.startsWith('..') || !existsSync(file) || !statSync(file).isFile())
      return void res.writeHead(404).end('Entry not found');
    const body = readFileSync(file);
    if (req.headers.range === 'bytes=0-0')
      return void res
        .writeHead(206, { 'content-length': 1, 'content-range': `bytes 0-0/${body.length}` })
        .end(body.subarray(0, 1));
    requested.push(rel);
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    if (rel !== holdFile) return void res.end(body);
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half), () => held());
    void released.then(() => res.end(body.subarray(half)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requested,
    holding,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
