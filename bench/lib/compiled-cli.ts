/**
 * The CLI compiled as the packaged app ships it (tsc, no on-the-fly TypeScript), built into
 * bench/.cache so it never shadows the sources the way `dist/` would for bin/cairn.mjs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CompiledCli {
  /** Arguments after `node` that run `cairn <args…>` from the compiled output. */
  argv(args: string[]): string[];
  /** The compiled composition root (main/engine/engine.js), for a benchmark's own child process. */
  engineModule: string;
}

/** Compiled once per run: the sources do not change while the benchmarks run. */
const compiled = new Map<string, CompiledCli>();

export function buildCompiledCli(root: string, log: (line: string) => void): CompiledCli {
  const done = compiled.get(root);
  if (done) return done;
  const out = join(root, 'bench/.cache/build');
  log('   compiling the CLI (tsc -p tsconfig.build.json) into bench/.cache/build');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out],
    { cwd: root, stdio: 'inherit' },
  );
  mkdirSync(out, { recursive: true });
  // bin/cairn.mjs does the same with dist/: import the compiled CLI and run main().
  const runner = join(out, 'run-cli.mjs');
  writeFileSync(
    runner,
    "const { main } = await import('./main/engine/cli/main.js');\nprocess.exitCode = await main(process.argv.slice(2));\n",
  );
  const cli: CompiledCli = { argv: (args) => [runner, ...args], engineModule: join(out, 'main/engine/engine.js') };
  compiled.set(root, cli);
  return cli;
}
