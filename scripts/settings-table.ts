// Prints the README's configuration reference from the settings table (main/common/settings.ts),
// so the README and the code cannot drift: test/readme.test.ts compares them.
import { SETTINGS } from '../main/common/settings.js';

export function settingsTable(): string {
  const rows = SETTINGS.map(
    (s) => `| \`${s.key}\` | \`${JSON.stringify(s.default)}\` | ${s.description.replace(/\|/g, '\\|')} |`,
  );
  return ['| key | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

if (process.argv[1]?.endsWith('settings-table.ts')) process.stdout.write(`${settingsTable()}\n`);
