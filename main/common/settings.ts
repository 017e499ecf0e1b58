/**
 * Every setting Cairn has, in one table: key, default, JSON Schema rule and meaning.
 * The engine builds its validating store from this, the README's configuration reference is
 * checked against it, and the workbench reads defaults and rules from it.
 */

import type { FromSchema, Schema } from './json-schema.js';
import { SEARCH_MODES, TOP_K_MAX, TOP_K_MIN } from './search.js';
import { LIMITS } from './requests.js';

export type JsonSchema = Record<string, unknown>;

/**
 * When a saved value takes effect: `live` at once; `remount` when the MCP server is remounted
 * (the workbench offers the button; agents keep a stable contract until then); `restart` at the
 * next start of Cairn (the address it binds).
 */
export const SETTING_APPLIES = ['live', 'remount', 'restart'] as const;
export type SettingApplies = (typeof SETTING_APPLIES)[number];

/** One row of the settings table, as GET /api/settings/spec serves it (the type is read from it). */
export const SETTING_SPEC_SCHEMA = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    default: {},
    schema: { type: 'object', description: "The value's JSON Schema rule." },
    description: { type: 'string' },
    applies: { enum: SETTING_APPLIES },
    hint: { type: 'string', description: 'The accepted form in words, for messages (never the raw pattern).' },
  },
  required: ['key', 'default', 'schema', 'description', 'applies'],
  additionalProperties: false,
} as const satisfies Schema;
export type SettingSpec = FromSchema<typeof SETTING_SPEC_SCHEMA>;

const hostPattern = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\s/]+$' };
const originPattern = { type: 'string', minLength: 1, maxLength: 300, pattern: '^(\\*|[a-z][a-z0-9+.-]*://[^\\s/]+)$' };
const globList = { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 200 } as const;

/**
 * A folder to index (POST /api/folders; one entry of the `folders` setting): its path, its
 * include/exclude globs, and the options that change what is indexed.
 */
export const FOLDER_SPEC_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, maxLength: LIMITS.pathChars },
    include: globList,
    exclude: globList,
    include_secrets: {
      type: 'boolean',
      description: 'Index the credential files (`.env`, keys, `.ssh/`…) the built-in excludes leave out.',
    },
    text_only: {
      type: 'boolean',
      description: 'Full-text and graph search only: no vectors are computed for this folder.',
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;
const folderProps = FOLDER_SPEC_SCHEMA.properties;

export const SETTINGS: readonly SettingSpec[] = [
  {
    key: 'mcp.enabled',
    default: true,
    schema: { type: 'boolean' },
    description: 'Serve MCP over HTTP.',
    applies: 'live',
  },
  {
    key: 'mcp.host',
    default: '127.0.0.1',
    schema: { type: 'string', minLength: 1 },
    description:
      'Address the HTTP server binds. Anything but loopback also needs `mcp.allow_non_loopback` and the API key.',
    applies: 'restart',
  },
  {
    key: 'mcp.allow_non_loopback',
    default: false,
    schema: { type: 'boolean' },
    description: 'Permit binding a non-loopback address (then the API key is required).',
    applies: 'restart',
  },
  {
    key: 'mcp.port',
    default: 58012,
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    description: 'TCP port of the MCP endpoint and admin API (0 picks a free port).',
    applies: 'restart',
  },
  {
    key: 'mcp.mount_path',
    default: '/mcp',
    schema: { type: 'string', pattern: '^/[A-Za-z0-9._~/-]*$', not: { pattern: '^/api(/|$)' } },
    description: 'Path of the MCP endpoint.',
    applies: 'remount',
    hint: 'a path starting with / (letters, digits, . _ ~ - and /), not under /api',
  },
  {
    key: 'mcp.public_base_url',
    default: 'http://127.0.0.1:58012',
    schema: { type: 'string', pattern: '^https?://[^\\s/]+$' },
    description: 'Origin that clients are told to dial; the mount path is appended.',
    applies: 'live',
    hint: 'an address like http://127.0.0.1:58012 (http or https, no path)',
  },
  {
    key: 'mcp.stateless_http',
    default: true,
    schema: { type: 'boolean' },
    description:
      'For 2025-era clients, every request stands alone (no session, no client state kept); false gives them sessions (bounded: 256 in all, 32 per client, 10 min idle). 2026-07-28 requests are stateless either way.',
    applies: 'remount',
  },
  {
    key: 'mcp.json_response',
    default: true,
    schema: { type: 'boolean' },
    description:
      'JSON responses instead of SSE streams (2026-07-28: JSON unless a call streams progress the client asked for).',
    applies: 'remount',
  },
  {
    key: 'mcp.enable_dns_rebinding_protection',
    default: true,
    schema: { type: 'boolean' },
    description: 'Check Host and Origin against the allowlists.',
    applies: 'live',
  },
  {
    key: 'mcp.allowed_hosts',
    default: ['localhost:*', '127.0.0.1:*', '[::1]:*'],
    schema: { type: 'array', items: hostPattern, maxItems: 100 },
    description: 'Allowed Host header values; `*` is a wildcard.',
    applies: 'live',
    hint: 'a host with an optional port, like localhost:* or 127.0.0.1:58012 (no spaces or slashes)',
  },
  {
    key: 'mcp.allowed_origins',
    default: ['http://localhost:*', 'http://127.0.0.1:*'],
    schema: { type: 'array', items: originPattern, maxItems: 100 },
    description: 'Allowed Origin header values; `*` is a wildcard.',
    applies: 'live',
    hint: 'an origin like http://localhost:* (scheme://host[:port], no path), or *',
  },
  {
    key: 'mcp.require_api_key',
    default: false,
    schema: { type: 'boolean' },
    description: 'Require `Authorization: Bearer <key>` on every MCP request.',
    applies: 'live',
  },
  {
    key: 'mcp.default_top_k',
    default: 20,
    schema: { type: 'integer', minimum: TOP_K_MIN, maximum: TOP_K_MAX },
    description: 'top_k when a search call gives none.',
    applies: 'remount',
  },
  {
    key: 'mcp.default_mode',
    default: 'tribrid',
    schema: { enum: [...SEARCH_MODES] },
    description: 'Search mode when a call gives none.',
    applies: 'remount',
  },
  {
    key: 'mcp.toolset',
    default: 'agent',
    schema: { enum: ['agent', 'full'] },
    description:
      '`agent`: search and read. `full`: adds grep, index_status, index_update, index_drop, server_status, and the aliases retrieve_context (hybrid retrieval) and semantic_search (vector only); `answer` joins either set when `mcp.generation_url` is set.',
    applies: 'remount',
  },
  {
    key: 'mcp.max_body_bytes',
    default: 1048576,
    schema: { type: 'integer', minimum: 1024, maximum: 67108864 },
    description: 'Largest request body accepted (413 above).',
    applies: 'live',
  },
  {
    key: 'mcp.generation_url',
    default: '',
    schema: { type: 'string', pattern: '^(|https?://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?(/.*)?)$' },
    description: 'OpenAI-compatible endpoint on loopback (Ollama, LM Studio); enables the `answer` tool.',
    applies: 'remount',
    hint: 'an http address on this computer, like http://127.0.0.1:11434/v1 (or empty)',
  },
  {
    key: 'mcp.generation_model',
    default: '',
    schema: { type: 'string' },
    description: 'Model name sent to the generation endpoint.',
    applies: 'remount',
  },
  {
    key: 'folders',
    default: [],
    schema: {
      type: 'array',
      // The folder spec POST /api/folders accepts, and an absolute path once stored (`~` is expanded on adding).
      items: {
        ...FOLDER_SPEC_SCHEMA,
        properties: { ...folderProps, path: { ...folderProps.path, pattern: '^(/|[A-Za-z]:[\\\\/])' } },
      },
    },
    description:
      'Indexed folders: absolute path with optional include/exclude globs; `include_secrets: true` indexes the credential files left out by default; `text_only: true` indexes text for full-text and graph search and computes no vectors (saves the embedding time on large folders).',
    applies: 'live',
    hint: 'an absolute folder path (/… or C:\\…)',
  },
  {
    key: 'index.max_file_bytes',
    default: 20971520,
    schema: { type: 'integer', minimum: 1024 },
    description: 'Files larger than this are skipped (recorded, not indexed).',
    applies: 'live',
  },
  {
    key: 'index.respect_gitignore',
    default: true,
    schema: { type: 'boolean' },
    description: 'Honour `.gitignore` and `.ignore` files.',
    applies: 'live',
  },
  {
    key: 'index.extra_excludes',
    default: [],
    schema: globList,
    description: 'Globs excluded in every folder, on top of the built-in excludes.',
    applies: 'live',
  },
  {
    key: 'embedding.model',
    default: 'cairn/use-lite',
    schema: { type: 'string', minLength: 1 },
    description: 'Embedding model: a registry id, a hub id, or a local model folder.',
    applies: 'live',
  },
  {
    key: 'embedding.batch_size',
    // ONNX Runtime's buffers grow with the batch; for the built-in model 4 is also the fastest
    // (one intra-op thread per worker): 5.2-5.5 ms a text against 5.8-5.9 at 16, 40 MB less per
    // worker, and `indexing-rss --quick` peaked 483-487 MB against 547-552 MB in the same time.
    default: 4,
    schema: { type: 'integer', minimum: 1, maximum: 256 },
    description: 'Chunks per embedding batch.',
    applies: 'live',
  },
  {
    key: 'embedding.threads',
    default: 0,
    schema: { type: 'integer', minimum: 0, maximum: 64 },
    description:
      'Embedding worker threads while documents are embedded (0: one per core). Searches need one: the others stop 30 s after the last document batch (each holds its own copy of the model).',
    applies: 'live',
  },
  {
    key: 'search.fusion',
    default: 'convex',
    schema: { enum: ['weighted_rrf', 'convex'] },
    description:
      'How legs are fused: a weighted mix of min-max normalised scores (`convex`, measured best: hybrid above sparse on all five test sets of `npm run bench`, e.g. SciFact 0.690 vs 0.684) or weighted reciprocal rank fusion.',
    applies: 'live',
  },
  {
    key: 'search.rrf_k',
    default: 60,
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
    description: 'The k of reciprocal rank fusion.',
    applies: 'live',
  },
  {
    key: 'search.vector_weight',
    default: null,
    schema: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    description: "Override of the dense leg weight (null: the model registry's measured weight).",
    applies: 'live',
  },
  {
    key: 'search.vector_weight_code',
    default: null,
    schema: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    description:
      "Override of the dense leg weight on code files (null: the model registry's measured code weight; the built-in model's is 0, as it lowered code search). 0: the dense leg has no say on code chunks.",
    applies: 'live',
  },
  {
    key: 'search.graph_weight',
    default: 0.15,
    schema: { type: 'number', minimum: 0, maximum: 1 },
    description: 'Weight of the graph leg in tribrid fusion.',
    applies: 'live',
  },
  {
    key: 'search.grep_timeout_ms',
    default: 15000,
    schema: { type: 'integer', minimum: 100, maximum: 600000 },
    description:
      'Time budget of one grep call; a pattern still running then is stopped (its worker replaced) and the call fails with `timeout`.',
    applies: 'live',
  },
  {
    key: 'watch.enabled',
    default: true,
    schema: { type: 'boolean' },
    description: 'Keep folders fresh with a file watcher while the engine runs.',
    applies: 'live',
  },
  {
    key: 'watch.debounce_ms',
    default: 250,
    schema: { type: 'integer', minimum: 0, maximum: 60000 },
    description: 'Quiet time before a burst of changes is applied.',
    applies: 'live',
  },
];

export type SettingKey = (typeof SETTINGS)[number]['key'];

/** A literal loopback address or `localhost` (the server still resolves it and checks what it binds). */
export function isLoopbackHostName(host: string): boolean {
  const h = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (h === 'localhost' || h === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(h)) return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 !== null && v4[1] === '127' && v4.slice(2).every((n) => Number(n) <= 255);
}

/** A rule across settings, checked on the values a write would leave (the patch over the current ones). */
export interface SettingsRule {
  keys: readonly string[];
  rule: string;
  /** Why these values do not go together, or null. */
  check(values: Record<string, unknown>): string | null;
}

export const SETTING_RULES: readonly SettingsRule[] = [
  {
    keys: ['mcp.host', 'mcp.allow_non_loopback'],
    rule: 'loopback_opt_in',
    check: (v) =>
      typeof v['mcp.host'] !== 'string' || isLoopbackHostName(v['mcp.host']) || v['mcp.allow_non_loopback'] === true
        ? null
        : `mcp.host ${JSON.stringify(v['mcp.host'])} is not a loopback address, so other computers could reach Cairn. Turn on mcp.allow_non_loopback first (then the API key is required), or keep 127.0.0.1.`,
  },
];

export function settingSpec(key: string): SettingSpec | undefined {
  return SETTINGS.find((s) => s.key === key);
}

export function defaultSettings(): Record<string, unknown> {
  return Object.fromEntries(SETTINGS.map((s) => [s.key, structuredClone(s.default)]));
}

export type FolderSpec = FromSchema<typeof FOLDER_SPEC_SCHEMA>;
