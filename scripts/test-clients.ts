/**
 * `npm run test:clients`: the real-client tier. Installs the published MCP clients (pinned) with
 * npm into a cache folder outside the repo, builds Cairn into a temporary copy (the shipped
 * layout, not the checkout), and with a temporary HOME lets Cairn's own installer write each
 * client's config; then checks that each client reads that config and connects, over HTTP and
 * stdio, with and without the API key, with the engine started by `cairn serve` first and by a
 * stdio client first. A check that cannot run here says exactly why and is not counted as
 * passed. Exit 1 when any check failed (or nothing could run).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SettingsStore } from '../main/engine/config/settings-store.js';
import { dataPaths } from '../main/engine/config/paths.js';
import { readLock } from '../main/engine/lock.js';
import { mergeJsonEntry } from '../main/engine/client-config/jsonc.js';
import { mergeTomlTable } from '../main/engine/client-config/toml.js';
import { buildCopy } from '../test/helpers/built-layout.js';
import { startAnthropicStandIn } from './clients/anthropic-stand-in.js';
import { startOpenAiStandIn } from './clients/openai-stand-in.js';
import { startGeminiStandIn } from './clients/gemini-stand-in.js';
import { applyEdits, modify } from 'jsonc-parser';
import { FILES } from '../test/mcp/fixtures.js';
import { DEFAULTS } from '../main/common/requests.js';
import { servedAt, start, type Proc } from '../test/helpers/processes.js';

const PINS: Record<string, string> = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@openai/codex': '0.171.0',
  '@google/gemini-cli': '0.61.0',
  '@modelcontextprotocol/inspector': '2.12.0',
  '@modelcontextprotocol/sdk': '1.32.2',
  '@modelcontextprotocol/client': '2.4.0',
  // Some clients need Node 22 (undici 8, the Inspector); the tier runs them all on it.
  node: '22.23.3',
};
const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cairn-test-clients');
const started = Date.now();

type Outcome = 'pass' | 'fail' | 'not run';
const results: { client: string; check: string; outcome: Outcome; detail: string }[] = [];
function record(client: string, check: string, outcome: Outcome, detail = ''): void {
  results.push({ client, check, outcome, detail });
  const tag = outcome === 'pass' ? 'PASS' : outcome === 'fail' ? 'FAIL' : 'NOT RUN';
  process.stdout.write(`${tag.padEnd(8)} ${client.padEnd(14)} ${check}${detail ? `: ${detail}` : ''}\n`);
}

function installed(pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(CACHE, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return null;
  }
}

/** Null when every pinned client is in the cache, else why not. */
function ensureClients(): string | null {
  const missing = Object.entries(PINS).filter(([p, v]) => installed(p) !== v);
  if (missing.length === 0) return null;
  process.stdout.write(`== installing ${missing.map(([p, v]) => `${p}@${v}`).join(' ')} into ${CACHE}\n`);
  spawnSync('mkdir', ['-p', CACHE]);
  if (!existsSync(join(CACHE, 'package.json')))
    spawnSync('sh', ['-c', `echo '{"name":"cairn-test-clients","private":true}' > package.json`], { cwd: CACHE });
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--save-exact', ...Object.entries(PINS).map(([p, v]) => `${p}@${v}`)],
    { cwd: CACHE, encoding: 'utf8', timeout: 900_000 },
  );
  if (r.status !== 0)
    return `npm install failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`;
  const still = Object.entries(PINS).filter(([p, v]) => installed(p) !== v);
  return still.length ? `still missing after npm install: ${still.map(([p]) => p).join(', ')}` : null;
}

interface Run {
  code: number | null;
  out: string;
}

function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...clientEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const t = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(t);
      resolve({ code: -1, out: String(err) });
    });
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const bin = (name: string) => join(CACHE, 'node_modules', '.bin', name);
let clientEnv: Record<string, string> = {};

async function main(): Promise<number> {
  const why = ensureClients();
  const node22 = join(CACHE, 'node_modules', 'node', 'bin', 'node');
  if (why) {
    for (const c of ['claude-code', 'codex', 'gemini-cli', 'inspector', 'sdk-v1', 'sdk-v2'])
      record(c, 'all checks', 'not run', why);
    return summary();
  }
  const work = await mkdtemp(join(tmpdir(), 'cairn-clients-'));
  const userHome = join(work, 'home');
  const cairnHome = join(work, 'cairn');
  const cwd = join(work, 'project');
  const data = join(work, 'data');
  for (const d of [userHome, cairnHome, cwd]) await mkdir(d, { recursive: true });
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(data, rel)), { recursive: true });
    await writeFile(join(data, rel), text);
  }
  clientEnv = {
    ...(process.env as Record<string, string>),
    HOME: userHome,
    USERPROFILE: userHome,
    XDG_CONFIG_HOME: join(userHome, '.config'),
    PATH: `${dirname(node22)}:${join(CACHE, 'node_modules', '.bin')}:${process.env.PATH}`,
    LANCEDB_LOG: 'error',
    // Gemini CLI ignores user-level servers in an untrusted folder; this temporary one is trusted.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NO_COLOR: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  delete clientEnv.CODEX_HOME;
  delete clientEnv.CAIRN_MCP_API_KEY;
  const procs: Proc[] = [];
  let built: Awaited<ReturnType<typeof buildCopy>> | null = null;
  try {
    process.stdout.write('== building Cairn into a temporary copy (npm run build)\n');
    built = await buildCopy();
    const cairn = join(built.root, 'bin', 'cairn.mjs');
    const port = await freePort();
    new SettingsStore(cairnHome).set({ 'mcp.port': port, 'mcp.public_base_url': `http://127.0.0.1:${port}` });
    const cairnEnv = { CAIRN_HOME: cairnHome };
    const add = await run(process.execPath, [cairn, 'add', data], cairnEnv);
    const index = await run(process.execPath, [cairn, 'index'], cairnEnv, { timeoutMs: 600_000 });
    if (add.code !== 0 || index.code !== 0) throw new Error(`indexing the fixture failed: ${add.out}${index.out}`);

    // ---- serve first
    const serve = start(process.execPath, [cairn, 'serve'], { ...cairnEnv, HOME: userHome });
    procs.push(serve);
    const { origin, token } = await servedAt(serve);
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(origin + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };
    const mcpUrl = `${origin}/mcp`;
    const install = async () => {
      for (const id of ['claude-desktop', 'cursor', 'vscode', 'codex', 'windsurf', 'gemini'])
        await admin('POST', '/api/clients/install', { id, confirm: true });
      const clients = (await admin('GET', '/api/clients?reveal=1')) as { id: string; snippet: string }[];
      const cc = await run('bash', ['-c', clients.find((c) => c.id === 'claude-code')!.snippet], {}, { cwd });
      if (cc.code !== 0) record('claude-code', "the installer's command runs", 'fail', cc.out.trim());
    };
    await install();
    // The stdio entry Cairn wrote for Claude Desktop, given to every client that launches commands.
    const desktop = JSON.parse(
      await readFile(join(userHome, '.config', 'Claude', 'claude_desktop_config.json'), 'utf8'),
    ) as { mcpServers: { cairn: { command: string; args: string[]; env: Record<string, string> } } };
    const stdio = desktop.mcpServers.cairn;
    const claudeStdio = await run(
      bin('claude'),
      ['mcp', 'add-json', '--scope', 'user', 'cairn-stdio', JSON.stringify({ type: 'stdio', ...stdio })],
      {},
      { cwd },
    );
    if (claudeStdio.code !== 0) record('claude-code', 'add the stdio entry', 'fail', claudeStdio.out);
    const geminiFile = join(userHome, '.gemini', 'settings.json');
    await writeFile(geminiFile, mergeJsonEntry(await readFile(geminiFile, 'utf8'), 'mcpServers', 'cairn-stdio', stdio));
    const codexFile = join(userHome, '.codex', 'config.toml');
    await writeFile(
      codexFile,
      mergeTomlTable(await readFile(codexFile, 'utf8'), ['mcp_servers', 'cairn_stdio'], stdio),
    );
    const probe = join(CACHE, 'sdk-probe.mjs');
    await copyFile(join(import.meta.dirname, 'clients', 'sdk-probe.mjs'), probe);

    const checks = async (phase: string, key: string | null) => {
      const keyEnv: Record<string, string> = key ? { CAIRN_MCP_API_KEY: key } : {};
      const cl = await run(bin('claude'), ['mcp', 'list'], keyEnv, { cwd });
      for (const name of ['cairn', 'cairn-stdio']) {
        const line = cl.out.split('\n').find((l) => l.startsWith(`${name}:`)) ?? '(no line)';
        record(
          'claude-code',
          `${phase}: claude mcp list, ${name === 'cairn' ? 'HTTP' : 'stdio'}`,
          /✔ Connected|✓ Connected/.test(line) ? 'pass' : 'fail',
          line.trim(),
        );
      }
      if (key) {
        const no = await run(bin('claude'), ['mcp', 'list'], {}, { cwd });
        const line = no.out.split('\n').find((l) => l.startsWith('cairn:')) ?? '(no line)';
        record(
          'claude-code',
          `${phase}: control, no CAIRN_MCP_API_KEY in the environment: HTTP not connected`,
          /Connected/.test(line) && !/not|fail/i.test(line) ? 'fail' : 'pass',
          line.trim(),
        );
      }
      const gm = await run(bin('gemini'), ['mcp', 'list'], {}, { cwd, timeoutMs: 180_000 });
      for (const name of ['cairn', 'cairn-stdio']) {
        const line =
          gm.out.split('\n').find((l) => new RegExp(`\\b${name}: `).test(l) && !l.includes(`${name}-`)) ?? '(no line)';
        record(
          'gemini-cli',
          `${phase}: gemini mcp list, ${name === 'cairn' ? 'HTTP' : 'stdio'}`,
          /Connected/.test(line) && !/Disconnected/.test(line) ? 'pass' : 'fail',
          line.trim(),
        );
      }
      for (const name of ['cairn', 'cairn_stdio']) {
        const get = await run(bin('codex'), ['mcp', 'get', name, '--json'], {}, { cwd });
        let ok = false;
        try {
          const j = JSON.parse(get.out.slice(get.out.indexOf('{'))) as {
            transport?: { url?: string; command?: string; http_headers?: Record<string, string> };
          };
          ok =
            name === 'cairn'
              ? j.transport?.url === mcpUrl && (!key || j.transport?.http_headers?.Authorization === `Bearer ${key}`)
              : j.transport?.command === stdio.command;
        } catch {
          ok = false;
        }
        record(
          'codex',
          `${phase}: codex mcp get ${name} reads Cairn's entry`,
          ok ? 'pass' : 'fail',
          ok ? '' : get.out.trim().slice(0, 300),
        );
      }
      await codexSession(phase, cwd, keyEnv);
      const insp = async (label: string, args: string[], expectOk: boolean) => {
        const list = await run(bin('mcp-inspector'), ['--cli', ...args, '--method', 'tools/list'], {}, { cwd });
        const listed = /"name":\s*"search"/.test(list.out);
        if (!expectOk) {
          record(
            'inspector',
            `${phase}: ${label}`,
            listed ? 'fail' : 'pass',
            listed ? 'listed tools without the key' : list.out.trim().split('\n').slice(-1)[0],
          );
          return;
        }
        const call = await run(
          bin('mcp-inspector'),
          [
            '--cli',
            ...args,
            '--method',
            'tools/call',
            '--tool-name',
            'search',
            '--tool-arg',
            'query=exponential backoff',
          ],
          {},
          { cwd },
        );
        record(
          'inspector',
          `${phase}: ${label}: tools/list`,
          listed ? 'pass' : 'fail',
          listed ? '' : list.out.trim().slice(-300),
        );
        record(
          'inspector',
          `${phase}: ${label}: tools/call search`,
          /retry\.md/.test(call.out) ? 'pass' : 'fail',
          /retry\.md/.test(call.out) ? '' : call.out.trim().slice(-300),
        );
      };
      // The Inspector takes a Cursor-style file only for stdio entries (a bare url is read as a
      // command): its HTTP check dials the URL and header Cairn wrote into Cursor's config.
      const cursor = (
        JSON.parse(await readFile(join(userHome, '.cursor', 'mcp.json'), 'utf8')) as {
          mcpServers: { cairn: { url: string; headers?: Record<string, string> } };
        }
      ).mcpServers.cairn;
      const headerArgs = Object.entries(cursor.headers ?? {}).flatMap(([k, v]) => ['--header', `${k}: ${v}`]);
      await insp(
        'HTTP with the URL and header Cairn wrote for Cursor',
        [cursor.url, '--transport', 'http', ...headerArgs],
        true,
      );
      await insp(
        'stdio from the Claude Desktop config Cairn wrote',
        ['--config', join(userHome, '.config', 'Claude', 'claude_desktop_config.json'), '--server', 'cairn'],
        true,
      );
      if (key) await insp('control: HTTP without the key is refused', [mcpUrl, '--transport', 'http'], false);
      for (const sdk of ['v1', 'v2']) {
        for (const transport of ['http', 'stdio']) {
          const opts = transport === 'http' ? { key } : { args: stdio.args, env: stdio.env };
          const r = await run(
            node22,
            [probe, sdk, transport, transport === 'http' ? mcpUrl : stdio.command, JSON.stringify(opts)],
            {},
            { cwd: CACHE },
          );
          let res: { ok: boolean; tools?: string[]; text?: string; error?: string } = { ok: false, error: r.out };
          try {
            res = JSON.parse(r.out.trim().split('\n').pop()!) as typeof res;
          } catch {
            // keep the raw output as the error
          }
          const ok = res.ok && res.tools?.includes('search') && /retry\.md/.test(res.text ?? '');
          record(
            `sdk-${sdk}`,
            `${phase}: ${transport}: list tools, call search`,
            ok ? 'pass' : 'fail',
            ok ? '' : (res.error ?? res.text ?? '').slice(0, 300),
          );
        }
      }
    };

    await checks('serve first, no key', null);
    await modelView(cwd);
    await geminiModelView(cwd, geminiFile);
    const { key } = (await admin('POST', '/api/mcp/api-key', { action: 'generate' })) as { key: string };
    await admin('PATCH', '/api/settings', { values: { 'mcp.require_api_key': true } });
    await install();
    await checks('serve first, key required', key);
    await admin('PATCH', '/api/settings', { values: { 'mcp.require_api_key': false } });
    await install();
    await serve.stop();

    // ---- stdio first: no engine runs; a stdio client starts one, HTTP clients and serve find it.
    const before = await readLock(dataPaths(cairnHome).lock);
    record('cairn', 'stdio first: no engine runs before', before ? 'fail' : 'pass', before ? `pid ${before.pid}` : '');
    const first = await run(bin('claude'), ['mcp', 'list'], {}, { cwd, timeoutMs: 180_000 });
    const line = first.out.split('\n').find((l) => l.startsWith('cairn-stdio:')) ?? '(no line)';
    record(
      'claude-code',
      'stdio first: claude mcp list starts the engine over stdio',
      /Connected/.test(line) ? 'pass' : 'fail',
      line.trim(),
    );
    // The bridge answered the handshake and the tool list itself while the engine it started in the
    // background was still coming up: wait (bounded) for that engine to name its address.
    let owner = await readLock(dataPaths(cairnHome).lock);
    for (let i = 0; i < 600 && !owner?.url; i++) {
      await new Promise((r) => setTimeout(r, 100));
      owner = await readLock(dataPaths(cairnHome).lock);
    }
    record(
      'cairn',
      'stdio first: an engine runs in the background after the stdio client left',
      owner?.url ? 'pass' : 'fail',
      owner ? `pid ${owner.pid} at ${owner.url}` : 'no engine.lock',
    );
    await checks('stdio first', null);
    const attach = start(process.execPath, [cairn, 'serve'], { ...cairnEnv, HOME: userHome });
    procs.push(attach);
    try {
      await attach.waitFor(/attached to it/, 60_000);
      record('cairn', 'stdio first: a later cairn serve attaches instead of exiting 5', 'pass');
    } catch (err) {
      record(
        'cairn',
        'stdio first: a later cairn serve attaches instead of exiting 5',
        'fail',
        (err as Error).message.slice(0, 300),
      );
    }
    await attach.stop();
    if (owner) {
      process.kill(owner.pid, 'SIGTERM');
      for (let i = 0; i < 100 && (await readLock(dataPaths(cairnHome).lock)); i++) await sleep(100);
    }
  } catch (err) {
    record('tier', 'setup', 'fail', (err as Error).stack ?? String(err));
  } finally {
    for (const p of procs) await p.stop();
    const left = await readLock(dataPaths(cairnHome).lock);
    if (left) process.kill(left.pid, 'SIGTERM');
    await built?.cleanup();
    await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => undefined);
  }
  return summary();
}

/**
 * What Claude Code hands its model from one Cairn search: `claude -p` against a loopback
 * stand-in for the Anthropic Messages API (a test double for the remote model, which cannot run
 * here) that scripts exactly one `search` call, at the largest top_k, and records the tool result.
 * What reaches the model must carry the folder's freshness and the data-not-instructions note and
 * stay under Claude Code's inline limit (above ~50,000 characters it moves a tool result to a file
 * and shows the model a 2 KB preview).
 */
const INLINE_LIMIT_CHARS = 50_000;
const DEFAULT_BUDGET_CHARS = DEFAULTS.maxChars;

async function modelView(cwd: string): Promise<void> {
  const standIn = await startAnthropicStandIn('mcp__cairn__search', { query: 'exponential backoff', top_k: 100 });
  try {
    const r = await run(
      bin('claude'),
      [
        '-p',
        'How do retries back off? Use the cairn search tool.',
        '--allowedTools',
        'mcp__cairn__search',
        '--output-format',
        'json',
      ],
      {
        ANTHROPIC_BASE_URL: standIn.url,
        ANTHROPIC_API_KEY: 'sk-ant-stand-in',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        // MCP tools offered directly, not behind Claude Code's ToolSearch: the script makes one call.
        ENABLE_TOOL_SEARCH: 'false',
      },
      { cwd, timeoutMs: 180_000 },
    );
    const offered = standIn.toolsOffered.has('mcp__cairn__search');
    record(
      'claude-code',
      "claude -p (model stand-in): Cairn's search tool is offered to the model",
      offered ? 'pass' : 'fail',
      offered ? '' : `tools offered: ${[...standIn.toolsOffered].join(', ') || 'none'}; ${r.out.trim().slice(-300)}`,
    );
    const seen = standIn.toolResults.join('\n');
    record(
      'claude-code',
      'claude -p (model stand-in): the search result reaches the model',
      /retry\.md/.test(seen) ? 'pass' : 'fail',
      /retry\.md/.test(seen) ? '' : (seen || r.out).slice(0, 300),
    );
    if (seen) {
      const facts = `the model saw ${seen.length} characters for top_k 100; starts: ${seen.slice(0, 120).replace(/\n/g, ' ')}`;
      process.stdout.write(`INFO     claude-code    ${facts}\n`);
      record(
        'claude-code',
        'claude -p (model stand-in): freshness and the data-not-instructions note reach the model',
        /fresh/i.test(seen) && /not instructions/i.test(seen) ? 'pass' : 'fail',
        facts,
      );
      record(
        'claude-code',
        'claude -p (model stand-in): a top_k 100 result stays under the inline limit (50,000 characters)',
        seen.length <= INLINE_LIMIT_CHARS ? 'pass' : 'fail',
        facts,
      );
    }
  } finally {
    await standIn.close();
  }
}

/**
 * What Gemini CLI hands its model from one Cairn search: `gemini -p` against a loopback stand-in
 * for the Gemini API (a test double for the remote model; GOOGLE_GEMINI_BASE_URL may name a
 * loopback address) that scripts exactly one call of Cairn's search at the largest top_k and
 * records the functionResponse. Gemini CLI hands the model the text block (wrapped in its own
 * untrusted-context markers), so what is asserted is the text's freshness, note and bound.
 * `--yolo` approves the one scripted call (a non-interactive run refuses unapproved tools; the
 * HOME is a temporary one and the stand-in calls nothing else).
 */
async function geminiModelView(cwd: string, settingsFile: string): Promise<void> {
  const original = await readFile(settingsFile, 'utf8');
  // The auth type the API-key login would have stored; without it a headless run exits 41.
  await writeFile(
    settingsFile,
    applyEdits(
      original,
      modify(original, ['security', 'auth', 'selectedType'], 'gemini-api-key', {
        formattingOptions: { insertSpaces: true, tabSize: 2 },
      }),
    ),
  );
  const standIn = await startGeminiStandIn({ query: 'exponential backoff', top_k: 100 });
  try {
    const r = await run(
      bin('gemini'),
      ['-p', 'How do retries back off? Use the cairn search tool.', '--output-format', 'json', '--yolo'],
      {
        GEMINI_API_KEY: 'stand-in',
        GOOGLE_GEMINI_BASE_URL: standIn.url,
      },
      { cwd, timeoutMs: 180_000 },
    );
    const offered = [...standIn.toolsOffered].filter((t) => /cairn/.test(t));
    record(
      'gemini-cli',
      "gemini -p (model stand-in): Cairn's search tool is offered to the model",
      offered.some((t) => /search$/.test(t)) ? 'pass' : 'fail',
      offered.length
        ? offered.join(', ')
        : `tools offered: ${[...standIn.toolsOffered].join(', ') || 'none'}; ${r.out.trim().slice(-300)}`,
    );
    const seen = standIn.toolResults.join('\n');
    record(
      'gemini-cli',
      'gemini -p (model stand-in): the search result reaches the model',
      /retry\.md/.test(seen) ? 'pass' : 'fail',
      /retry\.md/.test(seen) ? '' : (seen || r.out).slice(0, 300),
    );
    if (seen) {
      const facts = `the model saw ${seen.length} characters for top_k 100; starts: ${seen.slice(0, 120).replace(/\n/g, ' ')}`;
      process.stdout.write(`INFO     gemini-cli     ${facts}\n`);
      record(
        'gemini-cli',
        'gemini -p (model stand-in): freshness and the data-not-instructions note reach the model',
        /fresh/i.test(seen) && /not instructions/i.test(seen) ? 'pass' : 'fail',
        facts,
      );
      // The text is bounded by max_chars (default 12,000) plus Gemini CLI's own JSON wrapping.
      record(
        'gemini-cli',
        "gemini -p (model stand-in): a top_k 100 result stays within the default budget (12,000 characters, plus 10 % for the client's wrapping)",
        seen.length <= DEFAULT_BUDGET_CHARS * 1.1 ? 'pass' : 'fail',
        facts,
      );
    }
  } finally {
    await standIn.close();
    await writeFile(settingsFile, original);
  }
}

/**
 * Codex connects to MCP servers only inside a session: `codex exec` against a loopback stand-in
 * for the OpenAI Responses API (a test double for the remote model) that scripts one call of
 * Cairn's search and records what Codex hands back. Codex may send its first turn before an MCP
 * server has connected; a run where Cairn's tools were not offered is reported and retried once.
 */
async function codexSession(phase: string, cwd: string, env: Record<string, string>): Promise<void> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const standIn = await startOpenAiStandIn({ query: 'exponential backoff' });
    try {
      const provider = [
        'model_provider="cairn_standin"',
        'model="gpt-5"',
        'model_providers.cairn_standin.name="stand-in"',
        `model_providers.cairn_standin.base_url="${standIn.url}"`,
        'model_providers.cairn_standin.wire_api="responses"',
        'model_providers.cairn_standin.env_key="CAIRN_STANDIN_KEY"',
      ];
      const r = await run(
        bin('codex'),
        [
          'exec',
          '--skip-git-repo-check',
          ...provider.flatMap((c) => ['-c', c]),
          'Search the cairn index for exponential backoff',
        ],
        { ...env, CAIRN_STANDIN_KEY: 'stand-in' },
        { cwd, timeoutMs: 180_000 },
      );
      const offered = [...standIn.toolsOffered].filter((t) => t.startsWith('mcp__cairn'));
      const seen = standIn.toolResults.join('\n');
      if (offered.length === 0 && attempt === 1) {
        process.stdout.write(
          `INFO     codex          ${phase}: Cairn's tools were not offered on Codex's first turn (it did not wait for the MCP server); retrying once\n`,
        );
        continue;
      }
      record(
        'codex',
        `${phase}: codex exec (model stand-in) offers Cairn's tools and hands the search result to the model`,
        /retry\.md/.test(seen) ? 'pass' : 'fail',
        /retry\.md/.test(seen)
          ? ''
          : `offered: ${offered.join(', ') || 'none'}; result: ${seen.slice(0, 200)}; ${r.out.trim().slice(-300)}`,
      );
      if (seen) {
        process.stdout.write(
          `INFO     codex          the model saw ${seen.length} characters; starts: ${seen.slice(0, 120).replace(/\n/g, ' ')}\n`,
        );
        record(
          'codex',
          `${phase}: the data-not-instructions note reaches the model`,
          /not instructions/i.test(seen) ? 'pass' : 'fail',
          seen.slice(0, 200),
        );
      }
      return;
    } finally {
      await standIn.close();
    }
  }
}

function summary(): number {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const passed = new Set(results.filter((r) => r.outcome === 'pass').map((r) => r.client));
  const failed = new Set(results.filter((r) => r.outcome !== 'pass').map((r) => r.client));
  const partly = [...passed].filter(
    (c) => failed.has(c) && !results.some((r) => r.client === c && r.outcome === 'fail'),
  );
  process.stdout.write(
    `\nclients tier: ${count('pass')} passed, ${count('fail')} failed, ${count('not run')} not run (not counted as passed); ` +
      `every check passed: ${[...passed].filter((c) => !failed.has(c)).join(', ') || 'none'}; passed what ran, some checks not run: ${partly.join(', ') || 'none'}; wall time ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return count('fail') > 0 || count('pass') === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
