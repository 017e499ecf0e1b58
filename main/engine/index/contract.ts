import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexContract } from '../../common/status.js';
import { CairnError } from '../errors.js';
import { ANALYZER_VERSION } from './analyzer.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

/**
 * Full-text settings are part of the contract: changing them changes what BM25 scores mean. The
 * analysis is Cairn's own (index/analyzer.ts); LanceDB only splits its output on whitespace.
 */
export const FTS_SETTINGS = {
  analyzer: `cairn-${ANALYZER_VERSION}`,
  tokenizer: 'whitespace',
  stem: false,
  stop_words: false,
  language: 'English',
} as const;

const FILE = 'contract.json';

export async function readContract(indexDir: string): Promise<IndexContract | null> {
  let text: string;
  try {
    text = await readFile(join(indexDir, FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CairnError('index_corrupt', `Cannot read the index contract: ${(err as Error).message}`, {
      remedy: 'Rebuild the index.',
    });
  }
  try {
    const c = JSON.parse(text) as IndexContract;
    if (typeof c.embedding_model !== 'string' || typeof c.chunker_version !== 'number')
      throw new Error('missing fields');
    return c;
  } catch (err) {
    throw new CairnError('index_corrupt', `The index contract is unreadable: ${(err as Error).message}`, {
      remedy: 'Rebuild the index.',
    });
  }
}

export async function writeContract(indexDir: string, contract: IndexContract): Promise<void> {
  await writeFileAtomic(join(indexDir, FILE), JSON.stringify(contract, null, 2));
}

export interface ContractCheck {
  sparse: CairnError | null;
  embedding: CairnError | null;
}

/** Compares the stored contract with what the configuration asks for, before any query runs. */
export function checkContract(stored: IndexContract | null, wanted: IndexContract): ContractCheck {
  if (!stored) return { sparse: null, embedding: null };
  let sparse: CairnError | null = null;
  let embedding: CairnError | null = null;
  if (stored.chunker_version !== wanted.chunker_version || JSON.stringify(stored.fts) !== JSON.stringify(wanted.fts)) {
    sparse = new CairnError(
      'sparse_contract_mismatch',
      `The index was built with chunker v${stored.chunker_version} and full-text settings ${JSON.stringify(stored.fts)}; this Cairn uses chunker v${wanted.chunker_version} and ${JSON.stringify(wanted.fts)}.`,
      {
        remedy: 'Re-index every folder (cairn index --rebuild, or Re-index in the workbench).',
        details: { stored, wanted },
      },
    );
  }
  if (
    stored.embedding_model !== wanted.embedding_model ||
    stored.embedding_dimensions !== wanted.embedding_dimensions
  ) {
    embedding = new CairnError(
      'embedding_contract_mismatch',
      `The index holds vectors of ${stored.embedding_model} (${stored.embedding_dimensions} d) but the configured model is ${wanted.embedding_model} (${wanted.embedding_dimensions} d).`,
      {
        remedy:
          'Re-index to compute vectors with the configured model (cairn index --rebuild), or set embedding.model back. Sparse search keeps working meanwhile.',
        details: { stored, wanted },
      },
    );
  }
  return { sparse, embedding };
}
