/**
 * Every IPC handler asks this first: the message must come from the workbench's own top-level
 * frame loaded from app://workbench. A frame navigated elsewhere, an iframe or any other
 * webContents gets nothing.
 */
export const APP_ORIGIN = 'app://workbench';

/**
 * Whether a frame may navigate to `url` (will-frame-navigate): the main frame only within the
 * workbench, a subframe never (the workbench has none; one that appears was injected). Links
 * out go through setWindowOpenHandler and the external-link allow-list instead.
 */
export function allowFrameNavigation(url: string, isMainFrame: boolean): boolean {
  return isMainFrame && isTrustedSenderUrl(url);
}

export function isTrustedSenderUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === 'workbench';
  } catch {
    return false;
  }
}
