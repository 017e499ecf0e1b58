/** The `agent` toolset: `search` and `read`, the two tools every agent needs. */
import type { McpServer } from '@modelcontextprotocol/server';
import { parseReadRequest } from '../../common/requests.js';
import { CONTENT_NOTE, CONTENT_NOTE_FULL } from '../../common/results.js';
import { argumentsOf } from '../errors.js';
import { modelReadResult } from './model-results.js';
import { renderRead } from './render.js';
import { success } from './results.js';
import { guarded, type ToolContext } from './tool-context.js';
import { HITS_OUTPUT, READ_INPUT, READ_OUTPUT, searchInput } from './schemas.js';
import { searchTool, mountSearchDefaults } from './search-call.js';
import { toolNames } from './mount-config.js';
import { containedPath } from '../sources/access.js';
import { withPrintedPath } from './printed-path.js';

/** What the search tool says of itself; it names only tools this mount serves. */
export function searchDescription(tools: readonly string[]): string {
  const exact = tools.includes('grep')
    ? "When you already know an exact string or identifier, this server's `grep` tool (or your own grep) is enough and exhaustive."
    : 'When you already know an exact string or identifier, your own grep is enough and exhaustive.';
  return [
    "Search the user's indexed folders (documents, notes, code) by meaning and by words: full text (BM25), embeddings and, in tribrid mode, the link/import graph.",
    "Use it for conceptual, fuzzy or cross-file questions ('where are retries handled?', 'notes on the Q3 budget') or when you do not know the exact words.",
    exact,
    `Returns the freshness of each folder, then hits grouped by file with line ranges and numbered lines, bounded by max_chars (hits left out are counted)${tools.includes('read') ? '; use `read` for more lines around a hit' : ''}.`,
    CONTENT_NOTE_FULL,
  ].join(' ');
}

const READ_DESCRIPTION = [
  'Read lines of a file inside an indexed folder (use the absolute path and line numbers that search returned). Bounded by max_chars.',
  'Paths outside the indexed folders are refused with path_outside_folders.',
  `${CONTENT_NOTE}`,
].join(' ');

export function registerAgentTools(server: McpServer, ctx: ToolContext): void {
  const defaults = mountSearchDefaults(ctx.mount);
  server.registerTool(
    'search',
    {
      title: 'Search the indexed folders',
      description: `${searchDescription(toolNames(ctx.mount))} Defaults: mode ${defaults.mode}, top_k ${defaults.topK}.`,
      inputSchema: searchInput(defaults),
      outputSchema: HITS_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => guarded(ctx, () => searchTool(ctx.engine, args, defaults)),
  );
  server.registerTool(
    'read',
    {
      title: 'Read lines of an indexed file',
      description: READ_DESCRIPTION,
      inputSchema: READ_INPUT,
      outputSchema: READ_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseReadRequest(args));
        const folders = (await ctx.engine.folders()).map((f) => f.path);
        const read = await withPrintedPath(req.path, async (given) => {
          const { path } = await containedPath(given, folders);
          return ctx.engine.read({ ...req, path });
        });
        const result = modelReadResult(read, req.max_chars);
        return success(result, renderRead(result));
      }),
  );
}
