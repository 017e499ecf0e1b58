/**
 * The IPC handlers behind the preload's named functions. Each checks that the sender is the
 * workbench's own frame (app://workbench) before doing anything, and validates its arguments: the
 * renderer is treated as untrusted input.
 */
import { BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { isAbsolute } from 'node:path';
import { revealableFile } from './admin-client.js';
import { CHANNELS, type EngineAddress } from './channels.js';
import { isTrustedSenderUrl } from './trusted-sender.js';

export interface IpcDeps {
  engineAddress(): EngineAddress | null;
}

function trusted(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isTrustedSenderUrl(frame.url);
}

function handle<A extends unknown[], R>(
  channel: string,
  fn: (event: IpcMainInvokeEvent, ...args: A) => R | Promise<R>,
): void {
  ipcMain.handle(channel, (event, ...args) => {
    if (!trusted(event)) throw new Error(`refused ${channel} from an untrusted frame`);
    return fn(event, ...(args as A));
  });
}

export function registerIpc(deps: IpcDeps): void {
  // The renderer calls the engine through app://workbench/api (protocol.ts adds the token there):
  // no channel hands it the engine's address or token.
  handle(CHANNELS.pickFolder, async (event) => {
    const win = BrowserWindow.fromWebContents(event.sender);
    const opts = {
      properties: ['openDirectory' as const, 'createDirectory' as const],
      title: 'Choose a folder to index',
    };
    const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
    return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
  });

  handle(CHANNELS.revealFile, async (_event, path: unknown) => {
    const addr = deps.engineAddress();
    if (typeof path !== 'string' || !isAbsolute(path) || !addr) return false;
    const real = await revealableFile(addr, path);
    if (!real) return false;
    shell.showItemInFolder(real);
    return true;
  });
}
