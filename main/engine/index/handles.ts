import * as lancedb from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { join } from 'node:path';
import { corrupt } from './integrity.js';
import { chunkSchema, docSchema, edgeSchema, fileSchema, nodeSchema } from './schema.js';
import { neverCommitted, openOrCreate } from './tables.js';

/** The five tables every index has (vectors tables come and go with the model). */
export interface CoreTables {
  chunks: lancedb.Table;
  docs: lancedb.Table;
  files: lancedb.Table;
  nodes: lancedb.Table;
  edges: lancedb.Table;
}

const CORE = ['chunks', 'docs', 'files', 'graph_nodes', 'graph_edges'];

/**
 * One connection to an index folder and the tables opened through it, in one LanceDB session.
 * The session caches every index it has opened, by the index's id, with its files held open: a
 * full-text index that an optimize replaced and whose files the cleanup deleted stays cached, its
 * descriptors and disk space held until the process exits (about six per maintenance pass under
 * edits). So the tables are reopened in a new session after each pass, and the old session is
 * closed once the searches that may still hold its tables have had time to finish (its cached
 * indexes are freed when the last object of the session is collected).
 */
export class TableHandles {
  private retired: { db: lancedb.Connection; tables: lancedb.Table[]; timer: NodeJS.Timeout }[] = [];

  private constructor(
    private readonly dir: string,
    private db: lancedb.Connection,
    public core: CoreTables,
  ) {}

  static async open(dir: string): Promise<TableHandles> {
    const db = await connect(dir);
    try {
      const names = new Set(await db.tableNames());
      // A table deleted from an index that has others with rows is damage: created empty over, it
      // would make a rebuild duplicate every row the others still hold.
      const lost = CORE.filter((n) => !names.has(n));
      if (
        lost.length > 0 &&
        lost.length < CORE.length &&
        names.has('chunks') &&
        !(await neverCommitted(join(dir, 'chunks.lance')))
      ) {
        const chunks = await db.openTable('chunks');
        if ((await chunks.countRows()) > 0) throw corrupt(dir, lost[0], `the ${lost[0]} table is missing`);
      }
      return new TableHandles(dir, db, await openCore(db, dir, names, true));
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get connection(): lancedb.Connection {
    return this.db;
  }

  /**
   * Opens every table again in a new session and makes those the current handles; the old ones
   * are closed after `graceMs` (or at close), so that a search that took a table before the swap
   * finishes on it. `others` gives, at the moment of the swap, the further tables of the old
   * connection (vectors) to retire with it: one opened while the new connection was being made is
   * among them. A failure keeps the current handles.
   */
  async reopen(others: () => lancedb.Table[], graceMs: number): Promise<void> {
    const db = await connect(this.dir);
    let core: CoreTables;
    try {
      core = await openCore(db, this.dir, new Set(await db.tableNames()), false);
    } catch (err) {
      db.close();
      throw err;
    }
    const old = { db: this.db, tables: [...Object.values(this.core), ...others()] };
    this.db = db;
    this.core = core;
    const timer = setTimeout(() => this.closeRetired(entry), graceMs);
    timer.unref();
    const entry = { ...old, timer };
    this.retired.push(entry);
  }

  private closeRetired(entry: (typeof this.retired)[number]): void {
    clearTimeout(entry.timer);
    this.retired = this.retired.filter((r) => r !== entry);
    for (const t of entry.tables) t.close();
    entry.db.close();
  }

  close(others: lancedb.Table[]): void {
    for (const r of [...this.retired]) this.closeRetired(r);
    for (const t of [...Object.values(this.core), ...others]) t.close();
    this.db.close();
  }
}

/**
 * A fresh session per connection: sessions shared across connections would keep the replaced
 * indexes cached, which is what reopening is for.
 */
function connect(dir: string): Promise<lancedb.Connection> {
  return lancedb.connect(dir, { readConsistencyInterval: 0 }, new lancedb.Session());
}

async function openCore(db: lancedb.Connection, dir: string, names: Set<string>, create: boolean): Promise<CoreTables> {
  const table = async (name: string, schema: () => Schema) =>
    (await openOrCreate(db, dir, names, name, create ? schema : null))!;
  const t: CoreTables = {
    chunks: await table('chunks', chunkSchema),
    docs: await table('docs', docSchema),
    files: await table('files', fileSchema),
    nodes: await table('graph_nodes', nodeSchema),
    edges: await table('graph_edges', edgeSchema),
  };
  if (Object.values(t).some((x) => !x)) throw corrupt(dir, 'chunks', 'a table vanished while the index was open');
  return t;
}
