/**
 * App-wide web security, applied to every webContents as it is created: no navigation away from
 * the workbench (main frame or any subframe), no new windows (allow-listed https links go to the default browser instead), no
 * <webview>, and every permission request (camera, notifications, geolocation...) refused.
 */
import { app, session, shell } from 'electron';
import { isAllowedExternal } from './external-links.js';
import { allowFrameNavigation, isTrustedSenderUrl } from './trusted-sender.js';

export function hardenWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isTrustedSenderUrl(url)) event.preventDefault();
    });
    // will-navigate sees the main frame only; this one also sees every subframe (an injected
    // iframe navigating itself somewhere).
    contents.on('will-frame-navigate', (event) => {
      if (!allowFrameNavigation(event.url, event.isMainFrame)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isTrustedSenderUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

export function denyPermissions(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
  s.setDevicePermissionHandler(() => false);
}
