import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `dir`, in any folder depth, sorted; throws when `dir` cannot be listed. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out.sort();
}
