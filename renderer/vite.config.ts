// The workbench build. Output goes to renderer/dist, which the engine's HTTP server serves at `/`
// and the Electron shell serves from its `app://` protocol; `base: './'` keeps asset URLs relative
// so both hosts work. In `vite dev`, /api is proxied to a running engine (CAIRN_ENGINE_URL).
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { WORKBENCH_CSP_META as CSP } from '../main/common/csp.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The CSP as a meta tag in the built page only: the dev server injects an inline React refresh
 * preamble that a strict policy would block. The engine and the Electron protocol also send it as
 * a header (frame-ancestors only works there). connect-src is 'self' in both hosts: the desktop
 * shell forwards app://workbench/api/* to the engine.
 */
export { CSP };

function cspMeta(): Plugin {
  return {
    name: 'cairn-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' },
    ],
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), cspMeta()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: {
    port: 5173,
    strictPort: false,
    proxy: { '/api': { target: process.env.CAIRN_ENGINE_URL ?? 'http://127.0.0.1:58012', changeOrigin: false } },
  },
});
