import type { FolderSpec } from '../../common/settings.js';
import type { GrepRequest, GrepResult } from '../../common/search.js';
import { CairnError } from '../errors.js';
import { decodeText } from '../parse/index.js';
import { globMatcher } from '../search/filters.js';
import type { WalkOptions } from '../sources/index.js';
import { bytePrefilter } from './grep-prefilter.js';
import { walkAndRead } from './grep-walk.js';

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

/** Longest stretch of synchronous file work before the event loop gets a turn (see walkAndRead). */
const SLICE_MS = 10;

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  // Most files hold no match: a literal every match needs rules them out on raw bytes, undecoded.
  const mayMatch = bytePrefilter(req.pattern, req.regex === true, req.case_sensitive !== false);
  const out: GrepResult = { matches: [], files_searched: 0, truncated: false };
  let sliceEnd = performance.now() + SLICE_MS;
  for (const spec of folders) {
    for (const file of walkAndRead(spec, walk, keep)) {
      if (performance.now() > sliceEnd) {
        await breathe();
        sliceEnd = performance.now() + SLICE_MS;
      }
      if (!file) continue;
      out.files_searched++;
      if (mayMatch && !mayMatch(file.bytes)) continue;
      const text = decodeText(file.bytes);
      // Cheap whole-file test next: the line split below is the costly part.
      if (!whole.test(text)) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i])) continue;
        if (out.matches.length >= max) {
          out.truncated = true;
          return out;
        }
        out.matches.push({ path: file.path, line: i + 1, text: lines[i].length > MAX_LINE_CHARS ? `${lines[i].slice(0, MAX_LINE_CHARS)}…` : lines[i] });
      }
    }
  }
  return out;
}
