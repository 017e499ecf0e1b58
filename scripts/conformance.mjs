#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, every server scenario:
// `--suite all`) against a real `cairn serve` and compares with test/conformance-baseline.yml: a
// new failure, or a baseline entry that now passes, fails the run.
//   node scripts/conformance.mjs --url http://127.0.0.1:58012/mcp   (a running `cairn serve`, default settings)
//   node scripts/conformance.mjs                                     (starts `cairn serve` itself)
// The suite needs Node 22 (it uses fs.globSync); Cairn runs on Node 20. So the suite runs under a
// Node 22 installed from npm (the `node` package) into a cache folder outside the repository, once
// per machine: CI on a fresh machine does the same. The server is `bin/cairn.mjs serve` over a temp
// data folder, configured through its own admin API; first with the defaults (stateless, JSON),
// then the session scenarios again against sessions with SSE, where they must pass too.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';

const NODE_FOR_SUITE = '22.23.3';
const root = new URL('..', import.meta.url).pathname;
const baseline = join(root, 'test', 'conformance-baseline.yml');
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection'];
const SESSION_SCENARIOS = ['server-sse-multiple-streams', 'server-sse-polling'];

const listed = readFileSync(baseline, 'utf8')
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim())
  .filter((l) => l.startsWith('- '))
  .map((l) => l.slice(2));
const forbidden = listed.filter((s) => MUST_PASS.includes(s));
if (forbidden.length > 0) {
  console.error(`${baseline} must not list ${forbidden.join(', ')}: they have to pass.`);
  process.exit(1);
}

/** A Node 22 binary from npm, installed once into the user's cache (never into the repository). */
function nodeForSuite() {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cairn', `node-${NODE_FOR_SUITE}`);
  const bin = join(cache, 'node_modules', 'node', 'bin', 'node');
  const version = () => spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (version() !== `v${NODE_FOR_SUITE}`) {
    console.log(`installing node@${NODE_FOR_SUITE} from npm into ${cache} (the conformance suite needs Node 22)`);
    mkdirSync(cache, { recursive: true });
    // A package.json of its own, so npm neither walks up into another project nor reads its .npmrc.
    writeFileSync(join(cache, 'package.json'), '{"private":true}\n');
    const r = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', cache, `node@${NODE_FOR_SUITE}`],
      { cwd: cache, stdio: 'inherit' },
    );
    if (r.status !== 0 || version() !== `v${NODE_FOR_SUITE}`) {
      console.error(`could not install node@${NODE_FOR_SUITE} from npm into ${cache}`);
      process.exit(1);
    }
  }
  return bin;
}

/** `cairn serve` on an ephemeral port over a temp data folder; `settings` are applied and mounted through the admin API. */
function startServe(settings) {
  const home = mkdtempSync(join(tmpdir(), 'cairn-conformance-'));
  const token = randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, [join(root, 'bin', 'cairn.mjs'), 'serve', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      CAIRN_HOME: home,
      CAIRN_ADMIN_TOKEN: token,
      LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error',
    },
  });
  const stop = () =>
    new Promise((resolve) => {
      const done = () => {
        rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`cairn serve exited with ${code}`)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', async (line) => {
      const m = line.match(/^MCP: (http:\/\/\S+)$/);
      if (!m) return;
      lines.removeAllListeners('line');
      child.stdout.resume();
      child.removeAllListeners('exit');
      const url = m[1];
      const origin = new URL(url).origin;
      const admin = (method, path, body) =>
        fetch(origin + path, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      try {
        if (Object.keys(settings).length > 0) {
          const patched = await admin('PATCH', '/api/settings', { values: settings });
          if (!patched.ok) throw new Error(`PATCH /api/settings answered ${patched.status}: ${await patched.text()}`);
          const restarted = await admin('POST', '/api/mcp/restart');
          if (!restarted.ok) throw new Error(`POST /api/mcp/restart answered ${restarted.status}`);
        }
        resolve({ url, stop });
      } catch (err) {
        await stop();
        reject(err);
      }
    });
  });
}

function conformance(node, args) {
  const out = mkdtempSync(join(tmpdir(), 'cairn-conformance-results-'));
  const run = spawn(node, [cli, 'server', ...args, '-o', out], { cwd: root, stdio: 'inherit' });
  return new Promise((resolve) =>
    run.once('exit', (c) => {
      rmSync(out, { recursive: true, force: true });
      resolve(c ?? 1);
    }),
  );
}

const node = nodeForSuite();
const urlArg = process.argv.indexOf('--url');
let failed = false;
if (urlArg > 0) {
  failed =
    (await conformance(node, [
      '--url',
      process.argv[urlArg + 1],
      '--suite',
      'all',
      '--expected-failures',
      baseline,
    ])) !== 0;
} else {
  const stateless = await startServe({});
  try {
    console.log(
      `conformance (all server scenarios) against cairn serve at ${stateless.url} (default settings: stateless, JSON)`,
    );
    failed =
      (await conformance(node, ['--url', stateless.url, '--suite', 'all', '--expected-failures', baseline])) !== 0;
  } finally {
    await stateless.stop();
  }
  const stateful = await startServe({ 'mcp.stateless_http': false, 'mcp.json_response': false });
  try {
    for (const scenario of SESSION_SCENARIOS) {
      console.log(`${scenario} against cairn serve at ${stateful.url} (sessions, SSE)`);
      failed = (await conformance(node, ['--url', stateful.url, '--scenario', scenario])) !== 0 || failed;
    }
  } finally {
    await stateful.stop();
  }
}
console.log(failed ? 'conformance: FAILED' : 'conformance: passed (expected failures per the baseline only)');
process.exit(failed ? 1 : 0);
