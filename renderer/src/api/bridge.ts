/**
 * The renderer's view of `window.cairn`, exposed by preload/index.ts in the desktop app. In a plain
 * browser it is absent: the token comes from the URL and folders are added by typing a path.
 */
export interface CairnBridge {
  readonly isDesktop: true;
  pickFolder(): Promise<string | null>;
  revealFile(path: string): Promise<boolean>;
}

export function desktopBridge(): CairnBridge | null {
  const w = window as unknown as { cairn?: CairnBridge };
  return w.cairn?.isDesktop === true ? w.cairn : null;
}
