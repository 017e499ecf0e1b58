// Builds the component harness (harness/) with the workbench's own React plugin.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export const HARNESS_OUT = fileURLToPath(new URL('../../test-results/components-harness', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./harness', import.meta.url)),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: HARNESS_OUT, emptyOutDir: true, target: 'es2022' },
});
