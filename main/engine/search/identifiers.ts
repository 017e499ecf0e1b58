/** `parseInvoiceTotals` → `parse Invoice Totals`; `crc32_checksum` → `crc32 checksum`. */
export function splitIdentifier(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.:]+/g, ' ');
}
