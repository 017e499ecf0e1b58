/** Search contract: the request every surface accepts (MCP, admin API, CLI) and the hits it returns. */

export const SEARCH_MODES = ['vector', 'sparse', 'hybrid', 'tribrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const RETRIEVAL_LEGS = ['vector', 'sparse', 'graph'] as const;
export type RetrievalLeg = (typeof RETRIEVAL_LEGS)[number];

export const FRESHNESS_POLICIES = ['eventual', 'wait_for_fresh'] as const;
export type FreshnessPolicy = (typeof FRESHNESS_POLICIES)[number];

export const TOP_K_MIN = 1;
/** 100, so an agent (and the benchmark's Recall@100) can ask for as many hits as retrieval tests score. */
export const TOP_K_MAX = 100;

export type { SearchRequest, ReadRequest, GrepRequest } from './requests.js';

export type FolderState = 'indexing' | 'fresh' | 'possibly_stale' | 'error';

/** How fresh a folder is, attached to every hit from it. */
export interface Freshness {
  state: FolderState;
  /** Share of the folder's chunks that have vectors (0..1). Below 1 while vectors are computed. */
  vector_coverage: number;
  /** ISO time of the last applied update, or null if never indexed. */
  updated_at: string | null;
  /** Changes seen but not yet applied. */
  pending_changes: number;
}

/** 1-based rank each leg gave a hit; absent when that leg did not return it. */
export type LegRanks = Partial<Record<RetrievalLeg, number>>;

export interface SearchHit {
  /** Absolute path of the file. */
  path: string;
  /** The indexed folder the file belongs to. */
  folder: string;
  /** 1-based, inclusive. For PDF, lines within the page. */
  start_line: number;
  end_line: number;
  /** 1-based page for paginated documents (PDF). */
  page?: number;
  /** The chunk text with line numbers (`12│ text`). */
  snippet: string;
  score: number;
  legs: LegRanks;
  /** Code symbol or heading path the chunk belongs to. */
  symbol?: string;
  heading?: string;
  kind: string;
  language?: string;
  modified_at: string;
  freshness: Freshness;
  /** Legs that declined this search (see SearchResponse.legs_abstained); their ranks are absent, not poor. */
  legs_abstained?: RetrievalLeg[];
  /** With `per_file`: the file's other matching chunks, best first (at most 10). */
  other_ranges?: LineRange[];
}

export interface LineRange {
  start_line: number;
  end_line: number;
  page?: number;
}

export interface SearchResponse {
  hits: SearchHit[];
  mode: SearchMode;
  /** The legs that ran and answered. */
  legs_answered: RetrievalLeg[];
  /**
   * Legs that declined rather than answer badly, and why: the vector leg abstains on a query its
   * model cannot represent (mostly words outside its vocabulary, e.g. a script it was not trained on).
   */
  legs_abstained?: { leg: RetrievalLeg; reason: string }[];
  /** Per-folder freshness of the folders searched. */
  folders: Record<string, Freshness>;
  took_ms: number;
}

export interface ReadResult {
  path: string;
  folder: string;
  page?: number;
  start_line: number;
  end_line: number;
  total_lines: number;
  /** Text with line numbers. */
  content: string;
  truncated: boolean;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  matches: GrepMatch[];
  files_searched: number;
  truncated: boolean;
}
