import { lowerPriorityPreamble } from './thread-priority.js';

export interface WorkerScriptOptions {
  /** Run the worker at this niceness (0..19) from its first statement; the default keeps the caller's. */
  nice?: number;
}

/**
 * The script of a worker thread that lives next to `callerUrl`: a small CommonJS bootstrap (run as
 * `eval`) that sets what must hold before anything loads (the thread's priority), then imports the
 * module. From TypeScript sources (tests and the CLI run through `node --import tsx`) the module is
 * a .ts file, and Node 20 does not apply the parent's tsx hooks to a worker's entry module even with
 * the inherited execArgv ("Unknown file extension .ts"), so the bootstrap registers tsx first.
 */
export function workerScript(
  callerUrl: string,
  name: string,
  opts: WorkerScriptOptions = {},
): { script: string; eval: true } {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const url = new URL(`./${name}${ext}`, callerUrl);
  const first = opts.nice === undefined ? '' : lowerPriorityPreamble(opts.nice) + '\n';
  if (ext === '.js') return { script: `${first}import(${JSON.stringify(url.href)});`, eval: true };
  const api = import.meta.resolve('tsx/esm/api');
  return {
    script: `${first}import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`,
    eval: true,
  };
}
