/**
 * Changing the embedding model without ever configuring one that cannot load: the new model is
 * downloaded (with progress) and loaded beside the current one, a test text is embedded with it,
 * and only then is `embedding.model` written. Until then search keeps the current model; a failure
 * leaves the configuration as it was and says why.
 */
import type { ModelSwitchStatus } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { Embeddings } from '../ingest/embeddings.js';
import { humanLoadError } from '../embed/load-error.js';

export class ModelSwitch {
  private current: { status: ModelSwitchStatus; candidate: Embeddings | null } | null = null;

  constructor(
    private readonly make: (modelId: string) => Embeddings,
    /** Writes the setting (the engine then moves to the model, as on any settings change). */
    private readonly apply: (modelId: string) => void,
    private readonly dataDir: string,
  ) {}

  status(): ModelSwitchStatus | null {
    if (!this.current) return null;
    const { status, candidate } = this.current;
    const download = status.state === 'downloading' ? (candidate?.download ?? undefined) : undefined;
    return { ...status, ...(download ? { download } : {}) };
  }

  /** Starts the switch and answers at once; status() follows it. */
  start(modelId: string, configured: string): ModelSwitchStatus {
    if (this.current && (this.current.status.state === 'downloading' || this.current.status.state === 'verifying')) {
      throw new CairnError('conflict', `A switch to ${this.current.status.target} is still in progress.`, {
        remedy: 'Wait for it to finish, then try again.',
      });
    }
    if (modelId === configured)
      throw new CairnError('invalid_argument', `${modelId} is already the embedding model.`, {
        details: { key: 'model' },
      });
    let candidate: Embeddings;
    try {
      candidate = this.make(modelId);
    } catch (err) {
      // An id that does not resolve (not in the registry, not a hub id, not a folder) is refused here.
      throw humanLoadError(modelId, err, this.dataDir);
    }
    const status: ModelSwitchStatus = {
      target: modelId,
      from: configured,
      state: 'downloading',
      started_at: new Date().toISOString(),
    };
    this.current = { status, candidate };
    void this.run(candidate, status);
    return this.status() as ModelSwitchStatus;
  }

  private async run(candidate: Embeddings, status: ModelSwitchStatus): Promise<void> {
    try {
      const embedder = await candidate.get();
      status.state = 'verifying';
      const v = await embedder.embedQuery('Cairn checks that this model works.');
      if (v.length !== embedder.dimensions || v.some((x) => !Number.isFinite(x))) {
        throw new CairnError(
          'dependency_unavailable',
          `The embedding model ${status.target} loads but returns unusable vectors.`,
          { remedy: 'Choose another model.' },
        );
      }
      await candidate.close();
      this.apply(status.target);
      status.state = 'done';
    } catch (err) {
      const typed = humanLoadError(status.target, err, this.dataDir);
      status.state = 'failed';
      status.error = typed.message;
      if (typed.remedy) status.remedy = typed.remedy;
      await candidate.close().catch(() => undefined);
    } finally {
      status.finished_at = new Date().toISOString();
      if (this.current?.status === status) this.current.candidate = null;
    }
  }

  /** Ends a switch in progress (engine close): the configuration stays as it is. */
  async close(): Promise<void> {
    await this.current?.candidate?.close().catch(() => undefined);
  }
}
