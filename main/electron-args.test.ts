// `--root DIR` on the desktop command line: every form is picked up, Chromium's own switches are ignored.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootsFromArgv } from './electron-args.ts';

describe('rootsFromArgv', () => {
  it('collects repeated --root DIR and --root=DIR, resolved against the working directory', () => {
    const argv = ['/opt/electron', '.', '--root', 'projects/a', '--root=/data/b', '--no-sandbox'];
    expect(rootsFromArgv(argv, '/home/dev')).toEqual([resolve('/home/dev/projects/a'), '/data/b']);
  });

  it('ignores a --root with no folder after it instead of swallowing the next switch', () => {
    expect(rootsFromArgv(['.', '--root', '--inspect'], '/w')).toEqual([]);
    expect(rootsFromArgv(['.', '--root'], '/w')).toEqual([]);
    expect(rootsFromArgv(['.', '--root='], '/w')).toEqual([]);
  });

  it('returns nothing when no root was given', () => {
    expect(rootsFromArgv(['/opt/Session Vault/session-vault', '--enable-logging'], '/w')).toEqual([]);
  });
});
