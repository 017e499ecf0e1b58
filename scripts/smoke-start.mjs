#!/usr/bin/env node
// CI check of the README's run command: `npm start` must come up (headless here), print the
// workbench and MCP addresses, serve the workbench and answer MCP, and stop cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const home = mkdtempSync(join(tmpdir(), 'cairn-start-'));
const child = spawn('npm', ['start', '--', '--port', '0'], {
  env: { ...process.env, CAIRN_HOME: home },
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
  process.kill(-child.pid, 'SIGTERM');
});
child.on('exit', (code, signal) => {
  if (!child.checked) fail(`npm start exited early (${code ?? signal})`);
  console.log(`smoke-start: npm start served the workbench and MCP, then stopped (${code ?? signal}).`);
  rmSync(home, { recursive: true, force: true });
  process.exit(0);
});
