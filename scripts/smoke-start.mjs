#!/usr/bin/env node
// CI check of the README's run command: `npm start` must come up (headless here), print the
// workbench and MCP addresses, serve the workbench and answer MCP, and stop cleanly on SIGTERM.
// Its engine must run with the malloc settings and Node flags every spawn of the engine gets:
// scripts/start.mjs hand-copies them (plain JavaScript), so they are compared with their owners.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const { ENGINE_MALLOC_ENV } = await tsImport('../main/engine/kernel/malloc-env.ts', import.meta.url);
const { ENGINE_NODE_FLAGS } = await tsImport('../main/engine/kernel/young-generation.ts', import.meta.url);

const home = mkdtempSync(join(tmpdir(), 'cairn-start-'));
// Without the settings in the environment, so what the engine has comes from start.mjs.
const env = { ...process.env, CAIRN_HOME: home };
for (const key of Object.keys(ENGINE_MALLOC_ENV)) delete env[key];
delete env.NODE_OPTIONS;
const child = spawn('npm', ['start', '--', '--port', '0'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
let out = '';
const fail = (why) => {
  console.error(`smoke-start: ${why}\n--- output ---\n${out}`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
  rmSync(home, { recursive: true, force: true });
  process.exit(1);
};

const nul = (pid, what) => readFileSync(`/proc/${pid}/${what}`, 'utf8').split('\0');

/** The engine npm start launched: the process of its group whose command line serves. */
function engineProcess() {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 5 of stat is the process group; the command name before it may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const argv = nul(name, 'cmdline');
      if (pgrp === child.pid && argv.includes('serve') && !argv.some((a) => a.endsWith('start.mjs')))
        return {
          argv,
          env: new Map(nul(name, 'environ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
        };
    } catch {} // gone meanwhile
  }
  return null;
}

function checkEngineSetup() {
  if (process.platform !== 'linux') return;
  const engine = engineProcess();
  if (!engine) return fail("no engine process found in npm start's process group");
  for (const [key, value] of Object.entries(ENGINE_MALLOC_ENV))
    if (engine.env.get(key) !== value)
      fail(`the engine runs with ${key}=${engine.env.get(key)}, not ${value} (main/engine/kernel/malloc-env.ts)`);
  for (const flag of ENGINE_NODE_FLAGS)
    if (!engine.argv.includes(flag))
      fail(
        `the engine's command line lacks ${flag} (main/engine/kernel/young-generation.ts): ${engine.argv.join(' ')}`,
      );
}

const timer = setTimeout(() => fail('no workbench address within 180 s'), 180_000);
child.stdout.on('data', async (d) => {
  out += d;
  // Piped stdout: the address is printed without the token (it is in the data folder's admin-token file).
  const wb = out.match(/Workbench: (http:\/\/127\.0\.0\.1:\d+)\//);
  const mcp = out.match(/MCP: (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  if (!wb || !mcp || child.checked) return;
  child.checked = true;
  clearTimeout(timer);
  const page = await fetch(`${wb[1]}/`).catch((e) => fail(`workbench fetch failed: ${e.message}`));
  const html = await page.text();
  if (!page.ok || !html.includes('<div id="root"')) fail(`the workbench page is not served (HTTP ${page.status})`);
  const init = await fetch(mcp[1], {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
    }),
  });
  const body = await init.json().catch(() => null);
  if (!init.ok || !body?.result?.serverInfo) fail(`MCP initialize failed: HTTP ${init.status} ${JSON.stringify(body)}`);
  checkEngineSetup();
  process.kill(-child.pid, 'SIGTERM');
});
child.on('exit', (code, signal) => {
  if (!child.checked) fail(`npm start exited early (${code ?? signal})`);
  console.log(
    `smoke-start: npm start served the workbench and MCP with the engine's malloc settings and Node flags, then stopped (${code ?? signal}).`,
  );
  rmSync(home, { recursive: true, force: true });
  process.exit(0);
});
