// LanceDB ships its native code as one package per platform. The registry these machines use
// lacks the macOS, Windows and arm64 Linux ones after 0.31, so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds the missing
// entries (os, cpu and libc as upstream publishes them; no integrity, which only the public
// registry can give), so that `npm ci` skips them here by platform and a machine of that
// platform fetches them. Run it after every `npm install` that changes the LanceDB version.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'linux-x64-gnu': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-arm64-gnu': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl' },
  'linux-arm64-musl': { os: 'linux', cpu: 'arm64', libc: 'musl' },
  'win32-x64-msvc': { os: 'win32', cpu: 'x64' },
  'win32-arm64-msvc': { os: 'win32', cpu: 'arm64' },
};
const PREFIX = '@lancedb/lancedb-';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const lancedb = lock.packages['node_modules/@lancedb/lancedb'];
let added = 0;
for (const [name, version] of Object.entries(lancedb.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (!name.startsWith(PREFIX) || lock.packages[key]) continue;
  const p = PLATFORMS[name.slice(PREFIX.length)];
  if (!p) throw new Error(`${name}: a platform this script does not know; add it to PLATFORMS`);
  lock.packages[key] = {
    version,
    cpu: [p.cpu],
    ...(p.libc ? { libc: [p.libc] } : {}),
    license: 'Apache-2.0',
    optional: true,
    os: [p.os],
    engines: lancedb.engines,
  };
  added++;
}
// npm keeps the packages sorted by path (localeCompare 'en'), the root first.
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-lancedb-platforms: ${added} entr${added === 1 ? 'y' : 'ies'} added`);
