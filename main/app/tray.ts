/**
 * The tray: engine status at a glance, open the workbench, pause/resume indexing, start at login,
 * quit. The menu is rebuilt whenever the supervisor's state or the engine's status changes.
 */
import { Menu, Tray, nativeImage } from 'electron';
import type { SupervisorState } from './engine-supervisor.js';

export interface TrayModel {
  engine: SupervisorState;
  folders: number;
  indexing: boolean;
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

export class CairnTray {
  private readonly tray: Tray;

  constructor(iconPath: string, private readonly actions: TrayActions) {
    const icon = nativeImage.createFromPath(iconPath);
    this.tray = new Tray(icon.isEmpty() ? nativeImage.createEmpty() : icon.resize({ width: 16, height: 16 }));
    this.tray.setToolTip('Cairn');
    this.tray.on('click', () => actions.openWorkbench());
  }

  update(m: TrayModel): void {
    const status = m.engine === 'running' ? `${LABEL.running}: ${m.folders} folder${m.folders === 1 ? '' : 's'}${m.indexing ? ', indexing' : ''}${m.paused ? ', paused' : ''}` : LABEL[m.engine];
    this.tray.setToolTip(`Cairn: ${status}`);
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: status, enabled: false },
        { type: 'separator' },
        { label: 'Open workbench', click: () => this.actions.openWorkbench() },
        m.paused
          ? { label: 'Resume indexing', enabled: m.engine === 'running', click: () => this.actions.setPaused(false) }
          : { label: 'Pause indexing', enabled: m.engine === 'running', click: () => this.actions.setPaused(true) },
        ...(m.engine === 'failed' ? [{ label: 'Restart engine', click: () => this.actions.restartEngine() }] : []),
        { type: 'separator' },
        { label: 'Start at login', type: 'checkbox', checked: m.openAtLogin, click: (item) => this.actions.setOpenAtLogin(item.checked) },
        { type: 'separator' },
        { label: 'Quit Cairn', click: () => this.actions.quit() },
      ]),
    );
  }

  destroy(): void {
    this.tray.destroy();
  }
}
