// Lint rules, including the process boundaries (ARCHITECTURE.md, "Rules that keep it this way"): who may import electron, node:*, main/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Node's built-in modules, bare or `node:`-prefixed (a regex: a gitignore-style `fs/*` would also match `../main/fs/x.ts`). */
const nodeBuiltins = `^(?:node:.*|(?:${['fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'util', 'zlib', 'stream', 'worker_threads', 'events'].join('|')})(?:/.*)?)$`;

/** shared/ imports only zod, sibling files and files one folder up inside shared/ (plus `extra` packages). */
function sharedOnly(extra) {
  const allowed = ['zod', ...extra].map((p) => `${p}$`).join('|');
  return [
    { regex: `^(?!(?:${allowed})|\\./|\\.\\./(?!\\.\\./)[^/]+\\.ts$|\\.\\./shared/).*`, message: 'shared/ imports only zod and other shared/ files.' },
    { group: ['../main/*', '../renderer/*', '../preload/*', '../../*'], message: 'shared/ imports only zod and other shared/ files.' },
  ];
}

export default tseslint.config(
  { ignores: ['out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Only main's Electron entry and IPC adapter may import electron (services stay testable in plain Node).
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only main/electron/ (the desktop shell) and preload/ may import electron.' }] },
      ],
    },
  },
  {
    files: ['main/electron/**/*.ts', 'preload/**/*.ts', 'e2e/electron/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The services' rooms (readers, index, vault, bundles, recorder, team, …) know nothing of the processes that
    // host them: not the composition (app/), the transports, the command line or the Electron shell.
    files: ['main/**/*.ts'],
    ignores: ['main/app/**', 'main/transport/**', 'main/cli/**', 'main/electron/**', 'main/bench/**', 'main/**/*.test.ts', 'main/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only main/electron/ (the desktop shell) and preload/ may import electron.' }],
          patterns: [
            {
              group: ['**/app/*', '**/transport/*', '**/cli/*', '**/electron/*'],
              message: 'A service room does not import the composition (app/), transports, the CLI or the Electron shell.',
            },
          ],
        },
      ],
    },
  },
  {
    // Only the Electron shell imports the Electron shell.
    files: ['main/app/**/*.ts', 'main/transport/**/*.ts', 'main/cli/**/*.ts', 'main/bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only main/electron/ (the desktop shell) and preload/ may import electron.' }],
          patterns: [{ group: ['**/electron/*'], message: 'Only the Electron shell imports main/electron/.' }],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts', 'shared/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: sharedOnly([]) }] },
  },
  {
    // Tests in shared/ may use the test runner too, and their helpers fast-check (property tests' inputs).
    files: ['shared/**/*.test.ts', 'shared/test-support/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: sharedOnly(['vitest', 'fast-check']) }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to a Transport, never to electron.' }],
          patterns: [
            { regex: nodeBuiltins, message: 'The renderer runs in a browser sandbox: no Node built-ins.' },
            { group: ['../main/*', '../../main/*', '**/main/*'], message: 'The renderer never imports main/; use the contract in shared/.' },
          ],
        },
      ],
    },
  },
  {
    // zod stays out of the renderer's bundle (issue #21): its types are welcome, its code and the contract's schemas are not.
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'The renderer runs without zod: check wire data by hand (wire-checks.ts).', allowTypeImports: true }],
          patterns: [
            {
              regex: '/shared/(api|result|session|vault-api|search-api|bundle-api|compare/comparison)\\.ts$',
              message:
                'This shared/ module defines zod schemas: import its types only (names and constants have zod-free homes: method-names.ts, bundle-limits.ts, event-payloads.ts).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
