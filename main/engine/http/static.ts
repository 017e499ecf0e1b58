/**
 * The one static-file server: the built workbench (`renderer/dist`) at `/`, for the engine's own
 * HTTP server and for the desktop shell's app:// scheme (main/app/protocol.ts). Known content
 * types only, a strict CSP, and the SPA fallback to index.html for client-side routes. Paths are
 * resolved inside the folder (kernel/scope.ts) and anything else is a 404, never a read elsewhere.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { WORKBENCH_CSP } from '../../common/csp.js';
import { resolveInside } from '../kernel/scope.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export { WORKBENCH_CSP };

const PAGE_HEADERS = {
  'content-security-policy': WORKBENCH_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

async function fileResponse(file: string, method: string): Promise<Response | null> {
  try {
    const st = await stat(file);
    if (!st.isFile()) return null;
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    // Hashed asset names (Vite) may be cached; index.html must not be, or a new build is missed.
    const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const body = method === 'HEAD' ? null : await readFile(file);
    return new Response(body, {
      status: 200,
      headers: { 'content-type': type, 'cache-control': cache, ...PAGE_HEADERS },
    });
  } catch {
    return null;
  }
}

function notFound(text: string, status = 404): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS } });
}

export async function serveStatic(req: Request, rendererDir: string | undefined): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return notFound('Method not allowed', 405);
  if (!rendererDir) return notFound('The workbench is not built: run `npm run build`.', 404);
  const root = resolve(rendererDir);
  const raw = new URL(req.url).pathname;
  let pathname: string;
  try {
    pathname = decodeURIComponent(raw);
  } catch {
    return notFound('Bad path', 400);
  }
  if (pathname.split('/').includes('..')) return notFound('Not found');
  const file = resolveInside(root, raw);
  if (!file) return notFound('Not found');
  const direct = pathname.endsWith('/') && pathname !== '/' ? null : await fileResponse(file, req.method);
  if (direct) return direct;
  // Client-side routes have no extension; a missing asset is a real 404, not index.html.
  if (extname(pathname) !== '') return notFound('Not found');
  return (
    (await fileResponse(join(root, 'index.html'), req.method)) ??
    notFound('The workbench is not built: run `npm run build`.')
  );
}
