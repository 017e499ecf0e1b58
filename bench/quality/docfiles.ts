/**
 * Test-set documents as files: the engine indexes folders, so each document becomes one file whose
 * name encodes its id, and a hit's path maps back to the id.
 */
import { basename, extname } from 'node:path';
import type { Doc } from './datasets.js';

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,100}$/;

/** File name for a document id; ids that are not plain file names are hex-encoded behind `x~`. */
export function docFileName(id: string, ext: string): string {
  const stem = SAFE.test(id) && !id.startsWith('x~') ? id : `x~${Buffer.from(id, 'utf8').toString('hex')}`;
  return `${stem}.${ext}`;
}

/** The document id a hit's path stands for, or null for a file that is not a document. */
export function docIdFromPath(path: string): string | null {
  const name = basename(path);
  const stem = name.slice(0, name.length - extname(name).length);
  if (stem === '') return null;
  if (stem.startsWith('x~')) {
    const hex = stem.slice(2);
    return /^([0-9a-f]{2})+$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : null;
  }
  return stem;
}

/** Wraps prose at spaces so that line ranges in hits stay meaningful, as in a hand-written file. */
export function wrap(text: string, width = 100): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out.join('\n');
}

/** Markdown with the title as heading (when there is one); code is written as it is. */
export function docFileText(doc: Doc, ext: string): string {
  if (ext !== 'md') return doc.text.endsWith('\n') ? doc.text : `${doc.text}\n`;
  const body = wrap(doc.text);
  return doc.title.trim() !== '' ? `# ${doc.title.trim()}\n\n${body}\n` : `${body}\n`;
}
