/**
 * Client config files as people really have them: JSONC with comments and trailing commas,
 * every TOML spelling of an existing `cairn` entry, files that are not objects, unreadable files,
 * symlinks. Each gets a correct merge (parsed back with the client's own kind of parser: TOML by
 * smol-toml, JSONC by jsonc-parser, what VS Code uses) that keeps all of the person's content,
 * or a clear refusal that leaves the file byte for byte as it was.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { installClient } from '../../main/engine/client-config/install.js';
import { clientConfigPath } from '../../main/engine/client-config/paths.js';
import type { ClientSetup } from '../../main/engine/client-config/configs.js';
import { CairnError } from '../../main/engine/errors.js';

const roots: string[] = [];
after(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

async function setup(env: NodeJS.ProcessEnv = {}): Promise<ClientSetup> {
  const home = await mkdtemp(join(tmpdir(), 'cairn-install-'));
  roots.push(home);
  return {
    url: 'http://127.0.0.1:58012/mcp',
    key: null,
    stdioCommand: ['/usr/bin/node', '/opt/cairn/bin/cairn.mjs', 'mcp', '--stdio'],
    dataDir: '/data/cairn',
    home,
    platform: 'linux',
    env,
  };
}

async function withFile(
  id: 'codex' | 'vscode' | 'cursor' | 'gemini' | 'claude-desktop',
  text: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ s: ClientSetup; path: string }> {
  const s = await setup(env);
  const path = clientConfigPath(id, s.home, s.platform, env)!;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return { s, path };
}

const CAIRN = { url: 'http://127.0.0.1:58012/mcp' };
/** smol-toml's tables have no prototype; compare their content. */
const toml = (text: string): unknown => JSON.parse(JSON.stringify(parseToml(text)));

const TOML_SPELLINGS: Record<string, string> = {
  header: '[mcp_servers.cairn]\nurl = "stale"\n',
  'header with sub-table':
    '[mcp_servers.cairn]\nurl = "stale"\n\n[mcp_servers.cairn.http_headers]\nAuthorization = "Bearer old"\n',
  'quoted header': '[mcp_servers."cairn"]\nurl = "stale"\n',
  'spaced, literal-quoted header': '[ \'mcp_servers\' . cairn ]\nurl = "stale"\n',
  'dotted keys at the top': 'mcp_servers.cairn.url = "stale"\nmcp_servers.cairn.env = { A = "1" }\n',
  'dotted keys under [mcp_servers]':
    '[mcp_servers]\ncairn.url = "stale"\ncairn.args = [\n  "multi",\n  "line", # a comment inside\n]\n',
  'inline table under [mcp_servers]':
    '[mcp_servers]\ncairn = { url = "stale", http_headers = { Authorization = "Bearer x" } }\n',
  'multi-line string in the entry': '[mcp_servers.cairn]\ncommand = """\nnot = "a key"\n[not.a.header]\n"""\n',
  'no entry yet': '',
};

for (const [name, spelling] of Object.entries(TOML_SPELLINGS)) {
  test(`codex TOML, ${name}: one cairn entry, everything else kept (comments too)`, async () => {
    const user =
      '# my codex config\nmodel = "o4" # inline comment\n\n[mcp_servers.other]\ncommand = "other" # keep me\nargs = ["a"]\n\n';
    const tail = '\n# profiles below\n[profiles.fast]\nmodel = "o4-mini"\n';
    const original = name.includes('at the top') ? spelling + user + tail : user + spelling + tail;
    const { s, path } = await withFile('codex', original);
    const res = await installClient('codex', s);
    const text = await readFile(path, 'utf8');
    const doc = toml(text) as { model: string; mcp_servers: Record<string, unknown>; profiles: unknown };
    assert.deepEqual(doc.mcp_servers.cairn, CAIRN);
    assert.deepEqual(doc.mcp_servers.other, { command: 'other', args: ['a'] });
    assert.equal(doc.model, 'o4');
    assert.deepEqual(doc.profiles, { fast: { model: 'o4-mini' } });
    for (const kept of ['# my codex config', '# inline comment', '# keep me', '# profiles below'])
      assert.ok(text.includes(kept), `${kept} kept`);
    if (!name.includes('at the top')) assert.ok(text.startsWith(user.trimEnd()), 'the lines before are untouched');
    if (spelling) assert.equal(await readFile(res.backup_path!, 'utf8'), original);
  });
}

test('codex TOML: mcp_servers as one inline table is refused (a header cannot extend it), file untouched', async () => {
  const original = 'mcp_servers = { other = { command = "x" }, cairn = { url = "stale" } }\n';
  const { s, path } = await withFile('codex', original);
  await assert.rejects(
    installClient('codex', s),
    (err: unknown) => err instanceof CairnError && err.code === 'conflict' && /inline table/.test(err.message),
  );
  assert.equal(await readFile(path, 'utf8'), original);
  assert.deepEqual(
    (await readdir(dirname(path))).filter((n) => n.includes('backup')),
    [],
    'no backup for a refused write',
  );
});

test("codex TOML: a file that does not parse is refused with the parser's reason", async () => {
  const original = '[mcp_servers.cairn]\nurl = "unterminated\n';
  const { s, path } = await withFile('codex', original);
  await assert.rejects(installClient('codex', s), /not valid TOML/);
  assert.equal(await readFile(path, 'utf8'), original);
});

test('codex TOML: CRLF line endings are kept', async () => {
  const { s, path } = await withFile('codex', 'model = "o4"\r\n[mcp_servers.cairn]\r\nurl = "stale"\r\n');
  await installClient('codex', s);
  const text = await readFile(path, 'utf8');
  assert.ok(!/[^\r]\n/.test(text), JSON.stringify(text));
  assert.deepEqual((toml(text) as { mcp_servers: unknown }).mcp_servers, { cairn: CAIRN });
});

test('CODEX_HOME is honoured', async () => {
  const s = await setup();
  const codexHome = join(s.home, 'elsewhere');
  s.env = { CODEX_HOME: codexHome };
  const res = await installClient('codex', s);
  assert.equal(res.config_path, join(codexHome, 'config.toml'));
  assert.deepEqual((toml(await readFile(res.config_path, 'utf8')) as { mcp_servers: unknown }).mcp_servers, {
    cairn: CAIRN,
  });
  // Control: without it, ~/.codex.
  assert.equal(clientConfigPath('codex', s.home, 'linux', {}), join(s.home, '.codex', 'config.toml'));
});

test('VS Code mcp.json (JSONC): comments, trailing commas and tabs kept; cairn merged', async () => {
  const original =
    '{\n\t// my servers\n\t"servers": {\n\t\t"other": { "type": "stdio", "command": "x" }, /* keep */\n\t},\n\t"inputs": [],\n}\n';
  const { s, path } = await withFile('vscode', original);
  await installClient('vscode', s);
  const text = await readFile(path, 'utf8');
  assert.ok(text.includes('// my servers') && text.includes('/* keep */'));
  assert.ok(text.includes('\t\t"cairn"'), 'indented as the file is');
  const doc = parseJsonc(text) as { servers: Record<string, unknown>; inputs: unknown[] };
  assert.deepEqual(doc.servers, { other: { type: 'stdio', command: 'x' }, cairn: { type: 'http', ...CAIRN } });
  assert.deepEqual(doc.inputs, []);
});

test('an existing cairn entry is replaced in place, its neighbours untouched', async () => {
  const original =
    '{\n  "mcpServers": {\n    "cairn": { "url": "stale", "extra": 1 },\n    "other": { "url": "http://x" }\n  }\n}\n';
  const { s, path } = await withFile('cursor', original);
  await installClient('cursor', s);
  const doc = JSON.parse(await readFile(path, 'utf8')) as { mcpServers: Record<string, unknown> };
  assert.deepEqual(doc.mcpServers, { cairn: CAIRN, other: { url: 'http://x' } });
});

for (const [name, text] of Object.entries({
  'an array': '[1, 2]',
  'a string': '"x"',
  null: 'null',
  'broken JSON': '{ "mcpServers": { oops',
  'servers not an object': '{ "mcpServers": [] }',
})) {
  test(`a JSON config that is ${name} is refused, untouched`, async () => {
    const { s, path } = await withFile('gemini', text);
    await assert.rejects(
      installClient('gemini', s),
      (err: unknown) => err instanceof CairnError && err.code === 'conflict' && /left untouched/.test(err.message),
    );
    assert.equal(await readFile(path, 'utf8'), text);
  });
}

test('Gemini CLI: ~/.gemini/settings.json gets httpUrl (its Streamable HTTP key), other settings kept', async () => {
  const { s, path } = await withFile('gemini', '{ "theme": "GitHub", "mcpServers": { "x": { "command": "y" } } }');
  await installClient('gemini', s);
  const doc = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(doc, { theme: 'GitHub', mcpServers: { x: { command: 'y' }, cairn: { httpUrl: CAIRN.url } } });
});

test('Claude Desktop: the stdio entry with absolute launcher and the data folder', async () => {
  const s = await setup();
  const res = await installClient('claude-desktop', s);
  const doc = JSON.parse(await readFile(res.config_path, 'utf8')) as { mcpServers: { cairn: unknown } };
  assert.deepEqual(doc.mcpServers.cairn, {
    command: '/usr/bin/node',
    args: ['/opt/cairn/bin/cairn.mjs', 'mcp', '--stdio'],
    env: { CAIRN_HOME: '/data/cairn' },
  });
});

test('a symlinked config is written through to its target; the link stays', async () => {
  const s = await setup();
  const real = join(s.home, 'dotfiles', 'cursor-mcp.json');
  await mkdir(dirname(real), { recursive: true });
  await writeFile(real, '{ "mcpServers": { "other": { "url": "http://x" } } }');
  const path = clientConfigPath('cursor', s.home, 'linux')!;
  await mkdir(dirname(path), { recursive: true });
  await symlink(real, path);
  await installClient('cursor', s);
  assert.equal(await readlink(path), real);
  assert.deepEqual((JSON.parse(await readFile(real, 'utf8')) as { mcpServers: object }).mcpServers, {
    other: { url: 'http://x' },
    cairn: CAIRN,
  });
});

test('a dangling symlink, a directory and an unreadable file are refused', async () => {
  const s = await setup();
  const path = clientConfigPath('cursor', s.home, 'linux')!;
  await mkdir(dirname(path), { recursive: true });
  await symlink(join(s.home, 'missing.json'), path);
  await assert.rejects(installClient('cursor', s), /does not exist/);
  const w = clientConfigPath('gemini', s.home, 'linux')!;
  await mkdir(w, { recursive: true });
  await assert.rejects(installClient('gemini', s), /not a regular file/);
  const { s: s2, path: p2 } = await withFile('vscode', '{}');
  if (process.getuid?.() === 0) {
    // root reads any mode: a regular file whose read fails (EIO) stands in for an unreadable one.
    await rm(p2);
    await symlink('/proc/self/mem', p2);
  } else {
    await chmod(p2, 0o000);
  }
  await assert.rejects(installClient('vscode', s2), /cannot be read/);
});
