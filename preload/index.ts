// Preload for the workbench window. It runs sandboxed with contextIsolation, so it can use only
// `contextBridge` and `ipcRenderer`; it exposes named functions, never ipcRenderer itself, so a
// compromised page can ask for nothing the shell did not decide to offer. The channel names repeat
// main/app/channels.ts (the preload may import only electron); test/app/shell-units.test.ts keeps them
// in step. The renderer's view of this object is renderer/src/api/bridge.ts.
// CommonJS (preload/package.json): a sandboxed preload is run as a classic script, not a module.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the only import form TS allows in a CJS file under verbatimModuleSyntax
import electron = require('electron');

const { contextBridge, ipcRenderer } = electron;

const bridge = {
  isDesktop: true as const,
  /** Native folder picker; resolves to an absolute path or null when cancelled. */
  pickFolder: (): Promise<unknown> => ipcRenderer.invoke('cairn:pick-folder'),
  /** Shows a file in the OS file manager (main checks it is inside an indexed folder). */
  revealFile: (path: string): Promise<unknown> => ipcRenderer.invoke('cairn:reveal-file', String(path)),
};

contextBridge.exposeInMainWorld('cairn', bridge);
