import { mkdtemp, mkdir, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { openEngine } = await import('../../main/engine/engine.js');
const root = await mkdtemp(join(tmpdir(), 'prof-'));
const data = join(root, 'data');
await mkdir(data);
const FILES: Record<string, string> = {
  'notes/retry.md':
    '# Retries\n\nThe upload client retries failed requests with exponential backoff.\nAfter five attempts it gives up and reports the error.\n',
  'notes/budget.md': '# Budget\n\nThe Q3 budget for the lighthouse project is 40k euros.\nTravel is not included.\n',
  'src/queue.ts':
    'export class UploadQueue {\n  // drains pending uploads one at a time\n  drain(): number {\n    return 0;\n  }\n}\n',
};
for (const [r, t] of Object.entries(FILES)) {
  await mkdir(join(data, r, '..'), { recursive: true });
  await writeFile(join(data, r), t);
}
let t = performance.now();
const lap = (k: string) => {
  const n = performance.now();
  console.log(k, Math.round(n - t));
  t = n;
};
const engine = await openEngine({ home: join(root, 'home') });
lap('open');
await engine.addFolder({ path: data });
lap('add');
await engine.indexFolder(data, 'create');
await engine.idle();
lap('index');
await engine.close();
lap('close');
await cp(join(root, 'home'), join(root, 'home2'), { recursive: true });
lap('cp');
const e2 = await openEngine({ home: join(root, 'home2') });
lap('open2');
const f = await e2.folders();
console.log(f[0].state, f[0].chunks);
lap('folders');
let r = await e2.search({ query: 'upload retries', mode: 'sparse' });
lap('sparse ' + r.hits.length);
r = await e2.search({ query: 'upload retries', mode: 'hybrid' });
lap('hybrid ' + r.hits.length);
r = await e2.search({ query: 'budget', mode: 'hybrid' });
lap('hybrid2 ' + r.hits.length);
await e2.close();
lap('close2');
