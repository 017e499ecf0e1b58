/**
 * Paths come back from agents as Cairn printed them, and names with control characters are
 * printed escaped (common/escape.ts). A path that does not resolve as given, but holds such
 * escapes, is tried once more unescaped; both tries go through the same containment check.
 */
import { hasControlEscapes, unescapeControls } from '../../common/escape.js';
import { CairnError } from '../errors.js';
import { containedPath } from './paths.js';

export async function containedPathAsPrinted(input: string, folders: readonly string[]): Promise<{ path: string; folder: string }> {
  try {
    return await containedPath(input, folders);
  } catch (err) {
    const retry = err instanceof CairnError && err.code === 'not_found' && hasControlEscapes(input) ? unescapeControls(input) : null;
    if (retry === null || retry === input) throw err;
    return containedPath(retry, folders);
  }
}
