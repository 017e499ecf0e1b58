// Another login user on the same machine (issue 12 §11), for real: a `cairn serve` runs as this
// user, and a process of another uid (nobody, through setpriv) tries what such a user would: read
// the data folder (API key, admin token, config, index), call the admin API, call MCP with and
// without the key. The data folder is 0700 and its secret files 0600, so every read is refused;
// with the key required MCP answers 401 without it. Controls: this user reads the same files and
// is served; with the key off the other uid is served too (what the README says loopback means).
// Needs root to switch uid (CI runs as root); as another user the test cannot switch and says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { tempDir } from '../helpers/engine.js';
import { REPO } from '../helpers/cli.js';
import { servedAt, start, type Proc } from '../helpers/processes.js';
import { INIT, MCP_HEADERS } from '../mcp/fixtures.js';

const NOBODY = 65534;
const canSwitch =
  process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
let tmp: { dir: string; cleanup: () => Promise<void> };
/** Made by Cairn itself (inside a folder every uid may enter), so its modes are Cairn's doing. */
let homeDir: string;
let serve: Proc;
let origin: string;
let token: string;
let mcpUrl: string;

/** Runs `script` (ESM, top-level await) as uid/gid nobody; returns what it printed as JSON. */
function asNobody(script: string, args: string[]): Record<string, unknown> {
  const r = spawnSync(
    'setpriv',
    [
      '--reuid',
      String(NOBODY),
      '--regid',
      String(NOBODY),
      '--clear-groups',
      process.execPath,
      '--input-type=module',
      '-e',
      script,
      ...args,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const PROBE = `
import { readFileSync, readdirSync } from 'node:fs';
const [home, origin, mcp, key] = process.argv.slice(-4);
const out = { uid: process.getuid() };
const tryRead = (p) => { try { readFileSync(p); return 'read'; } catch (e) { return e.code; } };
for (const f of ['admin-token', 'mcp-api-key', 'config.json']) out[f] = tryRead(home + '/' + f);
try { readdirSync(home + '/index'); out.index = 'listed'; } catch (e) { out.index = e.code; }
const call = async (url, init) => { const r = await fetch(url, init); return r.status; };
out.admin = await call(origin + '/api/status', {});
const body = JSON.stringify(${JSON.stringify(INIT)});
const headers = ${JSON.stringify(MCP_HEADERS)};
out.mcp_no_key = await call(mcp, { method: 'POST', headers, body });
out.mcp_wrong_key = await call(mcp, { method: 'POST', headers: { ...headers, authorization: 'Bearer ' + 'x'.repeat(40) }, body });
out.mcp_key = await call(mcp, { method: 'POST', headers: { ...headers, authorization: 'Bearer ' + key }, body });
process.stdout.write(JSON.stringify(out));
`;

before(async () => {
  if (!canSwitch) return;
  tmp = await tempDir('other-user');
  await chmod(tmp.dir, 0o755);
  homeDir = join(tmp.dir, 'cairn-data');
  const engine = await openEngine({ home: homeDir });
  engine.settings.set({ 'mcp.port': 0 });
  await engine.close();
  serve = start(process.execPath, [join(REPO, 'bin', 'cairn.mjs'), 'serve'], { CAIRN_HOME: homeDir });
  ({ origin, token } = await servedAt(serve));
  mcpUrl = (await serve.waitFor(/MCP: (http:\/\/\S+)/))[1];
});

after(async () => {
  await serve?.stop();
  await tmp?.cleanup();
});

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  const send = () =>
    fetch(origin + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  try {
    return await send();
  } catch (err) {
    // A kept-alive socket the server closed while the probe ran (seconds on a loaded machine) is
    // reset on reuse before the request is read: sent again once on a new connection.
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    return send();
  }
}

test(
  'another uid reads nothing of the data folder, has no admin API, and no MCP without the key once it is required',
  { skip: !canSwitch && 'switching to another uid needs root and setpriv (Linux)', timeout: 180_000 },
  async () => {
    const paths = dataPaths(homeDir);
    // The modes themselves: the data folder 0700, the secret files 0600, owned by this user.
    assert.equal((await stat(paths.root)).mode & 0o777, 0o700);
    assert.equal((await stat(paths.adminToken)).mode & 0o777, 0o600);
    const gen = await admin('POST', '/api/mcp/api-key', { action: 'generate' });
    assert.equal(gen.status, 200, await gen.text());
    assert.equal((await stat(paths.apiKey)).mode & 0o777, 0o600);
    const key = (await readFile(paths.apiKey, 'utf8')).trim();
    assert.equal((await admin('PATCH', '/api/settings', { values: { 'mcp.require_api_key': true } })).status, 200);

    const other = asNobody(PROBE, [homeDir, origin, mcpUrl, key]);
    assert.equal(other.uid, NOBODY);
    for (const f of ['admin-token', 'mcp-api-key', 'config.json', 'index'])
      assert.equal(other[f], 'EACCES', `${f}: ${JSON.stringify(other)}`);
    assert.equal(other.admin, 401);
    assert.equal(other.mcp_no_key, 401);
    assert.equal(other.mcp_wrong_key, 401);
    // Control: the key itself works from that uid (the refusals above are about the key, not the uid).
    assert.equal(other.mcp_key, 200);
    // Control: this user reads the same files (the refusals are the modes, not missing files).
    assert.equal((await readFile(paths.adminToken, 'utf8')).trim(), token);

    // With the key off, loopback is shared: the other uid is served (the README says so plainly).
    assert.equal((await admin('PATCH', '/api/settings', { values: { 'mcp.require_api_key': false } })).status, 200);
    const open = asNobody(PROBE, [homeDir, origin, mcpUrl, key]);
    assert.equal(open.mcp_no_key, 200, JSON.stringify(open));
    assert.equal(open.admin, 401, 'the admin API needs the token whatever the key setting');
  },
);
