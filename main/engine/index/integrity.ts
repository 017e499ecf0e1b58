import { MatchQuery, type Table } from '@lancedb/lancedb';
import { CairnError } from '../errors.js';

export interface CheckedTable {
  name: string;
  table: Table;
  /** A narrow column read through in full: every data file is opened and its footer checked. */
  column: string;
  /** The column of its full-text index, when it has one. */
  fts?: string;
}

export const REBUILD_REMEDY =
  'Rebuild the index (cairn index --rebuild, or Rebuild in the workbench): the damaged index is moved aside and a new one built. Your settings are kept.';

/**
 * Damage found when an engine is asked to rebuild the index it has open. Merging into damage is
 * what a rebuild must never do. A serving engine repairs in place (folders/repair.ts), and the
 * rebuild is that repair; any other refuses, writes nothing and says the one step that works.
 */
export function rebuildRefused(damage: CairnError, repairing = false): CairnError {
  if (repairing)
    return new CairnError(
      'index_corrupt',
      `${damage.message} The running engine is repairing it: the damaged index is moved aside and a new one built in the background (status: index_repair).`,
      {
        remedy:
          'Wait for the repair to finish (cairn status shows it); searches answer from the new index as folders are indexed again.',
        details: damage.details,
        cause: damage,
      },
    );
  return new CairnError(
    'index_corrupt',
    `${damage.message} A running engine cannot rebuild the index it has open; nothing was written.`,
    {
      remedy:
        'Stop the running engine (quit Cairn, or stop `cairn serve` with Ctrl-C), then run `cairn index --rebuild`: it moves the damaged index aside and builds a new one. Your settings are kept.',
      details: damage.details,
      cause: damage,
    },
  );
}

export function corrupt(dir: string, table: string, why: string, cause?: unknown): CairnError {
  return new CairnError('index_corrupt', `The index in ${dir} is damaged: ${why} (table ${table}).`, {
    remedy: REBUILD_REMEDY,
    details: { table },
    cause,
  });
}

/**
 * Reads each table enough to prove it readable: fragment metadata (row count), one column in full
 * and a sample row of every column, and a query through its full-text index. Throws a typed
 * `index_corrupt` naming the first table that fails.
 */
export async function verifyTables(dir: string, tables: CheckedTable[]): Promise<void> {
  for (const t of tables) {
    try {
      const rows = await t.table.countRows();
      let seen = 0;
      for await (const batch of t.table.query().select([t.column])) seen += batch.numRows;
      if (seen !== rows) throw new Error(`${rows} rows listed, ${seen} readable`);
      if (rows > 0) await t.table.query().limit(1).toArray();
      if (t.fts && rows > 0)
        await t.table
          .query()
          .fullTextSearch(new MatchQuery('cairn integrity probe', t.fts))
          // With _score named, LanceDB prints no deprecation warning to the terminal of every open.
          .select([t.column, '_score'])
          .limit(1)
          .toArray();
    } catch (err) {
      throw unreadable(dir, t.name, err);
    }
  }
}

/** A table that failed a read: `index_corrupt` naming it, with the first line of LanceDB's error. */
export function unreadable(dir: string, table: string, err: unknown): CairnError {
  return corrupt(dir, table, `it cannot be read: ${(err as Error).message.split('\n')[0].slice(0, 300)}`, err);
}
