import ignore from 'ignore';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fsPath } from '../kernel/path-bytes.js';

/** Files whose rules we honour, in increasing precedence within one directory (as ripgrep does). */
export const IGNORE_FILE_NAMES = ['.gitignore', '.ignore'] as const;

/** The rules of one directory's ignore files, scoped to that directory. */
export interface IgnoreLevel {
  /** Folder-relative directory the rules belong to ('' for the root). */
  dir: string;
  rules: ignore.Ignore;
}

function levelFrom(dir: string, texts: string[]): IgnoreLevel | null {
  const nonEmpty = texts.filter((t) => t.trim().length > 0);
  if (nonEmpty.length === 0) return null;
  const rules = ignore({ allowRelativePaths: true });
  for (const t of nonEmpty) rules.add(t);
  return { dir, rules };
}

/** Reads a directory's ignore files; a missing or unreadable one counts as empty. */
export async function loadIgnoreLevel(absDir: string, relDir: string): Promise<IgnoreLevel | null> {
  const texts = await Promise.all(
    IGNORE_FILE_NAMES.map((n) => readFile(fsPath(join(absDir, n)), 'utf8').catch(() => '')),
  );
  return levelFrom(relDir, texts);
}

export function loadIgnoreLevelSync(absDir: string, relDir: string): IgnoreLevel | null {
  const texts = IGNORE_FILE_NAMES.map((n) => {
    try {
      return readFileSync(fsPath(join(absDir, n)), 'utf8');
    } catch {
      return '';
    }
  });
  return levelFrom(relDir, texts);
}

/**
 * Git semantics across nested files: each level sees the path relative to its own directory and a
 * deeper level overrides a shallower one (a nested `!keep.log` re-includes what the root ignored).
 */
export function ignoredByLevels(levels: readonly IgnoreLevel[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const sub = level.dir === '' ? rel : rel.slice(level.dir.length + 1);
    const r = level.rules.test(isDir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}
