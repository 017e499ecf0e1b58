import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FolderSpec } from '../../main/common/settings.js';
import { walkFolder, type WalkItem, type WalkOptions } from '../../main/engine/sources/index.js';

export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  }
}

export async function collect(spec: FolderSpec, opts: Partial<WalkOptions> = {}): Promise<WalkItem[]> {
  const items: WalkItem[] = [];
  for await (const item of walkFolder(spec, {
    maxFileBytes: 1 << 20,
    respectGitignore: true,
    extraExcludes: [],
    ...opts,
  }))
    items.push(item);
  return items;
}

export function rels(items: WalkItem[]): string[] {
  return items.flatMap((i) => ('file' in i ? [i.file.rel] : []));
}

export function skipped(items: WalkItem[]): Array<{ path: string; reason: string }> {
  return items.flatMap((i) => ('skipped' in i ? [i.skipped] : []));
}
