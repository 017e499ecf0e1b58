/**
 * One way to say how far a job is, shared by `cairn index`, `cairn status` and the workbench, so
 * they never disagree: each phase is measured in its own unit (files while the text index is
 * written, chunks while vectors are computed), and an ETA is a rounded phrase, not raw seconds.
 */
import type { JobProgress, JobState, ProgressView } from './status.js';

const PHASE_LABEL: Record<JobProgress['phase'], string> = {
  queued: 'queued',
  scanning: 'finding files',
  parsing: 'reading files into the text index',
  writing: 'writing the text index',
  embedding: 'computing vectors',
  done: 'done',
};

const num = (n: number) => n.toLocaleString('en-US');

/** "less than a minute", "about 4 min", "about 1 h 20 min"; null when unknown. */
export function formatEta(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return null;
  if (seconds < 60) return 'less than a minute';
  const min = Math.round(seconds / 60);
  if (min < 60) return `about ${min} min`;
  const h = Math.floor(min / 60);
  const rest = Math.round((min % 60) / 10) * 10;
  return rest ? `about ${h} h ${rest} min` : `about ${h} h`;
}

export function describeProgress(state: JobState, p: JobProgress): ProgressView {
  const embedding = p.phase === 'embedding';
  const done = embedding ? p.chunks_done : p.files_done;
  const total = embedding ? p.chunks_total : p.files_total;
  // A scan learns its total as it walks: no fraction until it has finished finding files.
  const fraction = p.phase === 'done' ? 1 : total > 0 && p.phase !== 'scanning' ? Math.min(1, done / total) : null;
  let counts: string;
  if (embedding)
    counts = `${num(p.chunks_done)} of ${num(p.chunks_total)} chunks (${num(p.files_done)} of ${num(p.files_total)} files)`;
  else if (p.phase === 'scanning') counts = `${num(p.files_total)} files found`;
  else if (p.files_total > 0)
    counts = `${num(p.files_done)} of ${num(p.files_total)} files${p.chunks_done ? `, ${num(p.chunks_done)} chunks` : ''}`;
  else counts = p.files_done ? `${num(p.files_done)} files` : '';
  const label =
    state === 'queued' ? 'queued' : state === 'paused' ? `paused (${PHASE_LABEL[p.phase]})` : PHASE_LABEL[p.phase];
  const etaText = state === 'running' ? formatEta(p.eta_seconds) : null;
  const file = state === 'running' && embedding && p.current_file ? `embedding ${p.current_file}` : null;
  return {
    label,
    fraction: state === 'queued' ? null : fraction,
    counts: state === 'queued' ? '' : counts,
    eta: etaText ? `${etaText} left` : null,
    ...(file ? { file } : {}),
  };
}

/**
 * One line: "computing vectors: 1,584 of 30,818 chunks (52 of 425 files), embedding notes.md,
 * about 4 min left".
 */
export function progressText(state: JobState, p: JobProgress): string {
  const v = describeProgress(state, p);
  return [v.label + (v.counts ? `: ${v.counts}` : ''), v.file, v.eta].filter(Boolean).join(', ');
}
