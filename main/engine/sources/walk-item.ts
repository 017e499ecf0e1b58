/** What a walk is asked (options) and what it yields (items): shared by the walk and the per-file check (inspect.ts). */
import type { SourceFile, WalkError } from '../types.js';

export interface WalkOptions {
  maxFileBytes: number;
  respectGitignore: boolean;
  extraExcludes: string[];
  signal?: AbortSignal;
  /**
   * Also yield what the name rules leave out (ignored, excluded, built-in excludes; a directory
   * once, not its contents): the indexer records every skip, other walkers only the content ones.
   */
  reportRuleSkips?: boolean;
}

export type WalkItem =
  { file: SourceFile } | { error: WalkError } | { skipped: { path: string; reason: string; dir?: boolean } };
