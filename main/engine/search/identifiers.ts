/** `parseInvoiceTotals` → `parse Invoice Totals`; `crc32_checksum` → `crc32 checksum`. */
export function splitIdentifier(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.:]+/g, ' ');
}

/** Adds the words of camelCase identifiers to a query, so `parseInvoiceTotals` also finds "parse invoice totals". */
export function expandQuery(query: string): string {
  const extra = (query.match(/\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g) ?? []).map(splitIdentifier);
  return extra.length ? `${query} ${extra.join(' ')}` : query;
}
