// Imported first by run.ts: LanceDB reads LANCEDB_LOG when its native module loads, which happens
// during the import graph, before any statement of run.ts runs.
process.env.LANCEDB_LOG ??= 'error';
