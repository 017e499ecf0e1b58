/**
 * The tray: engine status at a glance, open the workbench, pause/resume indexing, start at login,
 * quit. The menu (tray-menu.ts) is rebuilt whenever the supervisor's state or the engine's status changes.
 */
import { Menu, Tray, nativeImage } from 'electron';
import { trayMenu, trayStatus, type TrayActions, type TrayModel } from './tray-menu.js';

export type { TrayActions, TrayModel };

export class CairnTray {
  private readonly tray: Tray;

  constructor(
    iconPath: string,
    private readonly actions: TrayActions,
  ) {
    const icon = nativeImage.createFromPath(iconPath);
    this.tray = new Tray(icon.isEmpty() ? nativeImage.createEmpty() : icon.resize({ width: 16, height: 16 }));
    this.tray.setToolTip('Cairn');
    this.tray.on('click', () => actions.openWorkbench());
  }

  update(m: TrayModel): void {
    this.tray.setToolTip(`Cairn: ${trayStatus(m)}`);
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenu(m, this.actions)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
