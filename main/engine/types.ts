/**
 * The engine's internal data model: what parsers produce, what the index stores, and the
 * interfaces the composition root wires together. Kept in one place so that the parts
 * (sources, parse, embed, index, search, jobs, mcp) agree without importing each other.
 */

export type ChunkKind = 'text' | 'markdown' | 'code' | 'html' | 'pdf' | 'docx' | 'data';

/** A chunk as a parser produces it, before it is tied to a folder or embedded. */
export interface ChunkDraft {
  kind: ChunkKind;
  /** Language for code (`typescript`, `python`...), else undefined. */
  language?: string;
  /** 1-based inclusive line range in the file (for PDF: lines of the page's extracted text). */
  startLine: number;
  endLine: number;
  /** 1-based page for PDF. */
  page?: number;
  /** The text to index and show. */
  text: string;
  /** Code symbol the chunk covers, e.g. `UserService.save`. */
  symbol?: string;
  /** `function`, `class`, `method`, `interface`, ... */
  symbolKind?: string;
  /** Markdown heading path, e.g. `Install > Linux`. */
  heading?: string;
}

/** A named thing a file defines (code symbol, Markdown heading) for the graph. */
export interface SymbolDef {
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
}

/** A reference from a file to something else, for the graph. */
export interface RefDraft {
  kind: 'import' | 'link' | 'reference';
  /** The import specifier, link target or referenced identifier, as written. */
  target: string;
  line: number;
}

export interface ParsedFile {
  chunks: ChunkDraft[];
  symbols: SymbolDef[];
  refs: RefDraft[];
}

/** A file found by the walk. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the folder, with forward slashes. */
  rel: string;
  size: number;
  mtimeMs: number;
  /**
   * Change time and inode: a rewrite that keeps size and mtime (`cp -p`, `touch -r`, an archive
   * extracted over the folder) still moves one of them, so a scan hashes the file again.
   */
  ctimeMs?: number;
  ino?: number;
}

export interface WalkError {
  path: string;
  code: string;
  message: string;
}

/** Embeds text; implementations run off the main event loop. */
export interface Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  /** Token window of the model; chunkers keep chunks within it. */
  readonly maxTokens: number;
  /**
   * `gate` runs before each batch is handed to the workers: a pause waits there and a cancel
   * throws, so only the few batches already in flight finish (a job's whole step used to).
   */
  embedDocuments(
    texts: string[],
    onProgress?: (done: number) => void,
    gate?: () => Promise<void>,
  ): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
  /** Rough token count under this model's tokenizer (for chunk sizing). */
  countTokens(text: string): number;
  /**
   * Share (0..1) of a text's letters that fall in words the model's vocabulary knows (no unknown
   * token): an English-only model reads Chinese or Russian as `<unk>`, and its vector for such a
   * query is the same whatever the query says.
   */
  coverage(text: string): number;
  close(): Promise<void>;
}
