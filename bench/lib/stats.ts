/**
 * Spread of repeated measurements. The machines are shared and noisy, so every absolute time is
 * reported as median, p95 and min-max rather than as one number.
 */
export interface Spread {
  n: number;
  median: number;
  p95: number;
  p50: number;
  min: number;
  max: number;
  mean: number;
}

/** Linear-interpolated percentile (the "type 7" rule of R and NumPy) of unsorted values; p in 0..100. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  const pos = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function spread(values: readonly number[]): Spread {
  const n = values.length;
  if (n === 0)
    return {
      n: 0,
      median: Number.NaN,
      p50: Number.NaN,
      p95: Number.NaN,
      min: Number.NaN,
      max: Number.NaN,
      mean: Number.NaN,
    };
  const median = percentile(values, 50);
  return {
    n,
    median,
    p50: median,
    p95: percentile(values, 95),
    min: Math.min(...values),
    max: Math.max(...values),
    mean: values.reduce((s, v) => s + v, 0) / n,
  };
}

/** Rounds every number in a spread, to keep results files small and readable. */
export function roundSpread(s: Spread, digits = 3): Spread {
  const r = (v: number): number => round(v, digits);
  return { n: s.n, median: r(s.median), p50: r(s.p50), p95: r(s.p95), min: r(s.min), max: r(s.max), mean: r(s.mean) };
}

export function round(v: number, digits = 3): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** "12.3 ms (p95 15.1, 11.0–19.2)": the one way absolute times are printed. */
export function formatSpread(s: Spread, unit = 'ms', digits = 1): string {
  const f = (v: number): string => v.toFixed(digits);
  return `${f(s.median)} ${unit} (p95 ${f(s.p95)}, ${f(s.min)}–${f(s.max)})`;
}

/** n items spread evenly over the list (all of it when it is shorter), in its order. */
export function evenly<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}
