import { dirname, join, normalize, posix } from 'node:path';

const CODE_EXTS = [
  '',
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.py',
  '.go',
  '.rs',
  '.java',
  '.c',
  '.h',
  '.cpp',
  '.hpp',
  '.cc',
  '.md',
  '/index.ts',
  '/index.js',
  '/__init__.py',
  '/mod.rs',
];

/**
 * Candidate files an import specifier or Markdown link may point at, relative to the folder.
 * Relative specifiers are resolved against the importing file; dotted module names (Python,
 * Java) and crate paths (Rust) become paths. Resolution is by existence in `known`.
 */
export function resolveTarget(
  fromRel: string,
  target: string,
  kind: string,
  known: { has(rel: string): boolean },
): string[] {
  const clean = target.split('#')[0].split('?')[0].trim();
  if (!clean || /^[a-z]+:/i.test(clean)) return [];
  const bases: string[] = [];
  if (clean.startsWith('.') || kind === 'link') {
    bases.push(
      normalize(join(dirname(fromRel), decodeURIComponentSafe(clean)))
        .split('\\')
        .join('/'),
    );
  } else {
    const asPath = clean.replace(/^crate::|^super::/, '').replace(/::|\./g, '/');
    bases.push(asPath, clean);
  }
  const found: string[] = [];
  for (const base of bases) {
    const b = posix.normalize(base).replace(/^\/+/, '');
    if (b.startsWith('..')) continue;
    const stripped = b.replace(/\.(js|mjs|cjs)$/, '');
    for (const ext of CODE_EXTS) {
      for (const cand of [b + ext, stripped + ext]) if (known.has(cand) && !found.includes(cand)) found.push(cand);
    }
    if (found.length > 0) break;
  }
  return found;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
