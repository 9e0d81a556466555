// Builds the three bundles: main (Electron entry, CLI, launcher, worker), preload (CJS for the sandbox), renderer.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { nodeBuiltinsPlugin } from './build/node-builtins-plugin.ts';

export default defineConfig({
  main: {
    // Built-ins through process.getBuiltinModule, not ES module facades (build/node-builtins-plugin.ts).
    plugins: [nodeBuiltinsPlugin()],
    build: {
      outDir: 'out/main',
      // zod bundled (every other package stays in node_modules): imported as a package it is 120 modules, its 50
      // locales among them, resolved and loaded by every command that checks the contract; bundled, one chunk.
      externalizeDeps: { exclude: ['zod'] },
      rolldownOptions: {
        input: {
          index: resolve('main/electron/main.ts'),
          cli: resolve('main/cli/cli.ts'),
          launch: resolve('main/electron/launch.ts'),
          'read-worker': resolve('main/workers/read-worker.ts'),
        },
        output: {
          format: 'es',
          // Flat output: every chunk sits beside the worker entry, so the pool finds it by a relative name.
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
          banner: (chunk) => (chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve('preload/index.ts') },
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // Minified (electron-vite leaves it off): the first load's JavaScript is measured by `npm run bench -- --only renderer`.
      minify: true,
      rolldownOptions: { input: resolve('renderer/index.html') },
    },
  },
});
