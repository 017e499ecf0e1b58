import type { ReadResult } from '../../common/search.js';
import type { ReadRequest } from '../../common/requests.js';
import type { FolderSpec } from '../../common/settings.js';
import { LIMITS, parseReadRequest, type ResolvedReadRequest } from '../../common/requests.js';
import { argumentsOf, CairnError } from '../errors.js';
import { numberLines } from '../search/snippet.js';
import { decodeText } from '../parse/index.js';
import { sharedExtractPool, type ExtractPool } from '../parse/extract-pool.js';
import { FolderAccess, containedPath, type AccessOptions } from '../sources/access.js';

/**
 * Lines of a file inside an indexed folder, numbered and bounded. Only what indexing would admit
 * is served (the folder's rules, secret and built-in excludes, size, binary sniff), read from a
 * descriptor the file door checked; PDF and DOCX text is extracted in a bounded worker. The
 * request is checked, and its defaults applied, by the read contract (common/requests.ts).
 */
export async function readLines(
  input: ReadRequest,
  folders: readonly FolderSpec[],
  opts: AccessOptions,
  extract: ExtractPool = sharedExtractPool(),
): Promise<ReadResult> {
  const req = argumentsOf(parseReadRequest(input));
  const { start_line: start, end_line: end, max_chars: maxChars } = req;
  const { path, folder } = await containedPath(req.path, folders);
  const { bytes } = await new FolderAccess(folder, opts).readAdmitted(path);
  const { text, page } = await documentText(path, bytes, req, extract);
  const lines = text.split('\n');
  const last = Math.min(end, start + LIMITS.readLines - 1, lines.length);
  const slice = lines.slice(start - 1, last).join('\n');
  const content = start > lines.length ? '' : numberLines(slice, start, maxChars);
  const truncated = (last < end && last < lines.length) || content.endsWith('│ …');
  return {
    path,
    folder: folder.path,
    ...(page ? { page } : {}),
    start_line: start,
    end_line: Math.max(start, last),
    total_lines: lines.length,
    content,
    truncated,
  };
}

/** The text whose lines hits refer to: a PDF page's extracted text, a DOCX's text, else the file. */
async function documentText(
  path: string,
  bytes: Buffer,
  req: ResolvedReadRequest,
  extract: ExtractPool,
): Promise<{ text: string; page?: number }> {
  const ext = path.toLowerCase().split('.').pop();
  if (ext === 'pdf') {
    const pages = await extract.extract('pdf', bytes, req.path);
    const page = req.page ?? 1;
    if (!Number.isInteger(page) || page < 1 || page > pages.length)
      throw new CairnError('invalid_argument', `page must be an integer from 1 to ${pages.length}`, {
        details: { key: 'page' },
      });
    return { text: pages[page - 1], page };
  }
  if (req.page !== undefined)
    throw new CairnError('invalid_argument', 'page applies to PDF files only', { details: { key: 'page' } });
  if (ext === 'docx') return { text: (await extract.extract('docx', bytes, req.path))[0] };
  return { text: decodeText(bytes) };
}
