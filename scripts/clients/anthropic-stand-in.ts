/**
 * A loopback stand-in for the Anthropic Messages API: a test double for the one part of a
 * `claude -p` run that cannot run here (the remote model). It scripts exactly one call of
 * Cairn's search tool (the first request that offers it gets a tool_use), records the
 * tool_result Claude Code then hands its model, and ends the turn with a short text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

interface Block {
  type: string;
  [k: string]: unknown;
}

export interface StandIn {
  url: string;
  /** What the client put in each tool_result for the scripted call: the model's view. */
  toolResults: string[];
  /** Tool names offered in requests (to see that Cairn's tools reached the model). */
  toolsOffered: Set<string>;
  close(): Promise<void>;
}

function sse(res: ServerResponse, events: [string, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function message(id: string, model: string, content: Block[], stop: string): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function stream(res: ServerResponse, msg: Record<string, unknown>): void {
  const content = msg.content as Block[];
  const events: [string, unknown][] = [
    ['message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null } }],
  ];
  content.forEach((b, index) => {
    if (b.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } },
      ]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { ...b, input: {} } }]);
      events.push([
        'content_block_delta',
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
        },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: msg.stop_reason, stop_sequence: null },
      usage: { output_tokens: 10 },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  sse(res, events);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((c: Block) => (c.type === 'text' ? String(c.text) : JSON.stringify(c))).join('\n');
  return JSON.stringify(content);
}

export function startAnthropicStandIn(tool: string, input: Record<string, unknown>): Promise<StandIn> {
  const toolResults: string[] = [];
  const toolsOffered = new Set<string>();
  let called = false;
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = req.url ?? '';
      if (!url.startsWith('/v1/messages')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"type":"error","error":{"type":"not_found_error","message":"stand-in"}}');
        return;
      }
      const r = (body ? JSON.parse(body) : {}) as {
        model?: string;
        stream?: boolean;
        tools?: { name: string }[];
        messages?: { role: string; content: unknown }[];
      };
      if (url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
        return;
      }
      for (const t of r.tools ?? []) toolsOffered.add(t.name);
      const model = r.model ?? 'stand-in';
      const id = `msg_standin_${++n}`;
      let content: Block[] = [{ type: 'text', text: 'Done.' }];
      let stop = 'end_turn';
      // The scripted call's result, wherever the client put it in the conversation.
      const results =
        called && toolResults.length === 0
          ? (r.messages ?? [])
              .flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []))
              .filter((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_standin_search')
          : [];
      if (results.length > 0) {
        for (const b of results) toolResults.push(textOf(b.content));
      } else if (!called && (r.tools ?? []).some((t) => t.name === tool)) {
        called = true;
        content = [{ type: 'tool_use', id: 'toolu_standin_search', name: tool, input }];
        stop = 'tool_use';
      }
      const msg = message(id, model, content, stop);
      if (r.stream) stream(res, msg);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(msg));
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
