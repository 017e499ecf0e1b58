/** Real `cairn` processes for tests: spawn, wait for a printed line, stop, always clean up. */
import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';

export interface Proc {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves with the first match of `re` in stdout, or rejects when the process exits first. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  opts: { stdin?: 'pipe' | 'ignore' } = {},
): Proc {
  const child = spawn(command, args, {
    env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error', ...env },
    stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, sig) => resolve(code ?? (sig ? -1 : null))),
  );
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    waitFor(re, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = re.exec(out);
          if (m) {
            done();
            resolve(m);
          }
        };
        const onExit = () => {
          done();
          reject(new Error(`process exited before printing ${re}:\nstdout: ${out}\nstderr: ${err}`));
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${re}:\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.off('exit', onExit);
        };
        child.stdout!.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        const code = await exited;
        clearTimeout(t);
        return code;
      }
      return exited;
    },
  };
}

/**
 * The workbench line `cairn serve` prints: origin and admin token. Piped (as here) the line names
 * the 0600 file that holds the token instead of printing it; the token is read from there.
 */
export async function servedAt(p: Proc): Promise<{ origin: string; token: string }> {
  const m = await p.waitFor(
    /Workbench: (http:\/\/[^/\s]+)\/(?:#token=(\S+)| \(open it with #token=<the admin token in (.+?)>\))/,
  );
  return { origin: m[1], token: m[2] ? decodeURIComponent(m[2]) : readFileSync(m[3], 'utf8').trim() };
}
