/**
 * Talking to the Hugging Face hub, bounded. Offline machines (ours, a user's laptop on a train)
 * either fail DNS at once or drop packets and hang for minutes; neither may hang the engine.
 * transformers.js fetches through `env.fetch`, so it gets a fetch that gives up when response
 * headers do not arrive in time. Bodies are not limited: a slow but live download keeps going.
 */
import { CairnError } from '../errors.js';

export const DEFAULT_HUB_TIMEOUT_MS = 15_000;

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
  const reason = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message} (${cause.cause.message})` : cause.message) : String(cause);
  return new CairnError('dependency_unavailable', `Embedding model "${hubId}" is not on this computer and could not be downloaded from the Hugging Face hub: ${reason}`, {
    remedy: 'Connect to the internet once to download it, copy the model folder into <dataDir>/models/<id>, or use the built-in model cairn/use-lite.',
    details: { model: hubId },
    cause,
  });
}
