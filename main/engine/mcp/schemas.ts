/**
 * Zod 4 schemas of the MCP tools. Zod 4 inlines every schema in `tools/list` (no `$ref`/`$defs`,
 * which several clients cannot resolve), so shared pieces are plain values reused freely.
 * Output schemas describe both outcomes, `{result}` or `{error}`; the handlers never set both.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../../common/errors.js';
import { FRESHNESS_POLICIES, RETRIEVAL_LEGS, SEARCH_MODES, TOP_K_MAX, TOP_K_MIN } from '../../common/search.js';

export const MAX_CHARS_MIN = 200;
export const MAX_CHARS_MAX = 200_000;
export const MAX_CHARS_DEFAULT = 12_000;

export const errorBodySchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  remedy: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const freshnessSchema = z.looseObject({
  state: z.enum(['indexing', 'fresh', 'possibly_stale', 'error']),
  vector_coverage: z.number(),
  updated_at: z.string().nullable(),
  pending_changes: z.number(),
});

export const hitSchema = z.looseObject({
  path: z.string(),
  folder: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  page: z.number().int().optional(),
  snippet: z.string(),
  score: z.number(),
  legs: z.looseObject({ vector: z.number().optional(), sparse: z.number().optional(), graph: z.number().optional() }),
  symbol: z.string().optional(),
  heading: z.string().optional(),
  kind: z.string(),
  language: z.string().optional(),
  modified_at: z.string(),
  freshness: freshnessSchema,
  legs_abstained: z.array(z.enum(RETRIEVAL_LEGS)).optional(),
  other_ranges: z.array(z.object({ start_line: z.number().int(), end_line: z.number().int(), page: z.number().int().optional() })).optional(),
});

/*
 * Tools take built object schemas, made once per process: given a raw shape the SDK builds a new
 * object on every registerTool, and zod compiles each new schema on its first parse, which a
 * stateless server (a new McpServer per request) would pay on every call.
 */

/** `{result}` on success, `{error}` on failure; both optional so one schema covers both. */
export function outcome<T extends z.ZodType>(result: T) {
  return z.object({ result: result.optional(), error: errorBodySchema.optional() });
}

const topK = z.number().int().min(TOP_K_MIN).max(TOP_K_MAX);
const maxChars = z.number().int().min(MAX_CHARS_MIN).max(MAX_CHARS_MAX);
const pathList = z.array(z.string().min(1)).max(100);

export const searchInput = {
  query: z.string().min(1).max(2000).optional().describe('What you are looking for, in words. Give `query` or `queries`.'),
  queries: z.array(z.string().min(1).max(2000)).min(1).max(8).optional().describe('Several phrasings of one need; their results are fused.'),
  mode: z.enum(SEARCH_MODES).optional().describe('vector (meaning), sparse (words, BM25), hybrid (both), tribrid (both plus the link/import graph). Default: the server setting.'),
  top_k: topK.optional().describe('How many hits (1..100). Default: the server setting.'),
  folders: pathList.optional().describe('Absolute folder paths to search (as indexed); default: all.'),
  globs: z.array(z.string().min(1)).max(50).optional().describe('Path globs relative to the folder; a leading ! excludes.'),
  file_types: z.array(z.string().min(1)).max(50).optional().describe('Extensions without the dot (md, ts) or kinds (code, pdf).'),
  modified_after: z.string().optional().describe('ISO 8601 date-time.'),
  modified_before: z.string().optional().describe('ISO 8601 date-time.'),
  min_score: z.number().optional().describe('Drop hits scoring below this.'),
  freshness: z.enum(FRESHNESS_POLICIES).optional().describe('eventual (default) or wait_for_fresh (wait for pending index updates first).'),
  max_chars: maxChars.optional().describe(`Bound on the text rendering (default ${MAX_CHARS_DEFAULT}).`),
  per_file: z.boolean().optional().describe('At most one hit per file (its best passage, with the other matching line ranges). Default false.'),
};

export const readInput = {
  path: z.string().min(1).max(4096).describe('Absolute path of a file inside an indexed folder, as search returns it.'),
  start_line: z.number().int().min(1).optional().describe('First line (1-based). Default 1.'),
  end_line: z.number().int().min(1).optional().describe('Last line (inclusive).'),
  page: z.number().int().min(1).optional().describe('For a PDF: the page whose lines to read (search hits carry it). Default 1.'),
  max_chars: maxChars.optional().describe(`Bound on the returned text (default ${MAX_CHARS_DEFAULT}).`),
};

export const readResultSchema = z.looseObject({
  path: z.string(),
  folder: z.string(),
  page: z.number().int().optional(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  total_lines: z.number().int(),
  content: z.string(),
  truncated: z.boolean(),
});

export const grepInput = {
  pattern: z.string().min(1).max(1000).describe('A literal string, or a regular expression with regex: true.'),
  regex: z.boolean().optional(),
  case_sensitive: z.boolean().optional(),
  folders: pathList.optional(),
  globs: z.array(z.string().min(1)).max(50).optional(),
  max_matches: z.number().int().min(1).max(1000).optional().describe('Default 200.'),
};

export const grepResultSchema = z.looseObject({
  matches: z.array(z.looseObject({ path: z.string(), line: z.number().int(), text: z.string() })),
  files_searched: z.number().int(),
  truncated: z.boolean(),
});

export const folderArg = { path: z.string().min(1).max(4096).describe('Absolute path of an indexed folder.') };

export const indexUpdateInput = {
  ...folderArg,
  kind: z.enum(['create', 'update', 'rebuild']).optional().describe('update (default): apply changes; rebuild: from scratch; create: a folder not yet indexed.'),
};

export const indexDropInput = {
  ...folderArg,
  confirm: z.literal(true).describe('Must be true: dropping deletes the folder\'s index (not its files).'),
};

export const jobResultSchema = z.looseObject({ job_id: z.string(), state: z.string(), kind: z.string(), folder: z.string() });

export const folderStatusSchema = z.looseObject({
  path: z.string(),
  state: z.string(),
  files: z.number(),
  chunks: z.number(),
  embedded_chunks: z.number(),
  file_errors: z.number(),
  updated_at: z.string().nullable(),
});

export const retrieveContextInput = {
  query: z.string().min(1).max(2000),
  filters: z
    .object({
      source: z.string().min(1).optional().describe('An indexed folder (absolute path) or a path glob within the folders.'),
      tags: z.array(z.string().min(1)).max(50).optional().describe('File extensions or kinds (md, ts, code, pdf).'),
    })
    .optional(),
  top_k: topK.optional().describe('1..100, default 10.'),
};

export const semanticSearchInput = {
  vector_query: z.string().min(1).max(2000).describe('Natural-language description of the meaning you are after.'),
  threshold: z.number().min(0).max(1).optional().describe('Minimum similarity (0..1), default 0.7.'),
  top_k: topK.optional(),
};

export const answerInput = {
  question: z.string().min(1).max(4000),
  top_k: topK.optional().describe('Passages retrieved for the answer (default 8).'),
  folders: pathList.optional(),
};

export const answerResultSchema = z.looseObject({
  answer: z.string(),
  citations: z.array(z.looseObject({ n: z.number().int(), path: z.string(), start_line: z.number().int(), end_line: z.number().int() })),
  model: z.string(),
});

export const EMPTY_INPUT = z.object({});
export const SEARCH_INPUT = z.object(searchInput);
export const HITS_OUTPUT = outcome(z.array(hitSchema));
export const READ_INPUT = z.object(readInput);
export const READ_OUTPUT = outcome(readResultSchema);
export const GREP_INPUT = z.object(grepInput);
export const GREP_OUTPUT = outcome(grepResultSchema);
export const INDEX_STATUS_OUTPUT = outcome(z.object({ folders: z.array(folderStatusSchema), jobs: z.array(jobResultSchema) }));
export const INDEX_UPDATE_INPUT = z.object(indexUpdateInput);
export const JOB_OUTPUT = outcome(jobResultSchema);
export const INDEX_DROP_INPUT = z.object(indexDropInput);
export const INDEX_DROP_OUTPUT = outcome(z.object({ dropped: z.string() }));
export const SERVER_STATUS_OUTPUT = outcome(z.looseObject({ version: z.string(), toolset: z.string(), tools: z.array(z.string()) }));
export const RETRIEVE_CONTEXT_INPUT = z.object(retrieveContextInput);
export const SEMANTIC_SEARCH_INPUT = z.object(semanticSearchInput);
export const ANSWER_INPUT = z.object(answerInput);
export const ANSWER_OUTPUT = outcome(answerResultSchema);
