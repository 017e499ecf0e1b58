/**
 * Idle MCP servers for stateless 2025-era requests. A stateless request needs a server of its own (one
 * server answers over one transport at a time) and building one (the SDK server, the tools and
 * their schemas) costs about 0.1 ms; a transport cannot be reused, but a server whose transport
 * has closed can be connected to the next one. Only a server that answered a call leaving nothing
 * on it comes back: `initialize` records the client's capabilities and `logging/setLevel` a level,
 * so a server that saw anything else is closed, never handed to another client.
 */
import type { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

const STATELESS_METHODS = new Set(['tools/call', 'tools/list', 'ping']);

/** Enough for the 32 concurrent clients the benchmarks run; beyond it servers are built and closed. */
const MAX_IDLE = 32;

export class ServerPool {
  private idle: McpServer[] = [];
  /** Bumped by clear(): a server built for an earlier mount never returns to the pool. */
  private generation = 0;
  private readonly built = new WeakMap<McpServer, number>();

  constructor(private readonly build: () => McpServer) {}

  take(): McpServer {
    const reused = this.idle.pop();
    if (reused) return reused;
    const server = this.build();
    this.built.set(server, this.generation);
    return server;
  }

  /** `method` is the JSON-RPC method the server answered; `clean` is false when handling threw. */
  async release(
    server: McpServer,
    transport: WebStandardStreamableHTTPServerTransport,
    method: unknown,
    clean: boolean,
  ): Promise<void> {
    // Closing the transport disconnects the server (the SDK then accepts a new transport).
    await transport.close();
    const reusable =
      clean &&
      typeof method === 'string' &&
      STATELESS_METHODS.has(method) &&
      this.built.get(server) === this.generation &&
      this.idle.length < MAX_IDLE;
    if (reusable) this.idle.push(server);
    else await server.close();
  }

  /** Closes the idle servers; call when the mount changes (the next ones are built for the new one). */
  async clear(): Promise<void> {
    this.generation++;
    const all = this.idle;
    this.idle = [];
    await Promise.allSettled(all.map((s) => s.close()));
  }
}
