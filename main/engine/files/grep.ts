import type { FolderSpec } from '../../common/settings.js';
import type { GrepRequest, GrepResult } from '../../common/search.js';
import { CairnError } from '../errors.js';
import { decodeText } from '../parse/index.js';
import { globMatcher } from '../search/filters.js';
import { readSourceFile, walkFolder, type WalkOptions } from '../sources/index.js';

const DEFAULT_MATCHES = 200;
const MAX_MATCHES = 5000;
const MAX_LINE_CHARS = 400;

function compile(req: GrepRequest): RegExp {
  if (typeof req.pattern !== 'string' || req.pattern.length === 0) throw new CairnError('invalid_argument', 'pattern must be a non-empty string', { details: { field: 'pattern' } });
  if (req.pattern.length > 1000) throw new CairnError('invalid_argument', 'pattern is too long (1000 characters at most)');
  const source = req.regex ? req.pattern : req.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, req.case_sensitive === false ? 'i' : '');
  } catch (err) {
    throw new CairnError('invalid_argument', `invalid regular expression: ${(err as Error).message}`, { details: { field: 'pattern' } });
  }
}

/**
 * Exhaustive line search over the files the index covers (same walk rules), in process: no
 * shell, bounded by match count. Returns matches in walk order (folder, then path).
 */
export async function grepFolders(req: GrepRequest, folders: FolderSpec[], walk: WalkOptions): Promise<GrepResult> {
  const re = compile(req);
  // The whole-file pre-test must read `^` and `$` per line, as the line test does.
  const whole = new RegExp(re.source, `${re.flags}m`);
  const max = req.max_matches ?? DEFAULT_MATCHES;
  if (!Number.isInteger(max) || max < 1 || max > MAX_MATCHES) throw new CairnError('invalid_argument', `max_matches must be an integer from 1 to ${MAX_MATCHES}`);
  const keep = globMatcher(req.globs ?? []);
  const out: GrepResult = { matches: [], files_searched: 0, truncated: false };
  for (const spec of folders) {
    for await (const item of walkFolder(spec, walk)) {
      if (!('file' in item)) continue;
      if (keep && !keep(item.file.rel)) continue;
      let text: string;
      try {
        text = decodeText(await readSourceFile(item.file.path));
      } catch {
        continue;
      }
      out.files_searched++;
      // Cheap whole-file test first: most files have no match.
      if (!whole.test(text)) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i])) continue;
        if (out.matches.length >= max) {
          out.truncated = true;
          return out;
        }
        out.matches.push({ path: item.file.path, line: i + 1, text: lines[i].length > MAX_LINE_CHARS ? `${lines[i].slice(0, MAX_LINE_CHARS)}…` : lines[i] });
      }
    }
  }
  return out;
}
