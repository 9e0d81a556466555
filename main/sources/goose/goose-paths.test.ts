// Which paths are Goose's stores, where Goose keeps them on each system and under its override variables, and how a session resumes.
import { afterEach, describe, expect, it } from 'vitest';
import { gooseReader } from './goose.ts';

const saved = process.env.GOOSE_PATH_ROOT;
afterEach(() => {
  if (saved === undefined) delete process.env.GOOSE_PATH_ROOT;
  else process.env.GOOSE_PATH_ROOT = saved;
});

describe('Goose paths', () => {
  it.each([
    ['/home/u/.local/share/goose/sessions/sessions.db', true],
    ['/Users/u/Library/Application Support/goose/sessions/sessions.db', true],
    ['/Users/u/Library/Application Support/Block/goose/sessions/sessions.db', true],
    ['C:/Users/u/AppData/Roaming/Block/goose/data/sessions/sessions.db', true],
    ['/home/u/.local/share/goose/sessions/sessions.db-wal', false],
    ['/home/u/.local/share/goose/sessions/20250101_1.jsonl', false],
    ['/home/u/.local/share/devin/cli/sessions.db', false],
    ['/srv/goose-root/data/sessions/sessions.db', false],
  ])('%s claimed: %s', (path, claimed) => {
    expect(gooseReader.claims(path)).toBe(claimed);
  });

  it('claims the store under GOOSE_PATH_ROOT, and looks only there when it is set', () => {
    process.env.GOOSE_PATH_ROOT = '/srv/goose-root';
    expect(gooseReader.claims('/srv/goose-root/data/sessions/sessions.db')).toBe(true);
    expect(gooseReader.defaultRoots({ GOOSE_PATH_ROOT: '/srv/goose-root' }, '/home/u')).toEqual(['/srv/goose-root/data/sessions']);
  });

  it('looks in the XDG data folder (XDG_DATA_HOME when set), the macOS folders and the Windows one', () => {
    expect(gooseReader.defaultRoots({}, '/home/u')).toEqual([
      '/home/u/.local/share/goose/sessions',
      '/home/u/Library/Application Support/goose/sessions',
      '/home/u/Library/Application Support/Block/goose/sessions',
      '/home/u/AppData/Roaming/Block/goose/data/sessions',
    ]);
    expect(gooseReader.defaultRoots({ XDG_DATA_HOME: '/data/xdg' }, '/home/u')[0]).toBe('/data/xdg/goose/sessions');
  });

  it('resumes a session by its id', () => {
    expect(gooseReader.resumeCommand({ id: '20251108_1', isSubAgent: false })).toBe('goose session --resume --session-id 20251108_1');
  });
});
