/**
 * Ready-made client configurations: the advertised URL (with the key header when the key is
 * required) for clients that speak Streamable HTTP, the stdio command for Claude Desktop, whose
 * config file only launches commands.
 */
import type { ClientConfig } from '../../common/admin.js';
import { clientConfigPath, type ClientId } from './paths.js';
import { tomlTable } from './toml.js';

export const SERVER_NAME = 'cairn';
export const KEY_PLACEHOLDER = '<your Cairn API key>';

export interface ClientSetup {
  /** `public_base_url` + mount path. */
  url: string;
  /** The key to write, the placeholder, or null when no key is required. */
  key: string | null;
  stdioCommand: string[];
  /** The data folder the stdio command must open (the engine's own), written as CAIRN_HOME. */
  dataDir: string;
  home: string;
  platform: NodeJS.Platform;
  /** CODEX_HOME, when set. */
  env?: NodeJS.ProcessEnv;
}

interface ClientSpec {
  id: ClientId;
  name: string;
  format: ClientConfig['format'];
  uses: ClientConfig['uses'];
  /** JSON clients: the key under which servers are listed. */
  container?: string;
  /** The server entry (JSON/TOML clients) or the command (command clients). */
  entry: (s: ClientSetup) => Record<string, unknown> | string;
}

const auth = (s: ClientSetup) => (s.key ? { Authorization: `Bearer ${s.key}` } : undefined);

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

const SPECS: ClientSpec[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: 'json',
    uses: 'stdio',
    container: 'mcpServers',
    entry: (s) => ({ command: s.stdioCommand[0], args: s.stdioCommand.slice(1), env: { CAIRN_HOME: s.dataDir } }),
  },
  {
    // User scope (every directory), re-runnable (remove, then add), and the key never on the
    // command line: the header names ${CAIRN_MCP_API_KEY}, which Claude Code expands from its
    // environment when it connects.
    id: 'claude-code',
    name: 'Claude Code',
    format: 'command',
    uses: 'http',
    entry: (s) => {
      const entry = {
        type: 'http',
        url: s.url,
        ...(s.key ? { headers: { Authorization: 'Bearer ${CAIRN_MCP_API_KEY}' } } : {}),
      };
      return [
        `claude mcp remove --scope user ${SERVER_NAME} >/dev/null 2>&1;`,
        ['claude', 'mcp', 'add-json', '--scope', 'user', SERVER_NAME, JSON.stringify(entry)].map(shellQuote).join(' '),
      ].join(' ');
    },
  },
  {
    id: 'cursor',
    name: 'Cursor',
    format: 'json',
    uses: 'http',
    container: 'mcpServers',
    entry: (s) => ({ url: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }),
  },
  {
    id: 'vscode',
    name: 'VS Code',
    format: 'json',
    uses: 'http',
    container: 'servers',
    entry: (s) => ({ type: 'http', url: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }),
  },
  {
    id: 'codex',
    name: 'Codex',
    format: 'toml',
    uses: 'http',
    entry: (s) => ({ url: s.url, ...(auth(s) ? { http_headers: auth(s) } : {}) }),
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    format: 'json',
    uses: 'http',
    container: 'mcpServers',
    entry: (s) => ({ serverUrl: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }),
  },
  {
    // httpUrl is Gemini CLI's Streamable HTTP transport (its `url` means SSE).
    id: 'gemini',
    name: 'Gemini CLI',
    format: 'json',
    uses: 'http',
    container: 'mcpServers',
    entry: (s) => ({ httpUrl: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }),
  },
];

export function clientSpec(id: string): ClientSpec | undefined {
  return SPECS.find((c) => c.id === id);
}

export function snippet(spec: ClientSpec, s: ClientSetup): string {
  const entry = spec.entry(s);
  if (typeof entry === 'string') return entry;
  if (spec.format === 'toml') return tomlTable(['mcp_servers', SERVER_NAME], entry);
  return JSON.stringify({ [spec.container ?? 'mcpServers']: { [SERVER_NAME]: entry } }, null, 2);
}

export function clientConfigs(s: ClientSetup): ClientConfig[] {
  return SPECS.map((spec) => {
    const path = clientConfigPath(spec.id, s.home, s.platform, s.env);
    return {
      id: spec.id,
      name: spec.name,
      config_path: path,
      format: spec.format,
      snippet: snippet(spec, s),
      uses: spec.uses,
      installable: path !== null && spec.format !== 'command',
    };
  });
}
