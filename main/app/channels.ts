/**
 * IPC channel names and the bridge the preload exposes as `window.cairn`. The preload may import
 * only `electron` (test/layering.test.ts), so it repeats these strings; test/app/shell-units.test.ts
 * checks that the two lists agree.
 */
export const CHANNELS = {
  engineAddress: 'cairn:engine-address',
  pickFolder: 'cairn:pick-folder',
  revealFile: 'cairn:reveal-file',
  getApiKey: 'cairn:get-api-key',
  setApiKey: 'cairn:set-api-key',
  openExternal: 'cairn:open-external',
} as const;

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface EngineAddress {
  /** Origin of the engine's HTTP server, e.g. `http://127.0.0.1:58012`. */
  baseUrl: string;
  adminToken: string;
}

/** What the renderer may know of the engine: where it is, never the admin token (the app:// proxy adds it). */
export interface RendererEngineView {
  baseUrl: string;
}

export function rendererEngineView(addr: EngineAddress | null): RendererEngineView | null {
  return addr ? { baseUrl: addr.baseUrl } : null;
}
