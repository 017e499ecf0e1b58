// Child of watch-health.test.ts, run as an unprivileged user: serves one folder with live updates
// and prints what status says of it, one JSON line per look, until stdin closes.
import { openEngine } from '../../main/engine/engine.js';

const engine = await openEngine({ home: process.argv[2], folderRetryMs: Number(process.argv[3]), serving: true });
await engine.startLiveUpdates();
let open = true;
process.stdin.on('end', () => (open = false));
process.stdin.resume();
while (open) {
  const [f] = await engine.folders();
  process.stdout.write(
    `${JSON.stringify({ state: f.state, reason: f.reason ?? null, watch_error: f.watch_error ?? null, jobs: engine.jobs().length })}\n`,
  );
  await new Promise((r) => setTimeout(r, 50));
}
await engine.close();
