import { resolve } from 'node:path';
import type { JobInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { EngineClient } from './client.js';
import { EXIT } from './exit-codes.js';
import { progressText } from '../../common/progress.js';
import { progressBar } from './format.js';

/**
 * What to show for a job: its own progress, or while it waits its turn (beside a running `cairn
 * serve`, the folder is often busy with the serve's own job), the job it waits for, so the
 * line moves with the real work instead of sitting at "0% scanning".
 */
async function progressOf(client: EngineClient, job: JobInfo, bar: boolean): Promise<string> {
  const show = (j: JobInfo) => (bar ? progressBar(j) : progressText(j.state, j.progress));
  // Not started yet (queued, or held by a pause before its turn came): show what it waits for.
  if (job.progress.phase !== 'queued') return show(job);
  const busy = (await client.status()).jobs.find(
    (j) => j.id !== job.id && !j.finished_at && j.progress.phase !== 'queued',
  );
  if (!busy) return show(job);
  const whose = busy.folder === job.folder ? "this folder's current job" : `the job on ${busy.folder}`;
  return `${show(busy)} (queued behind ${whose})`;
}

/** Indexes the named folders (default: all) one job at a time, until each finishes. */
export async function runIndex(
  client: EngineClient,
  folders: string[],
  rebuild: boolean,
  json: boolean,
): Promise<number> {
  const targets = folders.length > 0 ? folders.map((f) => resolve(f)) : await client.folderPaths();
  if (targets.length === 0)
    throw new CairnError('invalid_argument', 'No folders to index. Add one with: cairn add <folder>');
  const tty = process.stderr.isTTY && !json;
  const results: JobInfo[] = [];
  for (const folder of targets) {
    let job = await client.indexFolder(folder, rebuild ? 'rebuild' : 'update');
    let lastLine = '';
    while (!job.finished_at) {
      await new Promise((r) => setTimeout(r, tty ? 250 : 1000));
      job = (await client.job(job.id)) ?? job;
      if (json) continue;
      const line = `${folder}: ${await progressOf(client, job, tty)}`;
      if (tty) process.stderr.write(`\r\x1b[2K${line}`);
      else if (line !== lastLine) process.stderr.write(`${line}\n`);
      lastLine = line;
    }
    if (tty) process.stderr.write('\r\x1b[2K');
    results.push(job);
    if (!json)
      process.stdout.write(
        `${folder}: ${job.state}${job.errors ? `, ${job.errors} file errors (see cairn status)` : ''}${job.error ? ` — ${job.error.message}` : ''}\n`,
      );
  }
  const failed = results.find((j) => j.state === 'failed');
  if (failed?.error)
    throw new CairnError(failed.error.code, `${failed.folder}: ${failed.error.message}`, {
      remedy: failed.error.remedy,
    });
  if (json) process.stdout.write(`${JSON.stringify({ jobs: results }, null, 2)}\n`);
  return results.every((j) => j.state === 'done') ? EXIT.ok : EXIT.error;
}
