// Finds the installed Electron executable without letting the electron package try to download one.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The executable's path, or null when it was never downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD, or
 * no access to its download host). `require('electron')` alone would start a download when the
 * binary is missing, printing progress and errors, so its path.txt and dist/ are checked first.
 */
export function findElectronBinary(from: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const require = createRequire(from);
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
  if (!env.ELECTRON_OVERRIDE_DIST_PATH) {
    let relative: string;
    try {
      relative = readFileSync(join(packageDir, 'path.txt'), 'utf8').trim();
    } catch {
      return null;
    }
    if (!relative || !existsSync(join(packageDir, 'dist', relative))) return null;
  }
  try {
    const binary: unknown = require('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}
