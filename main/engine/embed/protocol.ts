/** Messages between the embedder (main thread) and its worker threads. */
import type { ModelDtype, Pooling } from './registry.js';

export interface WorkerConfig {
  /** An absolute model folder, or a hub id when the files must still be downloaded. */
  modelRef: string;
  /** Hub cache and local model root: `<dataDir>/models`. */
  modelsDir: string;
  allowRemote: boolean;
  dtype: ModelDtype;
  /** The weights inside the model folder for that dtype (registry.ts' onnxFileFor). */
  onnxFile: string;
  pooling: Pooling;
  hubTimeoutMs: number;
  /** Override of the hub's address (a test double of the hub). */
  remoteHost?: string;
}

/** `close` asks the worker to finish its batch, release the ONNX session and exit on its own. */
export type ToWorker = { type: 'embed'; id: number; texts: string[] } | { type: 'close' };

export type FromWorker =
  | { type: 'ready'; dimensions: number }
  | { type: 'progress'; file: string; loaded: number; total: number }
  | { type: 'result'; id: number; dimensions: number; data: Float32Array }
  | { type: 'failed'; id: number; message: string }
  | { type: 'fatal'; message: string };
