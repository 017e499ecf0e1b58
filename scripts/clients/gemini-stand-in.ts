/**
 * A loopback stand-in for the Gemini API (`generateContent` / `streamGenerateContent`): a test
 * double for the one part of a `gemini -p` run that cannot run here (the remote model). Gemini
 * CLI honours GOOGLE_GEMINI_BASE_URL for loopback addresses. The stand-in scripts exactly one
 * call of the first offered function whose name names Cairn and ends in `search`, records the
 * functionResponse Gemini CLI then hands its model, and ends the turn with a short text.
 * Gemini CLI's own side calls (next-speaker check, model routing and its complexity score: JSON-mode requests without
 * tools) get a JSON answer that ends the turn.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface GeminiStandIn {
  url: string;
  /** What the client put in the functionResponse for the scripted call: the model's view. */
  toolResults: string[];
  /** Function names offered in requests. */
  toolsOffered: Set<string>;
  close(): Promise<void>;
}

type Part = Record<string, unknown>;
interface Content {
  role?: string;
  parts?: Part[];
}
interface GenerateRequest {
  contents?: Content[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  generationConfig?: { responseMimeType?: string };
}

/** Covers the side calls' JSON shapes (next speaker, routing) at once; each reads its own fields. */
const SIDE_CALL_JSON = JSON.stringify({
  reasoning: 'stand-in',
  next_speaker: 'user',
  model_choice: 'flash',
  complexity_reasoning: 'stand-in',
  complexity_score: 10,
});

function answer(res: ServerResponse, stream: boolean, parts: Part[]): void {
  const body = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: 'stand-in',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`data: ${JSON.stringify(body)}\r\n\r\n`);
}

export function startGeminiStandIn(input: Record<string, unknown>): Promise<GeminiStandIn> {
  const toolResults: string[] = [];
  const toolsOffered = new Set<string>();
  let called: string | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = req.url ?? '';
      if (/:countTokens/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":10}');
        return;
      }
      if (!/:(stream)?[gG]enerateContent/.test(url)) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"code":404,"message":"stand-in","status":"NOT_FOUND"}}');
        return;
      }
      const stream = /:streamGenerateContent/.test(url);
      const r = (body ? JSON.parse(body) : {}) as GenerateRequest;
      const offered = (r.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name);
      for (const name of offered) toolsOffered.add(name);
      if (called && toolResults.length === 0) {
        for (const part of (r.contents ?? []).flatMap((c) => c.parts ?? [])) {
          const fr = part.functionResponse as { name?: string; response?: unknown } | undefined;
          if (fr && fr.name === called)
            toolResults.push(typeof fr.response === 'string' ? fr.response : JSON.stringify(fr.response));
        }
      }
      const tool = offered.find((n) => /cairn/i.test(n) && /search$/.test(n));
      if (!called && tool) {
        called = tool;
        answer(res, stream, [{ functionCall: { name: tool, args: input } }]);
        return;
      }
      const json = r.generationConfig?.responseMimeType === 'application/json';
      answer(res, stream, [{ text: json ? SIDE_CALL_JSON : 'Done.' }]);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        toolResults,
        toolsOffered,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
