/**
 * Every IPC handler asks this first: the message must come from the workbench's own top-level
 * frame loaded from app://workbench. A frame navigated elsewhere, an iframe or any other
 * webContents gets nothing.
 */
export const APP_ORIGIN = 'app://workbench';

export function isTrustedSenderUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === 'workbench';
  } catch {
    return false;
  }
}
