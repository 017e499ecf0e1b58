/**
 * Compact text renderings of tool results for agents, made from the same bounded, escaped values
 * as `structuredContent` (model-results.ts), so both say the same things. Freshness comes first
 * (an agent must know whether the index may miss recent edits before trusting the hits); hits
 * are grouped by file with line ranges and numbered lines.
 */
import type { ErrorBody } from '../../common/errors.js';
import {
  CONTENT_NOTE,
  type ModelFolderFreshness,
  type ModelGrepResult,
  type ModelReadResult,
  type ModelSearchHit,
  type ModelSearchResult,
} from '../../common/results.js';

export { CONTENT_NOTE };

function freshnessLine(f: ModelFolderFreshness): string {
  const parts = [
    `${f.path}: ${f.state}`,
    `vectors ${Math.round(f.vector_coverage * 100)}%`,
    `updated ${f.updated_at ?? 'never'}`,
  ];
  if (f.pending_changes > 0) parts.push(`${f.pending_changes} changes pending`);
  return `- ${parts.join(', ')}`;
}

export function renderFreshness(folders: ModelFolderFreshness[]): string {
  if (folders.length === 0) return 'Freshness: no folders indexed.';
  const stale = folders.some((f) => f.state !== 'fresh' || f.pending_changes > 0);
  const head = stale ? 'Freshness (some folders are not fresh; recent edits may be missing):' : 'Freshness:';
  return [head, ...folders.map(freshnessLine)].join('\n');
}

function hitHeader(hit: ModelSearchHit): string {
  const where =
    hit.page !== undefined
      ? `page ${hit.page}, lines ${hit.start_line}-${hit.end_line}`
      : `lines ${hit.start_line}-${hit.end_line}`;
  const also = hit.other_ranges?.length
    ? `also lines ${hit.other_ranges.map((r) => `${r.page !== undefined ? `p${r.page}:` : ''}${r.start_line}-${r.end_line}`).join(', ')}`
    : '';
  const extra = [hit.symbol && `symbol ${hit.symbol}`, hit.heading && `§ ${hit.heading}`, also]
    .filter(Boolean)
    .join(', ');
  return `${where} (score ${hit.score.toFixed(3)}${extra ? `, ${extra}` : ''})`;
}

export function renderSearch(r: ModelSearchResult): string {
  const byFile = new Map<string, ModelSearchHit[]>();
  for (const hit of r.hits) byFile.set(hit.path, [...(byFile.get(hit.path) ?? []), hit]);
  const out = [
    renderFreshness(r.folders),
    `Mode ${r.mode}; ${r.hits.length} hits in ${byFile.size} files. ${r.note}`,
    ...(r.legs_abstained ?? []).map((a) => `The ${a.leg} leg abstained: ${a.reason}.`),
  ];
  if (r.hits.length === 0 && r.hits_omitted === 0) out.push('No hits.');
  for (const [path, hits] of byFile) {
    out.push(`\n## ${path}`);
    for (const hit of hits) out.push(`${hitHeader(hit)}\n${hit.snippet}`);
  }
  if (r.remedy) out.push(`… ${r.remedy}`);
  return out.join('\n');
}

export function renderRead(r: ModelReadResult): string {
  const where = r.page !== undefined ? `page ${r.page}, lines` : 'lines';
  const head = `${r.path} ${where} ${r.start_line}-${r.end_line} of ${r.total_lines}${r.truncated ? ' (truncated: ask for a later range)' : ''}. ${r.note}`;
  return `${head}\n${r.content}`;
}

export function renderGrep(r: ModelGrepResult): string {
  const head = `${r.matches.length} matches in ${r.files_searched} files searched${r.truncated ? ' (truncated: narrow the pattern or raise max_matches)' : ''}. ${r.note}`;
  const lines = [head, ...r.matches.map((m) => `${m.path}:${m.line}: ${m.text}`)];
  if (r.matches_omitted > 0)
    lines.push(
      `… ${r.matches_omitted} more matches left out to stay within max_chars: raise max_chars or narrow the pattern.`,
    );
  return lines.join('\n');
}

export function renderError(e: ErrorBody): string {
  return [`Error ${e.code}: ${e.message}`, e.remedy && `Remedy: ${e.remedy}`].filter(Boolean).join('\n');
}

/** Small structured results (status, jobs) read fine as indented JSON. */
export function renderJson(title: string, value: unknown, maxChars: number): string {
  const text = `${title}\n${JSON.stringify(value, null, 2)}`;
  return text.length > maxChars ? `${text.slice(0, maxChars - 20)}\n… (truncated)` : text;
}
