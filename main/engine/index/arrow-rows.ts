/** A row of a query's answer, by column name. */
export type Raw = Record<string, unknown>;

/** An Arrow table or record batch, as far as decoding needs it. */
export interface Columns {
  numRows: number;
  schema: { fields: { name: string }[] };
  getChild(name: string): { toArray(): ArrayLike<unknown> } | null;
}

/**
 * The rows of an Arrow answer, decoded a column at a time. `toArray()` on a table decodes through
 * a proxy per row and field (apache-arrow's visitor for every cell): about 5 ms of main-thread time
 * per search at 200 candidates, more than the MCP layer costs. The columns the index reads are Utf8,
 * Int32 and Float32/64 (index/schema.ts, `_score`, `_distance`): each decodes to the same JS value.
 */
export function decodeRows(batch: Columns): Raw[] {
  const columns = batch.schema.fields.map((f) => [f.name, batch.getChild(f.name)?.toArray() ?? []] as const);
  const out: Raw[] = new Array<Raw>(batch.numRows);
  for (let i = 0; i < batch.numRows; i++) {
    const r: Raw = {};
    for (const [name, values] of columns) r[name] = values[i];
    out[i] = r;
  }
  return out;
}
