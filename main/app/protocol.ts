/**
 * Serves renderer/dist over app://workbench/ instead of file://: a real origin (so the CSP and
 * the sender checks mean something), no file:// privileges, and no path outside the renderer
 * folder can be read. What it answers is app-scheme.ts (plain code, tested without Electron);
 * this file only registers it. Electron's fs reads from asar.
 */
import { net, protocol } from 'electron';
import { WORKBENCH_CSP } from '../common/csp.js';
import { appSchemeHandler, type SchemeEngine } from './app-scheme.js';

/** The CSP the workbench runs under; API calls go to this origin (forwarded to the engine). */
export { WORKBENCH_CSP };

/** Must run before `app.whenReady()`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function handleAppScheme(rendererRoot: string, engine: SchemeEngine): void {
  protocol.handle(
    'app',
    appSchemeHandler(rendererRoot, engine, (url, init) => net.fetch(url, init)),
  );
}
