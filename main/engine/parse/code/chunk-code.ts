import type { ChunkDraft } from '../../types.js';
import { defaultOverlap, packUnits, type TokenBudget, type Unit } from '../budget.js';
import type { Def } from './extract.js';

interface Ctx {
  units: Unit[];
  budget: TokenBudget;
  language: string;
  out: ChunkDraft[];
  /** Chunks that hold one whole definition: never merged with a neighbour. */
  whole: Set<ChunkDraft>;
  isDef: (c: ChunkDraft) => boolean;
}

function slice(ctx: Ctx, from: number, to: number): Unit[] {
  return ctx.units.slice(from - 1, to);
}

function windows(ctx: Ctx, from: number, to: number, symbol?: { name: string; kind: string }) {
  if (to < from) return;
  for (const w of packUnits(slice(ctx, from, to), ctx.budget, defaultOverlap(ctx.budget))) {
    ctx.out.push({
      kind: 'code',
      language: ctx.language,
      startLine: w.startLine,
      endLine: w.endLine,
      text: w.text,
      ...(symbol ? { symbol: symbol.name, symbolKind: symbol.kind } : {}),
    });
  }
}

/** Lines [from, to] with the definitions inside them; code between definitions goes to line windows. */
function chunkRange(ctx: Ctx, from: number, to: number, defs: Def[], container?: Def) {
  let cursor = from;
  for (const def of [...defs].sort((a, b) => a.startLine - b.startLine)) {
    const start = Math.max(def.chunkStart, cursor);
    const end = Math.min(def.endLine, to);
    if (end < start) continue;
    windows(ctx, cursor, start - 1, container);
    chunkDef(ctx, def, start, end);
    cursor = end + 1;
  }
  windows(ctx, cursor, to, container);
}

/**
 * A definition that fits is one chunk; a bigger one is split at its members (methods of a class)
 * or, failing that, into line windows that all keep the symbol.
 */
function chunkDef(ctx: Ctx, def: Def, from: number, to: number) {
  const text = slice(ctx, from, to)
    .map((u) => u.text)
    .join('\n');
  if (ctx.budget.countTokens(text) <= ctx.budget.maxTokens) {
    if (!text.trim()) return;
    const chunk: ChunkDraft = {
      kind: 'code',
      language: ctx.language,
      startLine: from,
      endLine: to,
      text,
      symbol: def.name,
      symbolKind: def.kind,
    };
    ctx.whole.add(chunk);
    ctx.out.push(chunk);
    return;
  }
  if (def.children.length) chunkRange(ctx, from, to, def.children, def);
  else windows(ctx, from, to, def);
}

/**
 * Neighbouring pieces of the same scope (top-level statements, a class's fields) are joined while
 * they fit, so the window is used well; chunks of different symbols stay apart.
 */
function mergeSmall(ctx: Ctx, chunks: ChunkDraft[]): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  for (const c of chunks) {
    const prev = out[out.length - 1];
    const mergeable =
      prev &&
      prev.symbol === c.symbol &&
      prev.symbolKind === c.symbolKind &&
      c.startLine > prev.endLine &&
      !ctx.isDef(prev) &&
      !ctx.isDef(c);
    if (mergeable) {
      const text = slice(ctx, prev.startLine, c.endLine)
        .map((u) => u.text)
        .join('\n');
      if (ctx.budget.countTokens(text) <= ctx.budget.maxTokens) {
        out[out.length - 1] = { ...prev, endLine: c.endLine, text };
        continue;
      }
    }
    out.push(c);
  }
  return out;
}

export function chunkCode(units: Unit[], defs: Def[], budget: TokenBudget, language: string): ChunkDraft[] {
  const whole = new Set<ChunkDraft>();
  const ctx: Ctx = { units, budget, language, out: [], whole, isDef: (c) => whole.has(c) };
  chunkRange(ctx, 1, units.length, defs);
  return mergeSmall(ctx, ctx.out);
}
