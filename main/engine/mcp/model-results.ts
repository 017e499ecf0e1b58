/**
 * The engine's results cut down to what a model reads (common/results.ts): bounded by the call's
 * `max_chars` as serialised JSON, since that is what Claude Code and Codex hand their model, with
 * every name and content line escaped (common/escape.ts). The text block is rendered from these
 * same values (render.ts), so both say the same things.
 */
import {
  CONTENT_NOTE_FULL,
  type ModelFolderFreshness,
  type ModelGrepResult,
  type ModelReadResult,
  type ModelSearchHit,
  type ModelSearchResult,
} from '../../common/results.js';
import { escapeContent, escapeContentLine, escapeControls } from '../../common/escape.js';
import type { Freshness, GrepResult, ReadResult, SearchHit, SearchResponse } from '../../common/search.js';

/** The size a result takes in the client's hands: `{"result": …}` as JSON. */
export function jsonSize(result: unknown): number {
  return JSON.stringify({ result }).length;
}

export function omittedRemedy(n: number): string {
  return `${n} more hits left out to stay within max_chars: raise max_chars, lower top_k or narrow the query.`;
}

function folderFreshness(path: string, f: Freshness): ModelFolderFreshness {
  return {
    path: escapeControls(path),
    state: f.state,
    vector_coverage: Math.round(f.vector_coverage * 100) / 100,
    updated_at: f.updated_at,
    pending_changes: f.pending_changes,
  };
}

function modelHit(h: SearchHit): ModelSearchHit {
  const hit: ModelSearchHit = {
    path: escapeControls(h.path),
    start_line: h.start_line,
    end_line: h.end_line,
    score: Math.round(h.score * 1000) / 1000,
    snippet: escapeContent(h.snippet.trimEnd()),
  };
  if (h.page !== undefined) hit.page = h.page;
  if (h.symbol) hit.symbol = escapeControls(h.symbol);
  if (h.heading) hit.heading = escapeControls(h.heading);
  if (h.other_ranges?.length)
    hit.other_ranges = h.other_ranges.map((r) =>
      r.page !== undefined
        ? { start_line: r.start_line, end_line: r.end_line, page: r.page }
        : { start_line: r.start_line, end_line: r.end_line },
    );
  return hit;
}

/** Drops trailing lines of a snippet (then characters) until the hit's JSON fits `room`. */
function shrink(hit: ModelSearchHit, room: number): ModelSearchHit {
  const fits = (s: string) => JSON.stringify({ ...hit, snippet: s }).length <= room;
  const lines = hit.snippet.split('\n');
  const total = lines.length;
  while (lines.length > 1 && !fits(`${lines.join('\n')}\n…`)) lines.pop();
  let snippet = lines.length < total ? `${lines.join('\n')}\n…` : lines.join('\n');
  // Every pass is at least one character shorter, so this ends (at "…" when nothing fits).
  let keep = snippet.length;
  while (keep > 0 && !fits(snippet)) {
    keep = Math.min(keep - 1, Math.floor(keep * 0.8));
    snippet = `${snippet.slice(0, keep)}…`;
  }
  return { ...hit, snippet };
}

/**
 * The hits in rank order, as many as fit `maxChars`; the first is always there (its snippet cut
 * to fit), so a tiny budget still answers. Later hits are never skipped over to squeeze in a
 * smaller one: what is shown is a prefix of the ranking.
 */
export function modelSearchResult(res: SearchResponse, maxChars: number): ModelSearchResult {
  const out: ModelSearchResult = {
    note: CONTENT_NOTE_FULL,
    mode: res.mode,
    folders: Object.entries(res.folders).map(([p, f]) => folderFreshness(p, f)),
    hits: [],
    hits_omitted: 0,
  };
  if (res.legs_abstained?.length)
    out.legs_abstained = res.legs_abstained.map((a) => ({ leg: a.leg, reason: a.reason }));
  const hits = res.hits.map(modelHit);
  // Room for the count and remedy that appear once anything is left out.
  const reserve = JSON.stringify({ remedy: omittedRemedy(hits.length) }).length + String(hits.length).length;
  let size = jsonSize(out) + reserve;
  for (let i = 0; i < hits.length; i++) {
    const cost = JSON.stringify(hits[i]).length + (i > 0 ? 1 : 0);
    if (size + cost <= maxChars) {
      out.hits.push(hits[i]);
      size += cost;
      continue;
    }
    if (i === 0) {
      out.hits.push(shrink(hits[0], Math.max(0, maxChars - size)));
      continue;
    }
    out.hits_omitted = hits.length - i;
    out.remedy = omittedRemedy(out.hits_omitted);
    break;
  }
  return out;
}

/** The read lines, cut at a line end (and marked truncated) where the JSON would pass `maxChars`. */
export function modelReadResult(r: ReadResult, maxChars: number): ModelReadResult {
  const out: ModelReadResult = {
    note: CONTENT_NOTE_FULL,
    path: escapeControls(r.path),
    start_line: r.start_line,
    end_line: r.end_line,
    total_lines: r.total_lines,
    content: escapeContent(r.content.trimEnd()),
    truncated: r.truncated,
  };
  if (r.page !== undefined) out.page = r.page;
  if (jsonSize(out) <= maxChars) return out;
  const lines = out.content.split('\n');
  out.truncated = true;
  while (lines.length > 1 && jsonSize({ ...out, content: lines.join('\n') }) > maxChars) lines.pop();
  out.content = lines.join('\n');
  // The number of the last line kept (`12│ …`); unchanged when not even one line could go.
  const last = /^\s*(\d+)│/.exec(lines[lines.length - 1] ?? '');
  if (last) out.end_line = Math.max(out.start_line, Number(last[1]));
  return out;
}

/** Matches in walk order, as many as fit `maxChars`; the rest are counted, never silently cut. */
export function modelGrepResult(r: GrepResult, maxChars: number): ModelGrepResult {
  const out: ModelGrepResult = {
    note: CONTENT_NOTE_FULL,
    matches: [],
    files_searched: r.files_searched,
    truncated: r.truncated,
    matches_omitted: 0,
  };
  let size = jsonSize(out) + String(r.matches.length).length;
  for (let i = 0; i < r.matches.length; i++) {
    const m = {
      path: escapeControls(r.matches[i].path),
      line: r.matches[i].line,
      text: escapeContentLine(r.matches[i].text),
    };
    const cost = JSON.stringify(m).length + (i > 0 ? 1 : 0);
    if (size + cost > maxChars && i > 0) {
      out.matches_omitted = r.matches.length - i;
      break;
    }
    out.matches.push(m);
    size += cost;
  }
  return out;
}
