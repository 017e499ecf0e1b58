/** The workbench's admin client: the shared typed client (main/common/admin-client.ts) over the page's fetch. */
import { adminClient } from '../../../main/common/admin-client';
import type { ProbeResult } from '../../../main/common/index';
import { ApiError, request } from './client';

const shared = adminClient(request);

export const api = {
  ...shared,
  async probe(query: string): Promise<ProbeResult> {
    // A failed probe is a result (typed error + remedy), whatever HTTP status carries it.
    try {
      return await shared.probe({ query });
    } catch (err) {
      if (err instanceof ApiError)
        return {
          ok: false,
          tools: [],
          latency_ms: 0,
          transport_url: '',
          error: err.body,
          era: null,
          protocol_version: null,
        };
      throw err;
    }
  },
};
