/**
 * Writes Cairn into a client's config file, only after the caller confirmed: merges into the
 * existing JSON/JSONC or TOML with a maintained parser (jsonc.ts, toml.ts: other servers,
 * settings, comments and layout stay), keeps a timestamped backup of the previous file, and
 * writes atomically with mode 0600 (the file may hold the API key). A config that is a symlink
 * (dotfile managers) is written through to its target, so the link stays; anything that is not a
 * regular file, or cannot be read, is refused and left alone.
 */
import { copyFile, lstat, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from '../errors.js';
import { SERVER_NAME, clientSpec, type ClientSetup } from './configs.js';
import { mergeJsonEntry } from './jsonc.js';
import { clientConfigPath } from './paths.js';
import { mergeTomlTable } from './toml.js';

import type { InstallResult } from '../../common/admin.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

export type { InstallResult };

/** The file to read and write for `path`: itself, or a symlink's regular-file target. */
async function target(path: string): Promise<{ file: string; exists: boolean }> {
  let link;
  try {
    link = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file: path, exists: false };
    throw refusal(path, err);
  }
  const file = link.isSymbolicLink()
    ? await realpath(path).catch((err: unknown) => {
        throw new CairnError(
          'conflict',
          `${path} is a symbolic link to a file that does not exist (${(err as Error).message}); it was left untouched.`,
          {
            remedy: 'Fix or remove the link, or copy the snippet by hand.',
          },
        );
      })
    : path;
  const st = link.isSymbolicLink() ? await stat(file) : link;
  if (!st.isFile()) {
    throw new CairnError('conflict', `${path} is not a regular file; it was left untouched.`, {
      remedy: 'Copy the snippet by hand.',
    });
  }
  return { file, exists: true };
}

function refusal(path: string, err: unknown): CairnError {
  const code = (err as NodeJS.ErrnoException).code;
  return new CairnError(
    'conflict',
    `${path} cannot be read (${code ?? (err as Error).message}); it was left untouched.`,
    {
      remedy:
        code === 'EACCES' || code === 'EPERM'
          ? "Check the file's permissions, or copy the snippet by hand."
          : 'Copy the snippet by hand.',
    },
  );
}

/** `2026-11-29T23-04-05-123Z`: sortable and valid in file names on every OS. */
function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

export async function installClient(id: string, setup: ClientSetup): Promise<InstallResult> {
  const spec = clientSpec(id);
  if (!spec) throw new CairnError('invalid_argument', `Unknown client '${id}'`, { details: { key: 'id' } });
  const path = clientConfigPath(spec.id, setup.home, setup.platform, setup.env);
  if (!path || spec.format === 'command') {
    throw new CairnError('invalid_argument', `${spec.name} is configured with a command; copy and run the snippet.`, {
      details: { key: 'id' },
    });
  }
  const { file, exists } = await target(path);
  const existing = exists
    ? await readFile(file, 'utf8').catch((err: unknown) => {
        throw refusal(path, err);
      })
    : null;
  const entry = spec.entry(setup);
  const text =
    spec.format === 'toml'
      ? mergeTomlTable(existing ?? '', ['mcp_servers', SERVER_NAME], entry as Record<string, unknown>, path)
      : mergeJsonEntry(existing ?? '', spec.container ?? 'mcpServers', SERVER_NAME, entry, path);
  await mkdir(dirname(file), { recursive: true });
  let backup: string | null = null;
  if (existing !== null) {
    backup = `${path}.cairn-backup-${stamp()}`;
    await copyFile(file, backup);
  }
  await writeFileAtomic(file, text, { mode: 0o600 });
  return { id: spec.id, config_path: path, backup_path: backup };
}
