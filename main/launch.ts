// `npm start` after the build: the desktop app when Electron's binary is installed, otherwise the browser version.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { findElectronBinary } from './electron-binary.ts';

const projectDir = join(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const electron = findElectronBinary(import.meta.url);

if (electron) {
  const env = { ...process.env };
  // Inherited from a parent Electron, this would make the child a plain Node and not the app.
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(electron, [projectDir, ...args], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('error', (err) => {
    console.error(`Could not start Electron (${electron}): ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  console.log(
    'Electron binary not available (ELECTRON_SKIP_BINARY_DOWNLOAD or no access to its download host); starting the browser version instead.',
  );
  const { runServe } = await import('./serve.ts');
  await runServe(args);
}
