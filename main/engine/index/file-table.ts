import type { Table } from '@lancedb/lancedb';
import type { GraphIndex } from '../graph/graph.js';
import type { ChunkRow, EdgeRow, FileRow, NodeRow } from './schema.js';
import { and, sqlIn } from './sql.js';

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

/** The graph of every indexed file, as the tables hold it (read once at open). */
export async function loadGraph(files: Table, nodes: Table, edges: Table, graph: GraphIndex): Promise<void> {
  const nodeRows = (await nodes.query().toArray()) as NodeRow[];
  const edgeRows = (await edges.query().toArray()) as EdgeRow[];
  const fileRows = (await files.query().select(['path', 'folder', 'rel']).toArray()) as {
    path: string;
    folder: string;
    rel: string;
  }[];
  const group = <T extends { path: string }>(rows: T[]) =>
    rows.reduce((m, r) => m.set(r.path, [...(m.get(r.path) ?? []), r]), new Map<string, T[]>());
  const nodesBy = group(nodeRows);
  const edgesBy = group(edgeRows);
  for (const f of fileRows)
    graph.setFile(f.folder, f.path, f.rel, nodesBy.get(f.path) ?? [], edgesBy.get(f.path) ?? []);
}
