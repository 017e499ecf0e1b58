/**
 * What the tray shows, as data: the status line and the menu template. Kept apart from tray.ts
 * (which needs Electron's Tray) so the labels and the actions they trigger are tested in plain Node.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { SupervisorState } from './engine-supervisor.js';

export interface TrayModel {
  engine: SupervisorState;
  folders: number;
  indexing: boolean;
  /** The engine's own word (GET /api/status `paused`): engine-wide pause of indexing. */
  paused: boolean;
  openAtLogin: boolean;
}

export interface TrayActions {
  openWorkbench(): void;
  setPaused(paused: boolean): void;
  setOpenAtLogin(v: boolean): void;
  restartEngine(): void;
  quit(): void;
}

const LABEL: Record<SupervisorState, string> = {
  idle: 'Engine not started',
  starting: 'Engine starting…',
  running: 'Engine running',
  backoff: 'Engine crashed, restarting…',
  stopping: 'Engine stopping…',
  stopped: 'Engine stopped',
  failed: 'Engine keeps failing',
};

export function trayStatus(m: TrayModel): string {
  if (m.engine !== 'running') return LABEL[m.engine];
  return `${LABEL.running}: ${m.folders} folder${m.folders === 1 ? '' : 's'}${m.paused ? ', indexing paused' : m.indexing ? ', indexing' : ''}`;
}

export function trayMenu(m: TrayModel, actions: TrayActions): MenuItemConstructorOptions[] {
  const running = m.engine === 'running';
  return [
    { label: trayStatus(m), enabled: false },
    { type: 'separator' },
    { label: 'Open workbench', click: () => actions.openWorkbench() },
    m.paused
      ? { label: 'Resume indexing', enabled: running, click: () => actions.setPaused(false) }
      : { label: 'Pause indexing', enabled: running, click: () => actions.setPaused(true) },
    ...(m.engine === 'failed' ? [{ label: 'Restart engine', click: () => actions.restartEngine() }] : []),
    { type: 'separator' },
    {
      label: 'Start at login',
      type: 'checkbox',
      checked: m.openAtLogin,
      click: (item) => actions.setOpenAtLogin(item.checked),
    },
    { type: 'separator' },
    { label: 'Quit Cairn', click: () => actions.quit() },
  ];
}
