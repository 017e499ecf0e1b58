// A person's terminal shows Cairn's words, not LanceDB's: with LanceDB at its default log level
// (warn), adding, indexing, searching and asking the status of a folder print no LanceDB warning.
// (The integrity check at open once ran a full-text query without `_score`, and every command
// printed two deprecation warnings.) The control: the same level does print LanceDB's warning for
// a raw query that omits `_score`, so silence above is not a muted logger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { cairn, REPO } from '../helpers/cli.js';

const LANCE_WARNING = /\bWARN\b.*lance|deprecat/i;

test('cairn add, index, search and status print no LanceDB warning at its default level', async () => {
  const h = await tempDir('cli-quiet');
  try {
    const folder = join(h.dir, 'notes');
    await mkdir(folder);
    await writeFile(join(folder, 'frost.md'), '# Frost dates\n\nSow tomatoes after the last frost.\n');
    const env = { CAIRN_HOME: join(h.dir, 'home'), LANCEDB_LOG: 'warn' };
    for (const args of [
      ['add', folder, '--text-only'],
      ['index'],
      ['search', 'frost', '--mode', 'sparse'],
      ['status'],
    ]) {
      const r = await cairn(args, env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, LANCE_WARNING, `cairn ${args.join(' ')} printed: ${r.stderr}`);
    }

    const control = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as lancedb from '@lancedb/lancedb';
         const db = await lancedb.connect(${JSON.stringify(join(h.dir, 'raw'))});
         const t = await db.createTable('t', [{ text: 'frost dates' }, { text: 'seed trays' }]);
         await t.createIndex('text', { config: lancedb.Index.fts() });
         await t.query().fullTextSearch('frost').select(['text']).limit(1).toArray();`,
      ],
      { cwd: REPO, env: { ...process.env, LANCEDB_LOG: 'warn' }, encoding: 'utf8' },
    );
    assert.equal(control.status, 0, control.stderr);
    assert.match(control.stderr, LANCE_WARNING, 'the raw query printed no warning: the check above cannot fail');
  } finally {
    await h.cleanup();
  }
});
