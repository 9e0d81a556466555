// Reads `--root DIR` from the desktop app's command line, so `npm start -- --root DIR` means the same in Electron and in serve.
import { resolve } from 'node:path';

/**
 * Lenient on purpose: Electron and Chromium put their own switches in argv, so unknown arguments
 * are skipped rather than refused. Relative paths resolve against `cwd`.
 */
export function rootsFromArgv(argv: readonly string[], cwd: string = process.cwd()): string[] {
  const roots: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--root') {
      const value = argv[i + 1];
      if (value !== undefined && value !== '' && !value.startsWith('--')) {
        roots.push(resolve(cwd, value));
        i++;
      }
    } else if (arg.startsWith('--root=') && arg.length > '--root='.length) {
      roots.push(resolve(cwd, arg.slice('--root='.length)));
    }
  }
  return roots;
}
