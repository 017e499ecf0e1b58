import type { Table } from '@lancedb/lancedb';
import { pushTo, type GraphIndex } from '../graph/graph.js';
import type { ChunkRow, EdgeRow, FileRow, NodeRow } from './schema.js';
import { and, sqlIn } from './sql.js';
import { decodeRows } from './arrow-rows.js';

/**
 * Typed reads of the ingest side (the indexer's scans, the embedding pass, the graph at open): the
 * only place their rows are cast from Arrow. The query side (search legs) has its own.
 */

/** Paths per `IN (...)` lookup of stored rows: one scan of the `files` table answers this many. */
const LOOKUP_PATHS = 1000;

/** What a scan compares a walked file with: its stat when indexed and whether it indexed cleanly. */
export interface StoredStat {
  path: string;
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  ok: boolean;
}

export async function* streamStats(files: Table, folder: string): AsyncGenerator<StoredStat[]> {
  for await (const batch of files
    .query()
    .where(sqlIn('folder', [folder]))
    .select(['path', 'size', 'mtime', 'ctime', 'ino', 'error_code'])) {
    const rows = batch.toArray() as unknown as {
      path: string;
      size: number;
      mtime: number;
      ctime: number;
      ino: number;
      error_code: string;
    }[];
    yield rows.map((r) => ({
      path: String(r.path),
      size: Number(r.size),
      mtime: Number(r.mtime),
      ctime: Number(r.ctime),
      ino: Number(r.ino),
      ok: !r.error_code,
    }));
  }
}

export async function fileRowsOf(files: Table, paths: string[]): Promise<Map<string, FileRow>> {
  const out = new Map<string, FileRow>();
  for (let i = 0; i < paths.length; i += LOOKUP_PATHS) {
    const rows = (await files
      .query()
      .where(sqlIn('path', paths.slice(i, i + LOOKUP_PATHS)))
      .toArray()) as FileRow[];
    for (const r of rows) out.set(r.path, { ...r, embedded: Boolean(r.embedded) });
  }
  return out;
}

export async function* streamPaths(files: Table, folder: string): AsyncGenerator<string[]> {
  for await (const batch of files
    .query()
    .where(sqlIn('folder', [folder]))
    .select(['path'])) {
    const column = batch.getChild('path');
    yield column ? Array.from(column, (v) => String(v)) : [];
  }
}

export interface UnembeddedFile {
  path: string;
  chunks: number;
}

export async function unembeddedFiles(files: Table, folder: string): Promise<UnembeddedFile[]> {
  const rows = (await files
    .query()
    .where(and(sqlIn('folder', [folder]), 'embedded = false', 'chunks > 0') ?? 'false')
    .select(['path', 'chunks'])
    .toArray()) as UnembeddedFile[];
  return rows.map((r) => ({ path: String(r.path), chunks: Number(r.chunks) }));
}

/** The columns a vector row and the embedding text need. */
export type ChunkToEmbed = Pick<
  ChunkRow,
  'id' | 'folder' | 'path' | 'rel' | 'ext' | 'kind' | 'mtime' | 'text_hash' | 'text' | 'heading' | 'symbol'
>;

export async function chunksOfPaths(chunks: Table, paths: string[]): Promise<ChunkToEmbed[]> {
  return (await chunks
    .query()
    .where(sqlIn('path', paths))
    .select(['id', 'folder', 'path', 'rel', 'ext', 'kind', 'mtime', 'text_hash', 'text', 'heading', 'symbol'])
    .toArray()) as ChunkToEmbed[];
}

/**
 * The graph of every indexed file, as the tables hold it (read once at open). Rows are decoded
 * into plain objects, not kept as Arrow's row proxies (`toArray()`): a proxy holds its whole batch
 * alive and decodes a string at every read, and the graph reads `name`, `kind` and `target` on
 * each search. The strings a file's rows repeat (folder, path, kind) are held once. At 100k chunks
 * (122k rows) the loaded graph's JS heap and Arrow buffers went from 76 to 34 MB (issue 17).
 */
export async function loadGraph(files: Table, nodes: Table, edges: Table, graph: GraphIndex): Promise<void> {
  const strings = new Map<string, string>();
  const once = (v: unknown): string => {
    const s = v as string;
    const held = strings.get(s);
    if (held !== undefined) return held;
    strings.set(s, s);
    return s;
  };
  const nodesBy = new Map<string, NodeRow[]>();
  for await (const batch of nodes.query().select(NODE_COLUMNS))
    for (const r of decodeRows(batch)) {
      const row: NodeRow = {
        id: r.id as string,
        folder: once(r.folder),
        path: once(r.path),
        kind: once(r.kind),
        name: r.name as string,
        start_line: r.start_line as number,
        end_line: r.end_line as number,
      };
      pushTo(nodesBy, row.path, row);
    }
  const edgesBy = new Map<string, EdgeRow[]>();
  for await (const batch of edges.query().select(EDGE_COLUMNS))
    for (const r of decodeRows(batch)) {
      const row: EdgeRow = {
        folder: once(r.folder),
        path: once(r.path),
        kind: once(r.kind),
        target: r.target as string,
        line: r.line as number,
      };
      pushTo(edgesBy, row.path, row);
    }
  for await (const batch of files.query().select(['path', 'folder', 'rel']))
    for (const f of decodeRows(batch)) {
      const path = once(f.path);
      graph.setFile(once(f.folder), path, f.rel as string, nodesBy.get(path) ?? [], edgesBy.get(path) ?? []);
    }
}

const NODE_COLUMNS: (keyof NodeRow)[] = ['id', 'folder', 'path', 'kind', 'name', 'start_line', 'end_line'];
const EDGE_COLUMNS: (keyof EdgeRow)[] = ['folder', 'path', 'kind', 'target', 'line'];
