/**
 * The script of a worker thread that lives next to `callerUrl`. Compiled (dist/), a plain .js file.
 * From TypeScript sources (tests and the CLI run through `node --import tsx`), a .ts worker: Node 20
 * does not apply the parent's tsx hooks to a worker's entry module even with the inherited execArgv
 * ("Unknown file extension .ts"), so a small bootstrap registers tsx in the worker first.
 */
export function workerScript(callerUrl: string, name: string): { script: string | URL; eval: boolean } {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const url = new URL(`./${name}${ext}`, callerUrl);
  if (ext === '.js') return { script: url, eval: false };
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return { script: code, eval: true };
}
