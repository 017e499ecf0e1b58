// `cairn <command> --help` prints the help and exits 0 (it used to be an unknown-option error);
// the control: an unknown option is still a usage error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/engine.js';
import { cairn } from '../helpers/cli.js';

test('cairn search --help prints the help', async () => {
  const h = await tempDir('cli-help');
  try {
    for (const args of [
      ['search', '--help'],
      ['index', '-h'],
      ['add', '--help'],
    ]) {
      const r = await cairn(args, { CAIRN_HOME: h.dir });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /Usage:/);
    }
    const bad = await cairn(['search', 'x', '--bogus'], { CAIRN_HOME: h.dir });
    assert.equal(bad.code, 2);
  } finally {
    await h.cleanup();
  }
});
