/**
 * Seeded pseudo-random numbers for randomized tests, so a failure reproduces. An LCG in 32-bit
 * integer arithmetic, answered from its high bits: the float form (`(s * 1103515245 + 12345) % 2 ** 31`)
 * loses its low bits past 2^53, and `% n` of it then picks from a few values (2000 draws gave 15 odd).
 */
export function seeded(seed: number): { int(n: number): number; float(): number } {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
  return {
    /** An integer in [0, n). */
    int: (n) => Math.floor((next() / 2 ** 32) * n),
    /** A number in [0, 1). */
    float: () => next() / 2 ** 32,
  };
}
