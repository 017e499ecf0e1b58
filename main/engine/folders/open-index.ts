import { rename } from 'node:fs/promises';
import { readContract } from '../index/contract.js';
import { IndexStore, type StoreOptions } from '../index/store.js';
import { CairnError } from '../errors.js';

/**
 * Opens the index and what is built on it (`build`: the engine, which then loads the graph and
 * the folder counts). Every table is read-checked and the contract parsed before anything is
 * served or written. With `rebuild` (the rebuild action of `index_corrupt`) an unreadable index is
 * moved aside whole, kept for a post mortem, and a new one is built: a rebuild never merges into
 * damage, whatever was broken (a table, the contract file). Without it the damage is thrown.
 */
export async function openIndex<T>(
  indexDir: string,
  rebuild: boolean,
  build: (store: IndexStore) => Promise<T>,
  storeOptions: StoreOptions = {},
): Promise<{ opened: T; repairedFrom: CairnError | null }> {
  let store: IndexStore | null = null;
  try {
    store = await IndexStore.open(indexDir, storeOptions);
    await store.verify();
    await readContract(indexDir);
    return { opened: await build(store), repairedFrom: null };
  } catch (err) {
    await store?.close();
    if (!(err instanceof CairnError && err.code === 'index_corrupt' && rebuild)) throw err;
    await rename(indexDir, `${indexDir}.corrupt-${Date.now()}`);
    return { opened: await build(await IndexStore.open(indexDir, storeOptions)), repairedFrom: err };
  }
}
