import type { SearchDefaults, SearchRequest } from '../../common/requests.js';
import type { SearchResponse } from '../../common/search.js';
import type { FolderSpec } from '../../common/settings.js';
import type { SettingsSnapshot } from '../api.js';
import type { DamageWatch } from '../index/damage.js';
import type { Gate } from '../kernel/gate.js';
import type { Searcher, SearchSettings } from '../search/searcher.js';

export interface GatedSearchDeps {
  searcher: Searcher;
  /** Searches run at once (kernel/gate.ts): each holds its scans' buffers; the rest queue. */
  gate: Gate;
  damage: DamageWatch;
  snapshot: () => SettingsSnapshot;
  /** Throws when the engine is shutting down. */
  assertOpen: () => void;
}

/**
 * The one way a search is served: refused while the index is known damaged, run through the
 * search gate, and a failure that turns out to be damage is named as such (index_corrupt).
 */
export class GatedSearch {
  constructor(private readonly d: GatedSearchDeps) {}

  async search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse> {
    this.d.assertOpen();
    if (this.d.damage.current) throw this.d.damage.current;
    try {
      return await this.d.gate.run(() => this.d.searcher.search(req, defaults ?? searchDefaults(this.d.snapshot())));
    } catch (err) {
      throw await this.d.damage.name(err);
    }
  }
}

/** The MCP defaults a request without its own mode or top_k takes. */
export function searchDefaults(s: SettingsSnapshot): SearchDefaults {
  return { mode: s.get('mcp.default_mode'), topK: s.get('mcp.default_top_k') };
}

/** What the searcher reads of the settings, once per search, from one snapshot. */
export function searchSettings(s: SettingsSnapshot): SearchSettings {
  return {
    folders: s.get<FolderSpec[]>('folders').map((f) => f.path),
    fusion: s.get('search.fusion'),
    rrfK: s.get('search.rrf_k'),
    vectorWeight: s.get('search.vector_weight'),
    vectorWeightCode: s.get('search.vector_weight_code'),
    graphWeight: s.get('search.graph_weight'),
  };
}
