/**
 * Paths come back from agents as Cairn printed them, and names with control characters are
 * printed escaped (common/escape.ts). A path that is not found as given, but holds such escapes,
 * is tried once more unescaped, through the same checks (containment, the file door) as any path.
 */
import { hasControlEscapes, unescapeControls } from '../../common/escape.js';
import { CairnError } from '../errors.js';

export async function withPrintedPath<T>(input: string, attempt: (path: string) => Promise<T>): Promise<T> {
  try {
    return await attempt(input);
  } catch (err) {
    const retry =
      err instanceof CairnError && err.code === 'not_found' && hasControlEscapes(input)
        ? unescapeControls(input)
        : null;
    if (retry === null || retry === input) throw err;
    return attempt(retry);
  }
}
