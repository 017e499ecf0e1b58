// What each component test mounts. A scene passes the component its props and, where the
// component reads the engine's state, an EngineContext value: the same inputs the workbench hands
// it, written out here instead of polled from an engine. Anything the test must drive (a save the
// engine accepts or refuses) is a function on `window` the spec calls.
import { useState, type ReactElement } from 'react';
import { ErrorNote } from '../../../renderer/src/components/ErrorNote';
import { SettingSwitch } from '../../../renderer/src/components/SettingSwitch';
import { CopyButton } from '../../../renderer/src/components/CopyButton';
import { JobsList } from '../../../renderer/src/panels/JobsList';
import { EngineContext, type EngineState } from '../../../renderer/src/hooks/engine-context';
import type { JobInfo, JobProgress } from '../../../main/common/status';
import { describeProgress } from '../../../main/common/progress';

declare global {
  interface Window {
    /** Ends the pending save of the SettingSwitch scene: accepted or refused. */
    settleSave?: (accepted: boolean) => void;
    saves?: boolean[];
  }
}

const engineState: EngineState = {
  link: 'online',
  away: null,
  engine: null,
  mcp: null,
  error: null,
  epoch: 0,
  refresh: async () => undefined,
};

function job(n: number, state: JobInfo['state'], extra: Partial<JobInfo> = {}, file?: string): JobInfo {
  const progress: JobProgress = {
    phase: 'embedding',
    files_done: 52,
    files_total: 425,
    chunks_done: 1584,
    chunks_total: 30818,
    throughput: 0,
    eta_seconds: 240,
    ...(file ? { current_file: file } : {}),
  };
  return {
    id: `job-${n}`,
    kind: 'update',
    folder: `/data/folder-${n}`,
    state,
    // The summary the engine attaches (jobs/job.ts), from the one shared description.
    progress: { ...progress, summary: describeProgress(state, progress) },
    errors: 0,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    finished_at: null,
    ...extra,
  };
}

/** The switch over a value the "engine" (this scene) owns: a refused save leaves it as it was. */
function SwitchScene() {
  const [value, setValue] = useState(false);
  return (
    <SettingSwitch
      value={value}
      testId="switch"
      onSave={(next) =>
        new Promise<void>((resolve, reject) => {
          (window.saves ??= []).push(next);
          window.settleSave = (accepted) => {
            if (accepted) {
              setValue(next);
              resolve();
            } else reject(new Error('refused'));
          };
        }).catch(() => undefined)
      }
    >
      Require the API key
    </SettingSwitch>
  );
}

export const SCENES: Record<string, () => ReactElement> = {
  'error-with-remedy': () => (
    <ErrorNote
      error={{
        code: 'disk_full',
        message: 'No space left while writing the index.',
        remedy: 'Free some space; indexing resumes by itself.',
      }}
    />
  ),
  'error-with-verdict': () => (
    <ErrorNote testId="verdict" error={{ code: 'config_invalid', message: 'Not saved: mcp.port must be 1..65535.' }} />
  ),
  'error-unknown-code': () => <ErrorNote error={{ code: 'timeout', message: 'grep ran out of time.' }} />,
  switch: () => <SwitchScene />,
  copy: () => <CopyButton text="cairn_key_to_copy" testId="copy" />,
  jobs: () => (
    <EngineContext.Provider value={engineState}>
      <JobsList
        jobs={[
          ...Array.from({ length: 9 }, (_, i) =>
            job(i, 'done', { finished_at: new Date(Date.UTC(2026, 0, 1, 1, i)).toISOString() }),
          ),
          job(20, 'running', {}, 'docs/release-notes/2026/CHANGELOG-with-a-long-name.md'),
          job(21, 'paused', {}, 'notes/paused-at.md'),
          job(22, 'failed', { error: { code: 'disk_full', message: 'no space', remedy: 'free space' } }),
        ]}
        folders={[
          ...Array.from({ length: 9 }, (_, i) => `/data/folder-${i}`),
          '/data/folder-20',
          '/data/folder-21',
          '/data/folder-22',
        ]}
      />
    </EngineContext.Provider>
  ),
  'jobs-empty': () => (
    <EngineContext.Provider value={engineState}>
      <div data-testid="host">
        <JobsList jobs={[]} folders={[]} />
      </div>
    </EngineContext.Provider>
  ),
};
