#!/usr/bin/env node
// The `cairn` command: runs the compiled CLI when built (npm run build), else the TypeScript
// sources through tsx, so a fresh checkout works without a build step.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/main/engine/cli/main.js', import.meta.url));
const source = fileURLToPath(new URL('../main/engine/cli/main.ts', import.meta.url));
let entry = compiled;
if (!existsSync(compiled)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
