/**
 * Links the workbench may open in the default browser. Everything else is refused: a page that
 * got script into the renderer must not be able to launch arbitrary URLs or `file:` handlers.
 */
const ALLOWED = [
  /^https:\/\/modelcontextprotocol\.io(\/|$)/,
  /^https:\/\/github\.com\/[\w.-]+\/cairn(\/|$)/,
  /^https:\/\/docs\.anthropic\.com(\/|$)/,
  /^https:\/\/code\.visualstudio\.com\/docs(\/|$)/,
  /^https:\/\/docs\.cursor\.com(\/|$)/,
];

export function isAllowedExternal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  return ALLOWED.some((re) => re.test(parsed.href));
}
