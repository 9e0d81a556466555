// Reads the desktop app's command line: `--root DIR` (as in serve) and bundle files the OS asked it to open.
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

/** Bundle files on the command line (open-with and double-clicks on Windows and Linux arrive this way); `--root DIR` values are not bundles. */
export function bundlesFromArgv(argv: readonly string[], cwd: string = process.cwd()): string[] {
  const bundles: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--root') {
      i++;
      continue;
    }
    if (!arg.startsWith('-') && /\.zip$/i.test(arg)) bundles.push(resolve(cwd, arg));
  }
  return bundles;
}

/** Session files on the command line (the OS's "Open with" for .jsonl, .json …): opened on their own, folders not added. */
export function sessionFilesFromArgv(argv: readonly string[], cwd: string = process.cwd()): string[] {
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--root') {
      i++;
      continue;
    }
    if (!arg.startsWith('-') && /\.(jsonl|json|gz|md|db)$/i.test(arg)) files.push(resolve(cwd, arg));
  }
  return files;
}
