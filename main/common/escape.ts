/**
 * Control characters made visible in everything Cairn renders from a file's name or content:
 * a newline, carriage return, ANSI escape, line or paragraph separator or bidi override in a
 * file name must not start a line of its own (a forged hit, a forged numbered line, a forged
 * "Freshness:" header) in tool output, in text or in JSON (JSON.stringify leaves U+2028, C1
 * controls and bidi overrides as they are). They are written as JSON-style escapes (`\n`,
 * `\u001b`), which `unescapeControls` reverses, so an agent can hand a path back as printed.
 */

// C0 and C1 controls, DEL, line/paragraph separators, bidi marks, embeddings, overrides and isolates, BOM.
/* eslint-disable no-control-regex -- matching control characters is the point (a block, so a formatter's line breaks keep it) */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const CONTROLS_BUT_TAB =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/* eslint-enable no-control-regex */
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A path, heading, symbol or folder name with every control character escaped. */
export function escapeControls(s: string): string {
  return s.replace(CONTROLS, escapeOne);
}

/** One line of file content: as escapeControls, but a tab stays a tab (code is indented with them). */
export function escapeContentLine(s: string): string {
  return s.replace(CONTROLS_BUT_TAB, escapeOne);
}

/** Multi-line content (`12│ text` lines): each line escaped, `\r\n` read as a line end. */
export function escapeContent(s: string): string {
  return s.replace(/\r\n/g, '\n').split('\n').map(escapeContentLine).join('\n');
}

/** True when a string holds an escape escapeControls could have written. */
export function hasControlEscapes(s: string): boolean {
  return /\\(n|r|t|u[0-9a-f]{4})/.test(s);
}

/** The reverse of escapeControls (only the escapes it writes, and only for control characters). */
export function unescapeControls(s: string): string {
  return s.replace(/\\(n|r|t|u([0-9a-f]{4}))/g, (m, kind: string, hex: string | undefined) => {
    if (!hex) return kind === 'n' ? '\n' : kind === 'r' ? '\r' : '\t';
    const c = String.fromCharCode(parseInt(hex, 16));
    return c.replace(CONTROLS, '') === '' ? c : m;
  });
}
