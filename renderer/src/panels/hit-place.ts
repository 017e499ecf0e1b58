/**
 * Where a hit is, in one form for the probe and the playground. A PDF's lines restart on every
 * page, so without its page two hits of one PDF read alike ("report.pdf:1-3" on each page).
 */
export interface HitPlace {
  start_line: number;
  end_line: number;
  page?: number;
}

/** ":12-30", or " page 2, lines 1-3" for a paginated document (PDF). */
export function hitPlace(h: HitPlace): string {
  const lines = h.start_line === h.end_line ? `${h.start_line}` : `${h.start_line}-${h.end_line}`;
  return h.page ? ` page ${h.page}, line${h.start_line === h.end_line ? '' : 's'} ${lines}` : `:${lines}`;
}
