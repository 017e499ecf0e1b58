/**
 * IPC channel names and the bridge the preload exposes as `window.cairn`: only what the workbench
 * calls (everything else goes through app://workbench/api, where the shell adds the admin token).
 * The preload may import only `electron` (test/layering.test.ts), so it repeats these strings;
 * test/app/shell-units.test.ts checks that the two lists agree.
 */
export const CHANNELS = {
  pickFolder: 'cairn:pick-folder',
  revealFile: 'cairn:reveal-file',
} as const;

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface EngineAddress {
  /** Origin of the engine's HTTP server, e.g. `http://127.0.0.1:58012`. */
  baseUrl: string;
  adminToken: string;
}
