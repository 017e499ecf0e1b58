/**
 * A minimal OpenAI-compatible chat-completions client for a generation endpoint on loopback
 * (Ollama, LM Studio, llama.cpp). Loopback only: the setting's schema allows nothing else, and
 * this checks again, so retrieved file content never leaves the machine.
 */
import { CairnError } from '../errors.js';
import { isLoopbackAddress } from '../web/security.js';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** `http://host:port` → `/v1/chat/completions`; a URL already ending in `/chat/completions` is kept. */
export function completionsUrl(base: string): URL {
  const url = new URL(base);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isLoopbackAddress(host)) {
    throw new CairnError('generation_unavailable', `The generation endpoint ${url.origin} is not on loopback`, {
      remedy: 'Point mcp.generation_url at a local server (127.0.0.1, localhost or [::1]).',
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) return url;
  url.pathname = path.endsWith('/v1') ? `${path}/chat/completions` : `${path}/v1/chat/completions`;
  return url;
}

export async function chatComplete(
  base: string,
  model: string,
  messages: ChatMessage[],
  timeoutMs = 120_000,
): Promise<string> {
  const url = completionsUrl(base);
  const unavailable = (message: string, cause?: unknown) =>
    new CairnError('generation_unavailable', message, {
      remedy: `Start the generation server at ${url.origin} (e.g. Ollama or LM Studio) or clear mcp.generation_url.`,
      cause,
    });
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ model: model || 'default', messages, temperature: 0.1, stream: false }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw unavailable(`The generation endpoint ${url.origin} did not answer: ${(err as Error).message}`, err);
  }
  if (!res.ok) throw unavailable(`The generation endpoint answered HTTP ${res.status}`);
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw unavailable('The generation endpoint answered with something other than JSON', err);
  }
  const text = (body as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  if (typeof text !== 'string' || text.trim() === '')
    throw unavailable('The generation endpoint returned no answer text');
  return text.trim();
}
