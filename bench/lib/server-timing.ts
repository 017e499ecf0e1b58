/**
 * How long this process's HTTP server held each request: from the request's arrival (its headers
 * parsed) to the last byte of the answer handed to the socket, through Node's diagnostics
 * channels. A client's round trip also holds its own HTTP stack and the loopback; this is the
 * share the server adds, for benchmarks whose server runs in the benchmark's process.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export interface ServerTiming {
  /** Milliseconds per finished request, in the order they finished. */
  readonly times: number[];
  stop(): void;
}

export function timeServerRequests(): ServerTiming {
  const started = new WeakMap<object, number>();
  const times: number[] = [];
  const onStart = (m: unknown) => started.set((m as { response: object }).response, performance.now());
  const onFinish = (m: unknown) => {
    const t0 = started.get((m as { response: object }).response);
    if (t0 !== undefined) times.push(performance.now() - t0);
  };
  subscribe('http.server.request.start', onStart);
  subscribe('http.server.response.finish', onFinish);
  return {
    times,
    stop() {
      unsubscribe('http.server.request.start', onStart);
      unsubscribe('http.server.response.finish', onFinish);
    },
  };
}
