/**
 * Where the admin token and the engine's origin come from.
 * - Browser (opened from the address `cairn serve` prints): `#token=…` in the URL. It is moved to
 *   sessionStorage and stripped from the address bar at once, so it does not linger in history,
 *   bookmarks or screenshots. sessionStorage dies with the tab, unlike localStorage.
 * - Desktop: the page calls its own origin (app://workbench/api/...), which the shell forwards to
 *   the engine with the admin token, so the token never has to live in the page.
 */
import { desktopBridge } from './bridge';

const TOKEN_KEY = 'cairn.adminToken';

export interface Connection {
  /** '' means same origin (the engine serves the workbench). */
  baseUrl: string;
  token: string | null;
}

/** Reads `#token=` once, stores it, and removes it from the visible URL. */
export function captureTokenFromUrl(): void {
  const hash = window.location.hash.replace(/^#/, '');
  if (!hash) return;
  const params = new URLSearchParams(hash);
  const token = params.get('token');
  if (!token) return;
  sessionStorage.setItem(TOKEN_KEY, token);
  params.delete('token');
  const rest = params.toString();
  const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : '');
  window.history.replaceState(null, '', url);
}

/** The token pasted on the sign-in screen, kept like one from the address (this tab only). */
export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

export async function resolveConnection(): Promise<Connection> {
  if (desktopBridge()) return { baseUrl: '', token: null };
  return { baseUrl: '', token: sessionStorage.getItem(TOKEN_KEY) };
}
