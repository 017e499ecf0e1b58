// Lint rules, including the layering rules of DEVELOPERS.md (also checked by test/layering.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { ENGINE_LAYERS, importsAbove } from './scripts/engine-layers.mjs';

const noElectron = { name: 'electron', message: 'Engine and shared code run in plain Node, where electron throws.' };
const notTheShell = {
  group: ['**/app/*', '**/app', '**/preload/*', '**/renderer/*'],
  message: 'The engine never depends on the Electron shell or the renderer.',
};

/** Each inner engine layer may import itself and the layers below (scripts/engine-layers.mjs; test/layering.test.ts resolves the same rule exactly). */
const layerBlocks = ENGINE_LAYERS.flatMap((layer, i) => {
  const message = `The ${layer.name} layer imports only itself and the layers below it (docs/architecture.md).`;
  const block = (files, root) => {
    const regex = importsAbove(i, root);
    if (!regex || files.length === 0) return [];
    return [
      {
        files,
        rules: {
          'no-restricted-imports': ['error', { paths: [noElectron], patterns: [notTheShell, { regex, message }] }],
        },
      },
    ];
  };
  return [
    ...block(
      layer.folders.map((f) => `main/engine/${f}/**/*.ts`),
      false,
    ),
    ...block(
      layer.files.map((f) => `main/engine/${f}`),
      true,
    ),
  ];
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'renderer/dist/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      'bench/.cache/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['main/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'react', '@*/*'],
              message: 'main/common is the contract: it imports nothing.',
            },
            { group: ['../*', '!./*'], message: 'main/common imports only itself.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/engine/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [notTheShell] }],
    },
  },
  ...layerBlocks,
  {
    // The desktop shell: Electron, Node, the contract, and of the engine only the pieces it runs in
    // its own process (the file door for reveal, the static server for app://, the kernel, the
    // stdio door for --mcp-stdio).
    files: ['main/app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+engine/(?!kernel/|sources/access\\.js$|http/static\\.js$|cli/stdio-command\\.js$)',
              message:
                'main/app talks to the engine over HTTP; it imports only engine/kernel, engine/sources/access.ts, engine/http/static.ts and engine/cli/stdio-command.ts.',
            },
            { group: ['**/renderer/*', '**/preload/*'], message: 'main/app does not import the renderer or preload.' },
          ],
        },
      ],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '**/engine/*', '**/renderer/*'],
              message: 'preload exposes named functions over contextBridge, nothing more.',
            },
          ],
        },
      ],
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
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            {
              group: ['node:*', '**/main/engine/*', '**/main/engine/**', '**/main/app/**'],
              message: 'The renderer talks to the engine over HTTP only.',
            },
          ],
        },
      ],
    },
  },
);
