/**
 * The renderer's view of `window.cairn`, exposed by preload/index.ts in the desktop app. In a plain
 * browser it is absent: the token comes from the URL and folders are added by typing a path.
 */
/** Where the engine is; never its admin token (app://workbench/api is forwarded with it by the shell). */
export interface EngineAddress {
  baseUrl: string;
}

export interface CairnBridge {
  readonly isDesktop: true;
  engineAddress(): Promise<EngineAddress | null>;
  pickFolder(): Promise<string | null>;
  revealFile(path: string): Promise<boolean>;
  getApiKey(): Promise<string | null>;
  setApiKey(key: string | null): Promise<void>;
  openExternal(url: string): Promise<boolean>;
}

export function desktopBridge(): CairnBridge | null {
  const w = window as unknown as { cairn?: CairnBridge };
  return w.cairn?.isDesktop === true ? w.cairn : null;
}
