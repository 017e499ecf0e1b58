import type { SearchMode } from '../../../main/common/search';

/** The search modes with what each means to a person choosing one. */
export const MODES: { id: SearchMode; label: string }[] = [
  { id: 'tribrid', label: 'tribrid: words + meaning + links' },
  { id: 'hybrid', label: 'hybrid: words + meaning' },
  { id: 'vector', label: 'vector: meaning only' },
  { id: 'sparse', label: 'sparse: words only (BM25)' },
];
