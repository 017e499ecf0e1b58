/**
 * The MCP server's status and the workbench probe's answer (through a real MCP client), as schemas
 * with the types read from them (json-schema.ts), like the rest of the engine's status (status.ts).
 */
import { KEY_STORAGES } from './api-key.js';
import { ERROR_BODY_SCHEMA } from './errors.js';
import type { FromSchema, Schema } from './json-schema.js';
import { SEARCH_MODES } from './search.js';

const count = { type: 'integer', minimum: 0 } as const;
const str = { type: 'string' } as const;
const strs = { type: 'array', items: str } as const;

export const MCP_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    running: { type: 'boolean' },
    advertised_url: str,
    in_process_url: str,
    transport: {
      type: 'object',
      description:
        '`stateless`/`sessions` concern 2025-era clients only (2026-07-28 requests are stateless by the protocol); `protocol_versions` are the revisions served, newest first; `sessions` is how many 2025-era sessions are open (0 when stateless).',
      properties: {
        stateless: { type: 'boolean' },
        json_response: { type: 'boolean' },
        protocol_versions: strs,
        sessions: count,
      },
      required: ['stateless', 'json_response', 'protocol_versions', 'sessions'],
      additionalProperties: false,
    },
    security: {
      type: 'object',
      properties: {
        dns_rebinding_protection: { type: 'boolean' },
        allowed_hosts: strs,
        allowed_origins: strs,
        require_api_key: { type: 'boolean' },
        api_key_set: { type: 'boolean' },
        loopback_only: { type: 'boolean' },
        other_login_users: {
          ...strs,
          description:
            'Other accounts that can log in to this machine (POSIX). With the key off, each of them can search and read every indexed file over loopback.',
        },
        key_off_with_other_users: {
          type: 'boolean',
          description:
            'The key is not required while other_login_users is not empty: the workbench offers to require it.',
        },
        key_storage: {
          type: 'object',
          description: 'How the key is kept at rest, and what the user should know about it (null: nothing).',
          properties: { kind: { enum: [...KEY_STORAGES, null] }, notice: { type: ['string', 'null'] } },
          required: ['kind', 'notice'],
          additionalProperties: false,
        },
        warnings: strs,
      },
      required: [
        'dns_rebinding_protection',
        'allowed_hosts',
        'allowed_origins',
        'require_api_key',
        'api_key_set',
        'loopback_only',
        'other_login_users',
        'key_off_with_other_users',
        'key_storage',
        'warnings',
      ],
      additionalProperties: false,
    },
    toolset: { enum: ['agent', 'full'] },
    tools: strs,
    default_mode: { enum: SEARCH_MODES },
    default_top_k: { type: 'integer', minimum: 1 },
    config_default_mode: { enum: SEARCH_MODES },
    config_default_top_k: { type: 'integer', minimum: 1 },
    defaults_restart_pending: { type: 'boolean' },
    remount_pending: {
      type: 'array',
      description:
        'Saved settings the mounted server does not use yet (toolset, defaults, transport...): remount to apply.',
      items: {
        type: 'object',
        properties: { key: str, mounted: {}, configured: {} },
        required: ['key', 'mounted', 'configured'],
        additionalProperties: false,
      },
    },
    stdio_command: strs,
    uptime_s: { type: 'number', minimum: 0 },
    requests: {
      type: 'object',
      properties: { total: count, errors: count, rejected: count },
      required: ['total', 'errors', 'rejected'],
      additionalProperties: false,
    },
  },
  required: [
    'enabled',
    'running',
    'advertised_url',
    'in_process_url',
    'transport',
    'security',
    'toolset',
    'tools',
    'default_mode',
    'default_top_k',
    'config_default_mode',
    'config_default_top_k',
    'defaults_restart_pending',
    'remount_pending',
    'stdio_command',
    'uptime_s',
    'requests',
  ],
  additionalProperties: false,
} as const satisfies Schema;
export type McpStatus = FromSchema<typeof MCP_STATUS_SCHEMA>;

export const PROBE_HIT_SCHEMA = {
  type: 'object',
  properties: {
    path: str,
    start_line: { type: 'integer', minimum: 1 },
    end_line: { type: 'integer', minimum: 1 },
    page: {
      type: 'integer',
      minimum: 1,
      description: "PDF: the page the lines are on (a PDF's hits are otherwise alike: file.pdf:1-3 on every page).",
    },
    score: { type: 'number' },
  },
  required: ['path', 'start_line', 'end_line', 'score'],
  additionalProperties: false,
} as const satisfies Schema;
export type ProbeHit = FromSchema<typeof PROBE_HIT_SCHEMA>;

/** Which protocol era the probe speaks: `auto` negotiates (2026-07-28 here), the others pin one. */
export const PROBE_ERAS = ['auto', 'modern', 'legacy'] as const;
export type ProbeEra = (typeof PROBE_ERAS)[number];

/** The era and revision a probe's connection used; null fields when it never connected. */
const probeProtocol = {
  era: { enum: ['modern', 'legacy', null] },
  protocol_version: { type: ['string', 'null'] },
} as const;
export type ProbeProtocol = FromSchema<{
  type: 'object';
  properties: typeof probeProtocol;
  required: ['era', 'protocol_version'];
  additionalProperties: false;
}>;

/** A probe's answer: a success with hits, or a failure as a result (a typed error beside what it saw). */
export const PROBE_RESULT_SCHEMA = {
  anyOf: [
    {
      type: 'object',
      properties: {
        ok: { enum: [true] },
        tools: strs,
        latency_ms: { type: 'number', minimum: 0 },
        hits: { type: 'array', items: PROBE_HIT_SCHEMA },
        transport_url: str,
        transport_label: { enum: ['in-process'] },
        ...probeProtocol,
      },
      required: ['ok', 'tools', 'latency_ms', 'hits', 'transport_url', 'transport_label', 'era', 'protocol_version'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        ok: { enum: [false] },
        tools: strs,
        latency_ms: { type: 'number', minimum: 0 },
        transport_url: str,
        error: ERROR_BODY_SCHEMA,
        ...probeProtocol,
      },
      required: ['ok', 'tools', 'latency_ms', 'transport_url', 'error', 'era', 'protocol_version'],
      additionalProperties: false,
    },
  ],
} as const satisfies Schema;
export type ProbeResult = FromSchema<typeof PROBE_RESULT_SCHEMA>;
