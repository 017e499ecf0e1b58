/** The token window chunks must fit, measured with the embedding model's own counter. */
export interface TokenBudget {
  maxTokens: number;
  countTokens: (text: string) => number;
  /** `(start, end) => countTokens(text.slice(start, end))` at less than a count per call (embed/token-counter.ts). */
  countRanges?: (text: string) => (start: number, end: number) => number;
}

/** Counts of the ranges of `text`, from the budget's one pass where it has one. */
function rangeCounts(budget: TokenBudget, text: string): (start: number, end: number) => number {
  if (budget.countRanges) return budget.countRanges(text);
  return (start, end) => budget.countTokens(text.slice(start, end));
}

/** One source line (or a piece of one) with its 1-based line number. */
export interface Unit {
  line: number;
  text: string;
}

export interface Window {
  startLine: number;
  endLine: number;
  text: string;
}

/** Units of a text, one per line, numbered from `firstLine`. */
export function toUnits(text: string, firstLine = 1): Unit[] {
  return text.split(/\r\n|\r|\n/).map((t, i) => ({ line: firstLine + i, text: t }));
}

export function isBlank(u: Unit): boolean {
  return u.text.trim().length === 0;
}

/**
 * Cuts one over-long line into pieces that each fit, preferring a cut at whitespace; every piece
 * keeps the line's number (the only case where a chunk splits inside a line).
 */
export function splitLongUnit(unit: Unit, budget: TokenBudget): Unit[] {
  return countedPieces(unit, budget).map((p) => p.unit);
}

/** `splitLongUnit` with each piece's count, which the search for its end has already made. */
function countedPieces(
  unit: Unit,
  budget: TokenBudget,
  range = rangeCounts(budget, unit.text),
): { unit: Unit; tokens: number }[] {
  const pieces: { unit: Unit; tokens: number }[] = [];
  const text = unit.text;
  let at = 0;
  while (at < text.length) {
    const restLength = text.length - at;
    /** The count of the rest's first `end` characters. */
    const count = (end: number) => range(at, at + end);
    // Probe a prefix that grows geometrically instead of counting the whole rest each time: a
    // multi-megabyte line would otherwise cost quadratic time. Counts do not always grow with the
    // prefix (a cut word can cost more than it whole), so the probes are the ones the cut is defined by.
    let hi = Math.min(restLength, budget.maxTokens * 8);
    while (hi < restLength && count(hi) <= budget.maxTokens) hi = Math.min(restLength, hi * 2);
    if (hi === restLength && count(hi) <= budget.maxTokens) {
      pieces.push({ unit: { line: unit.line, text: text.slice(at) }, tokens: count(hi) });
      break;
    }
    let lo = 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (count(mid) <= budget.maxTokens) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const space = text.lastIndexOf(' ', at + cut) - at;
    if (space > cut * 0.7) cut = space + 1;
    pieces.push({ unit: { line: unit.line, text: text.slice(at, at + cut) }, tokens: count(cut) });
    at += cut;
  }
  return pieces;
}

function trimBlank(units: Unit[]): Unit[] {
  let a = 0;
  let b = units.length;
  while (a < b && isBlank(units[a])) a++;
  while (b > a && isBlank(units[b - 1])) b--;
  return units.slice(a, b);
}

function toWindow(units: Unit[]): Window | null {
  const kept = trimBlank(units);
  if (kept.length === 0) return null;
  return { startLine: kept[0].line, endLine: kept[kept.length - 1].line, text: kept.map((u) => u.text).join('\n') };
}

/**
 * Packs consecutive lines greedily into windows that fit the budget; `overlapTokens` of trailing
 * lines are repeated at the start of the next window so a match across a cut still lands whole.
 */
export function packUnits(
  input: readonly Unit[],
  budget: TokenBudget,
  overlapTokens = 0,
  /** The counts of the ranges of each unit of `input`, where the caller has counted a text holding them. */
  rangeOf?: (k: number) => (start: number, end: number) => number,
): Window[] {
  const units: Unit[] = [];
  const costs: number[] = [];
  input.forEach((u, k) => {
    const range = rangeOf?.(k);
    const c = range ? range(0, u.text.length) : budget.countTokens(u.text);
    if (c <= budget.maxTokens) {
      units.push(u);
      costs.push(c);
    } else {
      for (const p of countedPieces(u, budget, range)) {
        units.push(p.unit);
        costs.push(p.tokens);
      }
    }
  });
  const out: Window[] = [];
  let i = 0;
  while (i < units.length) {
    // Skip leading blank lines so windows start on content.
    while (i < units.length && isBlank(units[i])) i++;
    if (i >= units.length) break;
    let j = i;
    let sum = 0;
    while (j < units.length && sum + costs[j] <= budget.maxTokens) sum += costs[j++];
    // The joined text can count differently from the sum of its lines; shrink until it fits.
    while (
      j > i + 1 &&
      budget.countTokens(
        units
          .slice(i, j)
          .map((u) => u.text)
          .join('\n'),
      ) > budget.maxTokens
    )
      j--;
    const w = toWindow(units.slice(i, j));
    if (w) out.push(w);
    if (j >= units.length) break;
    let next = j;
    let back = 0;
    while (next - 1 > i && back + costs[next - 1] <= overlapTokens) back += costs[--next];
    // Lines longer than the overlap budget would get no overlap at all: repeat one if it is modest.
    if (overlapTokens > 0 && next === j && j - i >= 3 && costs[j - 1] <= budget.maxTokens / 4) next = j - 1;
    i = Math.max(next, i + 1);
  }
  return out;
}

/** Index ranges [start, end) of the paragraphs (runs of non-blank units). */
function paragraphRanges(units: readonly Unit[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let a = -1;
  units.forEach((u, i) => {
    if (isBlank(u)) {
      if (a >= 0) out.push([a, i]);
      a = -1;
    } else if (a < 0) a = i;
  });
  if (a >= 0) out.push([a, units.length]);
  return out;
}

/**
 * Packs whole paragraphs together while they fit; a paragraph bigger than the window is cut into
 * line windows. A window's text is the exact run of lines it spans (blank lines included), so line
 * numbers can be put back next to each line.
 */
export function packParagraphs(
  units: readonly Unit[],
  budget: TokenBudget,
  overlapTokens = 0,
  onePassChars = ONE_PASS_CHARS,
): Window[] {
  const out: Window[] = [];
  // Every join below, and every line a long paragraph is cut into, is a slice of the whole run of
  // lines, so one counting pass serves them all: counting each join and line anew read 15.8M
  // characters to chunk 8.2M of Markdown (2,000 files), this pass 8.1M. A pass holds a few
  // numbers per word of what it covers, so a section past onePassChars (a 20 MB note of one
  // heading) counts each join anew and each long line on its own, as before.
  const whole = units.map((u) => u.text).join('\n');
  const onePass = whole.length <= onePassChars;
  /** Where unit k starts in `whole`; a join of units a..b ends one before unit b's start. */
  const at: number[] = [];
  let offset = 0;
  for (const u of units) {
    at.push(offset);
    offset += u.text.length + 1;
  }
  at.push(offset);
  const range = onePass ? rangeCounts(budget, whole) : (s: number, e: number) => budget.countTokens(whole.slice(s, e));
  const join = (a: number, b: number) => whole.slice(at[a], at[b] - 1);
  const count = (a: number, b: number) => range(at[a], at[b] - 1);
  let start = -1;
  let end = -1;
  const flush = () => {
    if (start >= 0) out.push({ startLine: units[start].line, endLine: units[end - 1].line, text: join(start, end) });
    start = end = -1;
  };
  for (const [a, b] of paragraphRanges(units)) {
    // A long paragraph is counted first: one over the window by more than a token cannot fit after
    // what precedes it either (joined, it keeps every token but a leading space's), so the longer
    // join is not counted. Only a skipped join follows from it, so no window can grow past the
    // budget, whatever the counter.
    const long = at[b] - 1 - at[a] > budget.maxTokens;
    let own = long ? count(a, b) : -1;
    if (start >= 0 && own - 1 <= budget.maxTokens && count(start, b) <= budget.maxTokens) {
      end = b;
      continue;
    }
    flush();
    if (own < 0) own = count(a, b);
    if (own <= budget.maxTokens) [start, end] = [a, b];
    // Its lines are counted, and long ones cut, from the one pass too.
    else
      out.push(
        ...packUnits(
          units.slice(a, b),
          budget,
          overlapTokens,
          onePass ? (k) => (s, e) => range(at[a + k] + s, at[a + k] + e) : undefined,
        ),
      );
  }
  flush();
  return out;
}

/** Sections up to this many characters are counted in one pass (see packParagraphs). */
const ONE_PASS_CHARS = 1_000_000;

/** Default overlap between consecutive line windows: about a tenth of the window. */
export function defaultOverlap(budget: TokenBudget): number {
  return Math.floor(budget.maxTokens / 10);
}
