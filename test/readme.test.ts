// The README is part of the product: its configuration reference and CLI usage must match the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settingsTable } from '../scripts/settings-table.js';
import { USAGE } from '../main/engine/cli/usage.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the configuration reference is the settings table, row for row', () => {
  assert.ok(
    readme.includes(settingsTable()),
    'README is stale: regenerate with node --import tsx scripts/settings-table.ts',
  );
});

test('every CLI command of the usage text is documented', () => {
  for (const cmd of ['add', 'remove', 'index', 'search', 'status', 'serve', 'mcp --stdio']) {
    assert.ok(USAGE.includes(`cairn ${cmd}`), `usage lacks ${cmd}`);
    assert.ok(readme.includes(`cairn ${cmd}`), `README lacks cairn ${cmd}`);
  }
});

test('the version in package.json is the engine version', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  const { ENGINE_VERSION } = await import('../main/engine/version.js');
  assert.equal(ENGINE_VERSION, pkg.version);
});
