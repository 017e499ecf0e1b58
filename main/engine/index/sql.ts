/** SQL literal quoting for LanceDB filters: every value that reaches a `where` goes through here. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function sqlIn(column: string, values: readonly string[]): string {
  if (values.length === 0) return 'false';
  return `${column} IN (${values.map(sqlString).join(', ')})`;
}

export function and(...parts: (string | undefined | false)[]): string | undefined {
  const kept = parts.filter((p): p is string => Boolean(p));
  if (kept.length === 0) return undefined;
  return kept.map((p) => `(${p})`).join(' AND ');
}
