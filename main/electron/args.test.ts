// The desktop command line: every form of `--root DIR` is picked up, bundles to open are found, Chromium's own switches are ignored.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundlesFromArgv, rootsFromArgv, sessionFilesFromArgv } from './args.ts';

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

describe('bundlesFromArgv', () => {
  it('finds .zip files the OS passed to open, resolved, but not a --root value or a switch', () => {
    const argv = ['/opt/Session Vault/session-vault', '--no-sandbox', 'Downloads/team.ZIP', '--root', 'old.zip', '/tmp/b.zip', 'notes.txt'];
    expect(bundlesFromArgv(argv, '/home/dev')).toEqual([resolve('/home/dev/Downloads/team.ZIP'), '/tmp/b.zip']);
  });

  it('never takes the executable itself', () => {
    expect(bundlesFromArgv(['/weird/path/app.zip'], '/w')).toEqual([]);
  });
});

describe('sessionFilesFromArgv', () => {
  it('takes session files the OS passed (not bundles, flags or a --root folder)', () => {
    const argv = ['/opt/sv/session-vault', '--root', '/data/x.jsonl', 'Downloads/run.jsonl', '/tmp/team.zip', '--flag', '/tmp/chat.JSON'];
    expect(sessionFilesFromArgv(argv, '/home/dev')).toEqual([resolve('/home/dev/Downloads/run.jsonl'), '/tmp/chat.JSON']);
  });
});
