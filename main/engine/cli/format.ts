import type { SearchResponse } from '../../common/search.js';
import type { EngineStatus, FolderStatus, JobInfo } from '../../common/status.js';
import { SKIP_REASONS, type FolderFilesResponse, type SkipReason } from '../../common/files.js';
import { describeProgress, progressText } from '../../common/progress.js';

export function formatHits(res: SearchResponse): string {
  if (res.hits.length === 0) return `No results (${res.mode}, ${res.took_ms} ms).`;
  const out: string[] = [];
  for (const [i, h] of res.hits.entries()) {
    const where = h.page
      ? `${h.path} p.${h.page} L${h.start_line}-${h.end_line}`
      : `${h.path}:${h.start_line}-${h.end_line}`;
    const legs = Object.entries(h.legs)
      .map(([k, v]) => `${k} #${v}`)
      .join(', ');
    const label = h.symbol ?? h.heading;
    out.push(`${i + 1}. ${where}  score ${h.score.toFixed(3)}  [${legs}]${label ? `  ${label}` : ''}`);
    out.push(
      h.snippet
        .split('\n')
        .slice(0, 8)
        .map((l) => `   ${l}`)
        .join('\n'),
    );
  }
  const stale = Object.entries(res.folders).filter(([, f]) => f.state !== 'fresh' || f.vector_coverage < 1);
  for (const [folder, f] of stale)
    out.push(`note: ${folder} is ${f.state}, vectors cover ${(f.vector_coverage * 100).toFixed(0)}% of it`);
  out.push(`${res.hits.length} hits, ${res.mode}, ${res.took_ms} ms`);
  return out.join('\n');
}

export function formatStatus(s: EngineStatus): string {
  const lines = [
    `Cairn ${s.version}  data: ${s.data_dir}`,
    `Model: ${s.model.id} (${s.model.dimensions} d, ${s.model.state}${s.model.error ? `: ${s.model.error}` : ''})`,
  ];
  if (s.index_damage)
    lines.push(`! ${s.index_damage.message}\n  remedy: ${s.index_damage.remedy ?? 'cairn index --rebuild'}`);
  const r = s.index_repair;
  if (r && r.state !== 'done')
    lines.push(
      `! Repairing the index (${r.state.replace('_', ' ')}): ${r.damage.message}${r.moved_to ? `\n  the damaged index was moved to ${r.moved_to}` : ''}${r.error ? `\n  repair failed: ${r.error.message}` : ''}`,
    );
  else if (r)
    lines.push(`Index repaired ${r.finished_at}: the damaged one was moved to ${r.moved_to} (delete it when done).`);
  if (s.contract_mismatch)
    lines.push(`! ${s.contract_mismatch.message}\n  remedy: ${s.contract_mismatch.remedy ?? 're-index'}`);
  if (s.paused) lines.push('Indexing is paused.');
  if (s.folders.length === 0) lines.push('No folders. Add one with: cairn add <folder>');
  for (const f of s.folders) {
    const cov = f.chunks > 0 ? ` vectors ${Math.round((f.embedded_chunks / f.chunks) * 100)}%` : '';
    lines.push(
      `${f.path}  ${f.state}${f.reason ? ` (${f.reason})` : ''}  ${f.files} files, ${f.chunks} chunks${cov}, ${f.file_errors} errors, updated ${f.updated_at ?? 'never'}`,
    );
    if (f.text_only) lines.push('  text only: no vectors are computed (full-text and graph search)');
    if (f.skipped && f.skipped.total > 0) lines.push(`  ${skippedLine(f)}`);
    if (f.progress) lines.push(`  ${progressLine(f.progress)}`);
    for (const e of f.errors.slice(0, 5)) lines.push(`  error ${e.code}: ${e.path}: ${e.message}`);
    if (f.file_errors > 5) lines.push(`  … ${f.file_errors - 5} more file errors (cairn status --json)`);
  }
  const running = s.jobs.filter((j) => !j.finished_at);
  for (const j of running)
    lines.push(`job ${j.id.slice(0, 8)} ${j.kind} ${j.folder}: ${progressLine(j.progress, j.state)}`);
  return lines.join('\n');
}

/** "skipped 12: 3 larger than index.max_file_bytes, 9 binary content (cairn files <folder> --show skipped)". */
export function skippedLine(f: FolderStatus): string {
  const by = Object.entries(f.skipped?.by_reason ?? {}).map(([r, n]) => `${n} ${SKIP_REASONS[r as SkipReason] ?? r}`);
  return `skipped ${f.skipped?.total ?? 0}: ${by.join(', ')} (cairn files ${f.path} --show skipped)`;
}

export function formatFiles(r: FolderFilesResponse): string {
  const lines = [
    `${r.folder}: ${r.counts.indexed} indexed${r.text_only ? ' (text only)' : `, ${r.counts.embedding} waiting for vectors`}, ${r.counts.errors} errors, ${r.counts.skipped} skipped`,
  ];
  for (const e of r.items) {
    const what =
      e.status === 'skipped'
        ? `skipped: ${e.reason_text ?? e.reason}${e.detail ? ` (${e.detail})` : ''}`
        : e.status === 'error'
          ? `error ${e.code}: ${e.message}`
          : e.status === 'embedding'
            ? `${e.chunks} chunks, vectors pending`
            : `${e.chunks} chunks`;
    lines.push(`  ${e.rel}  ${what}`);
  }
  const end = r.offset + r.items.length;
  if (r.total > end) lines.push(`  … ${r.total - end} more (--offset ${end})`);
  if (r.show === 'skipped' && !r.skipped_listed_all)
    lines.push('  (more skips than are listed by path; the counts are exact)');
  return lines.join('\n');
}

export function progressLine(p: JobInfo['progress'], state: JobInfo['state'] = 'running'): string {
  return progressText(state, p);
}

/** One redrawn line on a terminal; nothing when output is piped. */
export function progressBar(job: Pick<JobInfo, 'state' | 'progress'>, width = 28): string {
  const v = describeProgress(job.state, job.progress);
  if (v.fraction === null) return `[${'.'.repeat(width)}]      ${progressText(job.state, job.progress)}`;
  const fill = Math.round(v.fraction * width);
  return `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${(v.fraction * 100).toFixed(0).padStart(3)}% ${progressText(job.state, job.progress)}`;
}
