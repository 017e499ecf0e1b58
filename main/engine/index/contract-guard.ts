import type { IndexContract } from '../../common/status.js';
import type { CairnError } from '../errors.js';
import { checkContract, readContract, writeContract, type ContractCheck } from './contract.js';
import type { IndexStore } from './store.js';

export interface ContractDeps {
  store: IndexStore;
  indexDir: string;
  /** The contract the configuration asks for (model, dimensions, chunker, full-text settings). */
  wanted(): IndexContract;
  /** Every configured folder: the contract moves once each is rebuilt under the new one. */
  folders(): string[];
  /** The vectors table of the configured model, kept when the others are dropped. */
  keepVectors(): string | null;
}

/**
 * The index contract's lifecycle: what the index was built under, how that differs from what the
 * configuration asks for (a mismatch fails the affected search legs closed), and the move to the
 * new contract once every folder has been rebuilt under it.
 */
export class ContractGuard {
  check: ContractCheck = { sparse: null, embedding: null };
  stored: IndexContract | null = null;
  private rebuiltSinceMismatch = new Set<string>();

  constructor(private readonly deps: ContractDeps) {}

  get mismatch(): CairnError | null {
    return this.check.embedding ?? this.check.sparse;
  }

  /** Reads the stored contract and compares; an empty index simply takes the configured one. */
  async load(): Promise<void> {
    this.stored = await readContract(this.deps.indexDir);
    const wanted = this.deps.wanted();
    // An empty index takes whatever the configuration says: there is nothing to conflict with.
    if (!this.stored || (await this.deps.store.isEmpty())) {
      if (JSON.stringify(this.stored) !== JSON.stringify(wanted)) await writeContract(this.deps.indexDir, wanted);
      this.stored = wanted;
    }
    this.check = checkContract(this.stored, wanted);
  }

  /** The model setting changed: a query right after already sees any mismatch (load() follows). */
  modelChanged(): void {
    this.rebuiltSinceMismatch.clear();
    this.check = checkContract(this.stored, this.deps.wanted());
  }

  /** Once every folder is rebuilt under the new contract, the stored contract moves to it. */
  async rebuilt(folder: string): Promise<void> {
    this.rebuiltSinceMismatch.add(folder);
    if (!this.deps.folders().every((f) => this.rebuiltSinceMismatch.has(f))) return;
    const stored = await readContract(this.deps.indexDir);
    await writeContract(this.deps.indexDir, this.deps.wanted());
    if (stored && this.check.embedding) {
      const keep = this.deps.keepVectors();
      for (const t of await this.deps.store.vectorTableNames()) if (t !== keep) await this.deps.store.dropVectors(t);
    }
    this.rebuiltSinceMismatch.clear();
    await this.load();
  }
}
