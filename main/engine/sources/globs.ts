import picomatch from 'picomatch';

/**
 * A list of globs relative to the folder. Dotfiles match (people write `*.env` meaning `.env` too),
 * and a glob without a slash matches the name anywhere, the way `.gitignore` does.
 */
export class GlobList {
  private readonly full: picomatch.Matcher | null;
  private readonly base: picomatch.Matcher | null;
  readonly size: number;

  constructor(globs: readonly string[]) {
    const clean = globs.map((g) => g.trim().replace(/^\.\//, '')).filter((g) => g.length > 0);
    const withSlash = clean.filter((g) => g.replace(/\/+$/, '').includes('/'));
    const noSlash = clean.filter((g) => !g.replace(/\/+$/, '').includes('/')).map((g) => g.replace(/\/+$/, ''));
    this.full = withSlash.length ? picomatch(withSlash, { dot: true }) : null;
    this.base = noSlash.length ? picomatch(noSlash, { dot: true }) : null;
    this.size = clean.length;
  }

  /** Whether the path itself matches. */
  matches(rel: string): boolean {
    if (this.full?.(rel)) return true;
    if (this.base) {
      const name = rel.slice(rel.lastIndexOf('/') + 1);
      if (this.base(name)) return true;
    }
    return false;
  }

  /**
   * Whether a directory is covered entirely (e.g. `docs/**` or `docs`), so the walk can prune it.
   * Probed with a child name no real glob would single out.
   */
  coversDir(rel: string): boolean {
    return this.matches(rel) || (this.full?.(`${rel}/\u0001probe`) ?? false);
  }
}
