const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');
const utf16 = { 'utf-16le': new TextDecoder('utf-16le'), 'utf-16be': new TextDecoder('utf-16be') };

/**
 * UTF-16 by its byte order mark (Windows tools write it: PowerShell, Notepad's "Unicode"), else
 * UTF-8 (BOM dropped), or Windows-1252 for the old files that are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  const bom =
    bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : null;
  if (bom) {
    text = utf16[bom].decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  try {
    text = utf8.decode(bytes);
  } catch {
    text = latin1.decode(bytes);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
