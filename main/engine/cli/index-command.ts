import { resolve } from 'node:path';
import type { JobInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { EngineClient } from './client.js';
import { EXIT } from './exit-codes.js';
import { progressBar, progressLine } from './format.js';

/** Indexes the named folders (default: all) one job at a time, until each finishes. */
export async function runIndex(client: EngineClient, folders: string[], rebuild: boolean, json: boolean): Promise<number> {
  const targets = folders.length > 0 ? folders.map((f) => resolve(f)) : await client.folderPaths();
  if (targets.length === 0) throw new CairnError('invalid_argument', 'No folders to index. Add one with: cairn add <folder>');
  const tty = process.stderr.isTTY && !json;
  const results: JobInfo[] = [];
  for (const folder of targets) {
    let job = await client.indexFolder(folder, rebuild ? 'rebuild' : 'update');
    let lastLine = '';
    while (!job.finished_at) {
      await new Promise((r) => setTimeout(r, tty ? 200 : 1000));
      job = (await client.job(job.id)) ?? job;
      if (tty) process.stderr.write(`\r\x1b[2K${progressBar(job)}`);
      else if (!json) {
        const line = `${folder}: ${progressLine(job.progress)}`;
        if (line !== lastLine) process.stderr.write(`${line}\n`);
        lastLine = line;
      }
    }
    if (tty) process.stderr.write('\r\x1b[2K');
    results.push(job);
    if (!json) process.stdout.write(`${folder}: ${job.state}${job.errors ? `, ${job.errors} file errors (see cairn status)` : ''}${job.error ? ` — ${job.error.message}` : ''}\n`);
  }
  const failed = results.find((j) => j.state === 'failed');
  if (failed?.error) throw new CairnError(failed.error.code, `${failed.folder}: ${failed.error.message}`, { remedy: failed.error.remedy });
  if (json) process.stdout.write(`${JSON.stringify({ jobs: results }, null, 2)}\n`);
  return results.every((j) => j.state === 'done') ? EXIT.ok : EXIT.error;
}
