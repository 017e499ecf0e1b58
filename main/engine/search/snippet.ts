/** `12│ text` per line: agents and people cite lines, so every snippet line carries its number. */
export function numberLines(text: string, startLine: number, maxChars?: number): string {
  const lines = text.split('\n');
  const width = String(startLine + lines.length - 1).length;
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = `${String(startLine + i).padStart(width)}│ ${lines[i]}\n`;
    if (maxChars !== undefined && out.length + line.length > maxChars) {
      out += `${' '.repeat(width)}│ …\n`;
      break;
    }
    out += line;
  }
  return out.replace(/\n$/, '');
}
