// `npm start` after the build: the desktop app when Electron's binary is installed, otherwise the browser version.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findElectronBinary } from './binary.ts';

const projectDir = join(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);

/**
 * Electron's package fetches its binary on first use rather than at install; do that here, quietly,
 * so a machine that can reach the download host gets the desktop app and one that cannot gets one line.
 */
function downloadElectron(): string | null {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  const installer = join(projectDir, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return 'the electron package is not installed';
  console.log('Downloading the Electron binary (first start only)…');
  const result = spawnSync(process.execPath, [installer], { stdio: 'pipe', encoding: 'utf8', timeout: 10 * 60_000 });
  if (result.status === 0) return null;
  const firstError = `${result.stderr}`
    .split('\n')
    .find((line) => /error/i.test(line))
    ?.trim();
  return `its download failed${firstError ? `: ${firstError.slice(0, 160)}` : ''}`;
}

let electron = findElectronBinary(import.meta.url);
let missingBecause = 'no access to its download host';
if (!electron) {
  const problem = downloadElectron();
  if (problem) missingBecause = problem;
  else electron = findElectronBinary(import.meta.url);
}

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
  console.log(`Electron binary not available (${missingBecause}); starting the browser version instead.`);
  const { runServe } = await import('../transport/serve.ts');
  await runServe(args);
}
