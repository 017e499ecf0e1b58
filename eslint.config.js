// Lint rules, including the layering rules of DEVELOPERS.md (also checked by test/layering.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const noElectron = { name: 'electron', message: 'Engine and shared code run in plain Node, where electron throws.' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'renderer/dist/**', 'test-results/**', 'playwright-report/**', 'bench/results/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', fetch: 'readonly', AbortController: 'readonly', structuredClone: 'readonly', performance: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['main/common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'electron', 'react', '@*/*'], message: 'main/common is the contract: it imports nothing.' },
        { group: ['../*', '!./*'], message: 'main/common imports only itself.' },
      ] }],
    },
  },
  {
    files: ['main/engine/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [
        { group: ['**/app/*', '**/app', '**/preload/*', '**/renderer/*'], message: 'The engine never depends on the Electron shell or the renderer.' },
      ] }],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', '**/engine/*', '**/renderer/*'], message: 'preload exposes named functions over contextBridge, nothing more.' },
      ] }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/vite.config.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/vite.config.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [noElectron],
        patterns: [
          { group: ['node:*', '**/main/engine/*', '**/main/engine/**', '**/main/app/**'], message: 'The renderer talks to the engine over HTTP only.' },
          { group: ['**/main/common/*', '**/main/common'], allowTypeImports: true, message: 'The renderer imports the shared contract as types only.' },
        ],
      }],
    },
  },
);
