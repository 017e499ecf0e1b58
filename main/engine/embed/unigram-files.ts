/** The built-in model's tokenizer files read into the fast Unigram tokenizer (null for any other shape). */
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unigramTokenizer, type UnigramTokenizer } from './unigram-tokenizer.js';

const FILES = ['tokenizer.json', 'tokenizer_config.json'] as const;

/** A model folder whose files are missing or unreadable has no fast tokenizer: the caller falls back. */
export async function readUnigramTokenizer(dir: string): Promise<UnigramTokenizer | null> {
  try {
    const [tokenizer, config] = await Promise.all(
      FILES.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))),
    );
    return unigramTokenizer(tokenizer, config);
  } catch {
    return null;
  }
}

/** The same, synchronously (parse workers, at start). */
export function readUnigramTokenizerSync(dir: string): UnigramTokenizer | null {
  try {
    const [tokenizer, config] = FILES.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown);
    return unigramTokenizer(tokenizer, config);
  } catch {
    return null;
  }
}

/** What changes when tokenizer.json is replaced (its size and time), '' when it is not there. */
export function tokenizerVersion(dir: string): string {
  try {
    const st = statSync(join(dir, FILES[0]));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return '';
  }
}
