/**
 * Window bounds kept across launches with `conf` (the library electron-store wraps, with the same
 * file format and schema validation; electron-store itself is not a dependency here). The store
 * directory is injected, so this file never touches electron.
 */
import Conf from 'conf';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

interface Schema {
  window: WindowBounds;
  openAtLogin: boolean;
}

const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 860, maximized: false };

export class ShellState {
  private readonly store: Conf<Schema>;

  constructor(dir: string) {
    this.store = new Conf<Schema>({
      cwd: dir,
      configName: 'window-state',
      projectName: 'cairn',
      defaults: { window: DEFAULT_BOUNDS, openAtLogin: false },
      schema: {
        window: {
          type: 'object',
          properties: {
            x: { type: 'integer' },
            y: { type: 'integer' },
            width: { type: 'integer', minimum: 400 },
            height: { type: 'integer', minimum: 300 },
            maximized: { type: 'boolean' },
          },
          required: ['width', 'height', 'maximized'],
        },
        openAtLogin: { type: 'boolean' },
      },
      // A corrupt or hand-edited file must not keep the app from starting.
      clearInvalidConfig: true,
    });
  }

  bounds(): WindowBounds {
    return this.store.get('window');
  }

  saveBounds(b: WindowBounds): void {
    this.store.set('window', {
      ...b,
      width: Math.max(400, Math.round(b.width)),
      height: Math.max(300, Math.round(b.height)),
    });
  }

  openAtLogin(): boolean {
    return this.store.get('openAtLogin');
  }

  setOpenAtLogin(v: boolean): void {
    this.store.set('openAtLogin', v);
  }
}
