/** LanceDB commits can race with background maintenance; a conflict is retried, anything else is not. */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 6): Promise<T> {
  let delay = 25;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const msg = (err as Error).message ?? '';
      if (i >= attempts || !/conflict|retryable|concurrent/i.test(msg)) throw err;
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
}
