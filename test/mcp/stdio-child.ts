/** Child process of stdio.test.ts: the real engine served over stdio, as `cairn mcp --stdio` does. */
import { openEngine } from '../../main/engine/engine.js';
import { serveStdio } from '../../main/engine/mcp/stdio.js';

async function main(): Promise<void> {
  const engine = await openEngine({ home: process.argv[2] });
  await serveStdio(engine);
  process.stdin.once('end', () => {
    void engine.close().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`stdio child failed: ${String(err)}\n`);
  process.exit(1);
});
