#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the last to run on
// Node 20) against Cairn and compares with test/conformance-baseline.yml: a new failure, or a
// baseline entry that now passes, fails the run.
//   node scripts/conformance.mjs --url http://127.0.0.1:58012/mcp   (a running `cairn serve`, default settings)
//   node scripts/conformance.mjs                                     (starts temp servers itself)
// Started here, the suite runs against the default (stateless) configuration, and the session
// scenario server-sse-multiple-streams runs again against a stateful SSE server, where it must pass.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const baseline = join(root, 'test', 'conformance-baseline.yml');
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const SESSION_SCENARIO = 'server-sse-multiple-streams';

const listed = readFileSync(baseline, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
const forbidden = listed.filter((s) => MUST_PASS.includes(s));
if (forbidden.length > 0) {
  console.error(`${baseline} must not list ${forbidden.join(', ')}: they have to pass.`);
  process.exit(1);
}

/** Starts test/mcp/conformance-server.ts (the real engine over a temp home) and waits for its URL. */
function startServer(settings) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'mcp', 'conformance-server.ts')], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error', CAIRN_CONFORMANCE_SETTINGS: JSON.stringify(settings) },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the conformance server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      child.removeAllListeners('exit');
      resolve({ url: JSON.parse(line).url, stop: () => new Promise((r) => { child.once('exit', r); child.stdin.end(); }) });
    });
  });
}

function conformance(args) {
  const out = mkdtempSync(join(tmpdir(), 'cairn-conformance-'));
  const run = spawn(process.execPath, [cli, 'server', ...args, '-o', out], { cwd: root, stdio: 'inherit' });
  return new Promise((resolve) => run.once('exit', (c) => resolve(c ?? 1)));
}

const urlArg = process.argv.indexOf('--url');
let failed = false;
if (urlArg > 0) {
  failed = (await conformance(['--url', process.argv[urlArg + 1], '--expected-failures', baseline])) !== 0;
} else {
  const stateless = await startServer({});
  try {
    console.log(`conformance against ${stateless.url} (default settings: stateless, JSON)`);
    failed = (await conformance(['--url', stateless.url, '--expected-failures', baseline])) !== 0;
  } finally {
    await stateless.stop();
  }
  const stateful = await startServer({ 'mcp.stateless_http': false, 'mcp.json_response': false });
  try {
    console.log(`${SESSION_SCENARIO} against ${stateful.url} (sessions, SSE)`);
    failed = (await conformance(['--url', stateful.url, '--scenario', SESSION_SCENARIO])) !== 0 || failed;
  } finally {
    await stateful.stop();
  }
}
console.log(failed ? 'conformance: FAILED' : 'conformance: passed (expected failures per the baseline only)');
process.exit(failed ? 1 : 0);
