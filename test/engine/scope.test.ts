// The folder scope of a search holds even without a folder prefilter (a search over every folder
// runs none, for speed): rows still in the index for a folder that is no longer indexed, as in the
// window between removing a folder and dropping its rows, are never served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { SEARCH_MODES } from '../../main/common/search.js';
import { indexNow, tempDir } from '../helpers/engine.js';

test('rows of a folder that is no longer indexed are never served, in any mode', { timeout: 300_000 }, async () => {
  const home = await tempDir('scope-home');
  const kept = await tempDir('scope-kept');
  const gone = await tempDir('scope-gone');
  try {
    await writeFile(
      join(kept.dir, 'kept.md'),
      '# Harbour pilots\n\nThe harbour pilot boards the ship quellbrook at dawn.\n',
    );
    await writeFile(
      join(gone.dir, 'gone.md'),
      '# Harbour pilots\n\nThe removed folder also names quellbrook and the harbour pilot.\n',
    );
    let engine = await openEngine({ home: home.dir });
    for (const f of [kept.dir, gone.dir]) {
      await engine.addFolder({ path: f });
      await indexNow(engine, f, 'create');
    }
    const both = await engine.search({ query: 'quellbrook harbour pilot', mode: 'sparse' });
    assert.deepEqual(
      new Set(both.hits.map((h) => h.folder)),
      new Set([kept.dir, gone.dir]),
      'both folders answer while indexed',
    );
    await engine.close();

    // The folder leaves the settings while its rows stay in the index.
    const configPath = join(home.dir, 'config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as { folders: { path: string }[] };
    config.folders = config.folders.filter((f) => f.path !== gone.dir);
    await writeFile(configPath, JSON.stringify(config, null, 2));
    engine = await openEngine({ home: home.dir });
    try {
      for (const mode of SEARCH_MODES) {
        for (const folders of [undefined, [kept.dir]]) {
          const res = await engine.search({ query: 'quellbrook harbour pilot', mode, folders });
          assert.ok(res.hits.length > 0, `${mode}: no hits`);
          for (const h of res.hits)
            assert.ok(h.path.startsWith(`${kept.dir}/`) && h.folder === kept.dir, `${mode}: served ${h.path}`);
        }
      }
    } finally {
      await engine.close();
    }
  } finally {
    for (const d of [home, kept, gone]) await d.cleanup();
  }
});
