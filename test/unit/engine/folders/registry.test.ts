// Unit: the folder registry (main/engine/folders/registry.ts) over a real settings file: a folder
// that overlaps an indexed one (the same, inside it, around it) is refused as a conflict, and a
// sibling whose name only starts the same (`/data-evil` beside `/data`) is not (the control).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SettingsStore } from '../../../../main/engine/config/settings-store.js';
import { CairnError } from '../../../../main/engine/errors.js';
import { FolderRegistry } from '../../../../main/engine/folders/registry.js';
import { tempDir } from '../../../helpers/engine.js';

test('an overlapping folder is a conflict; a sibling with the same name prefix is not', async () => {
  const home = await tempDir('registry');
  try {
    const data = join(home.dir, 'data');
    for (const d of ['cairn', 'data/inner', 'data-evil', 'outer']) await mkdir(join(home.dir, d), { recursive: true });
    const registry = new FolderRegistry(new SettingsStore(join(home.dir, 'cairn')), join(home.dir, 'cairn'));
    registry.add(await registry.checkNew({ path: data, include: [], exclude: [] }));
    const conflict = (e: unknown) => e instanceof CairnError && e.code === 'conflict';
    await assert.rejects(registry.checkNew({ path: data, include: [], exclude: [] }), conflict, 'the same folder');
    await assert.rejects(
      registry.checkNew({ path: `${data}/`, include: [], exclude: [] }),
      conflict,
      'another spelling',
    );
    await assert.rejects(
      registry.checkNew({ path: join(data, 'inner'), include: [], exclude: [] }),
      conflict,
      'inside',
    );
    await assert.rejects(registry.checkNew({ path: home.dir, include: [], exclude: [] }), conflict, 'around it');
    // Control: the checks are not refusing everything.
    const sibling = await registry.checkNew({ path: join(home.dir, 'data-evil'), include: [], exclude: [] });
    assert.equal(sibling.path, join(home.dir, 'data-evil'));
    assert.equal(
      (await registry.checkNew({ path: join(home.dir, 'outer'), include: [], exclude: [] })).path,
      join(home.dir, 'outer'),
    );
  } finally {
    await home.cleanup();
  }
});
