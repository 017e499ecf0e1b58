/**
 * A loopback stand-in for the OpenAI Responses API: a test double for the one part of a
 * `codex exec` run that cannot run here (the remote model). It scripts exactly one call of the
 * first offered tool whose name ends in `search` and mentions cairn, records the output Codex
 * then hands its model, and ends the turn with a short message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface OpenAiStandIn {
  url: string;
  toolResults: string[];
  toolsOffered: Set<string>;
  close(): Promise<void>;
}

type Item = Record<string, unknown>;

function toolName(t: Item): string {
  return String(t.name ?? (t.function as Item | undefined)?.name ?? '');
}

export function startOpenAiStandIn(input: Record<string, unknown>): Promise<OpenAiStandIn> {
  const toolResults: string[] = [];
  const toolsOffered = new Set<string>();
  let called = false;
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (!(req.url ?? '').includes('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"stand-in"}}');
        return;
      }
      const r = (body ? JSON.parse(body) : {}) as { model?: string; tools?: Item[]; input?: Item[] };
      // MCP tools come grouped: {type: "namespace", name: "mcp__cairn", tools: [{name: "search"}]}.
      const offered: { ns?: string; name: string }[] = (r.tools ?? []).flatMap((t) =>
        t.type === 'namespace'
          ? ((t.tools as Item[]) ?? []).map((x) => ({ ns: String(t.name), name: toolName(x) }))
          : [{ name: toolName(t) }],
      );
      for (const t of offered) toolsOffered.add(t.ns ? `${t.ns}__${t.name}` : t.name);
      for (const item of r.input ?? []) {
        if (
          item.type === 'function_call_output' &&
          item.call_id === 'call_standin_search' &&
          toolResults.length === 0
        ) {
          toolResults.push(typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
        }
      }
      const id = `resp_standin_${++n}`;
      const tool = offered.find((t) => /cairn/.test(`${t.ns ?? ''}${t.name}`) && /search$/.test(t.name));
      let output: Item;
      if (!called && tool) {
        called = true;
        output = {
          type: 'function_call',
          id: 'fc_standin',
          call_id: 'call_standin_search',
          name: tool.name,
          ...(tool.ns ? { namespace: tool.ns } : {}),
          arguments: JSON.stringify(input),
          status: 'completed',
        };
      } else {
        output = {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
        };
      }
      const response = {
        id,
        object: 'response',
        status: 'completed',
        model: r.model ?? 'stand-in',
        output: [output],
        usage: {
          input_tokens: 10,
          output_tokens: 10,
          total_tokens: 20,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      };
      const events: Item[] = [
        { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
        { type: 'response.output_item.added', output_index: 0, item: output },
        { type: 'response.output_item.done', output_index: 0, item: output },
        { type: 'response.completed', response },
      ];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        toolResults,
        toolsOffered,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
