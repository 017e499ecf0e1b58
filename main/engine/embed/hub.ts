/**
 * Talking to the Hugging Face hub, bounded. Offline machines (ours, a user's laptop on a train)
 * either fail DNS at once or drop packets and hang for minutes; neither may hang the engine.
 * transformers.js fetches through `env.fetch`, so it gets a fetch that gives up when response
 * headers do not arrive in time. Bodies are not limited: a slow but live download keeps going.
 */
import type { ModelDownload } from '../../common/status.js';
import { CairnError } from '../errors.js';

export const DEFAULT_HUB_TIMEOUT_MS = 15_000;

/**
 * `HF_ENDPOINT`, the Hugging Face convention for a mirror (also how tests point the engine at a
 * local stand-in for the hub), as transformers.js wants its `remoteHost`: with a trailing slash.
 */
export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env.HF_ENDPOINT?.trim();
  return v ? v.replace(/\/*$/, '/') : undefined;
}

/**
 * Sums transformers.js' per-file progress reports (from the main thread and the workers) into
 * one figure for status. A file reported twice (a second worker) counts once.
 */
export class DownloadProgress {
  private readonly files = new Map<string, { loaded: number; total: number }>();

  update(p: { file: string; loaded: number; total: number }): void {
    const prev = this.files.get(p.file);
    this.files.set(p.file, {
      loaded: Math.max(prev?.loaded ?? 0, p.loaded),
      total: Math.max(prev?.total ?? 0, p.total),
    });
  }

  get started(): boolean {
    return this.files.size > 0;
  }

  snapshot(): ModelDownload {
    const files = [...this.files].map(([file, f]) => ({ file, loaded_bytes: f.loaded, total_bytes: f.total }));
    const loaded = files.reduce((n, f) => n + f.loaded_bytes, 0);
    const total = files.reduce((n, f) => n + f.total_bytes, 0);
    const known = files.filter((f) => f.total_bytes > 0);
    const knownLoaded = known.reduce((n, f) => n + Math.min(f.loaded_bytes, f.total_bytes), 0);
    const percent = known.length ? Math.min(100, Math.floor((knownLoaded / total) * 1000) / 10) : null;
    return { loaded_bytes: loaded, total_bytes: total, percent, files };
  }
}

export function boundedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const upstream = init?.signal;
    if (upstream) upstream.addEventListener('abort', () => controller.abort(upstream.reason), { once: true });
    try {
      return await fetch(input, { ...init, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Why a hub model could not be loaded, as the typed error every caller expects. */
export function hubUnavailable(hubId: string, cause: unknown): CairnError {
  const reason =
    cause instanceof Error
      ? cause.cause instanceof Error
        ? `${cause.message} (${cause.cause.message})`
        : cause.message
      : String(cause);
  return new CairnError(
    'dependency_unavailable',
    `Embedding model "${hubId}" is not on this computer and could not be downloaded from the Hugging Face hub: ${reason}`,
    {
      remedy:
        'Connect to the internet once to download it, copy the model folder into <dataDir>/models/<id>, or use the built-in model cairn/use-lite.',
      details: { model: hubId },
      cause,
    },
  );
}
