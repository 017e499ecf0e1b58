/**
 * A document extraction worker for `read`: PDF pages or DOCX text, off the main thread and under
 * the memory limit its pool starts it with, so one hostile document costs one worker, never the
 * engine. Each message carries the bytes it needs.
 */
import { parentPort } from 'node:worker_threads';
import type { ErrorCode } from '../../common/errors.js';
import { CairnError } from '../errors.js';
import { docxText, pdfPages } from './documents.js';

export interface ToExtractWorker {
  id: number;
  kind: 'pdf' | 'docx';
  bytes: Uint8Array;
  rel: string;
}

export type FromExtractWorker =
  { id: number; pages: string[] } | { id: number; error: string; code: ErrorCode; details?: Record<string, unknown> };

const port = parentPort as NonNullable<typeof parentPort>;

port.on('message', (m: ToExtractWorker) => {
  void (async () => {
    try {
      const pages = m.kind === 'pdf' ? await pdfPages(m.bytes, m.rel) : [await docxText(m.bytes, m.rel)];
      port.postMessage({ id: m.id, pages } satisfies FromExtractWorker);
    } catch (err) {
      const e = err instanceof CairnError ? err : new CairnError('internal', (err as Error).message);
      port.postMessage({ id: m.id, error: e.message, code: e.code, details: e.details } satisfies FromExtractWorker);
    }
  })();
});
