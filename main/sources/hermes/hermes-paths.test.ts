// Which paths are Hermes's (a home's state.db and sessions/session_*.json, profiles too), where its homes are, and its times.
import { afterEach, describe, expect, it } from 'vitest';
import { hermesReader } from './hermes.ts';
import { epochSecondsToIso, hermesTimestamp } from './hermes-time.ts';

const saved = process.env.HERMES_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.HERMES_HOME;
  else process.env.HERMES_HOME = saved;
});

describe('Hermes paths', () => {
  it.each([
    ['/home/u/.hermes/state.db', true],
    ['/home/u/.hermes/sessions/session_20260429_101500_ab12cd.json', true],
    ['/home/u/.hermes/profiles/work/state.db', true],
    ['/home/u/.hermes/profiles/work/sessions/session_x.json', true],
    ['/home/u/.hermes/sessions/sessions.json', false],
    ['/home/u/.hermes/sessions/session_x.json.tmp', false],
    ['/home/u/.hermes/state.db-wal', false],
    ['/home/u/.hermes/logs/state.db', false],
    ['/home/u/projects/state.db', false],
    ['/home/u/.hermes/profiles/work/nested/state.db', false],
  ])('%s claimed: %s', (path, claimed) => {
    expect(hermesReader.claims(path)).toBe(claimed);
  });

  it('claims the store and transcripts of a HERMES_HOME folder, whatever its name', () => {
    process.env.HERMES_HOME = '/srv/agent-a, /srv/agent-b/';
    expect(hermesReader.claims('/srv/agent-b/state.db')).toBe(true);
    expect(hermesReader.claims('/srv/agent-a/sessions/session_1.json')).toBe(true);
    expect(hermesReader.claims('/srv/agent-c/state.db')).toBe(false);
  });

  it('looks in ~/.hermes, or in every HERMES_HOME folder instead', () => {
    expect(hermesReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.hermes']);
    expect(hermesReader.defaultRoots({ HERMES_HOME: '/srv/a,/srv/b' }, '/home/u')).toEqual(['/srv/a', '/srv/b']);
  });

  it('resumes by id', () => {
    expect(hermesReader.resumeCommand({ id: '20250305_091523_a1b2c3d4', isSubAgent: false })).toBe('hermes --resume 20250305_091523_a1b2c3d4');
  });
});

describe('Hermes times', () => {
  it('reads a time without a zone as local wall-clock time, one with a zone as written, and epoch seconds with their fraction', () => {
    expect(hermesTimestamp('2026-04-03T15:27:21.014566')).toBe(new Date(2026, 3, 3, 15, 27, 21, 14).toISOString());
    expect(hermesTimestamp('2026-04-03T15:27:21+02:00')).toBe('2026-04-03T13:27:21.000Z');
    expect(hermesTimestamp('2026-02-31T10:00:00')).toBeNull();
    expect(epochSecondsToIso(1778767210.25)).toBe('2026-05-14T14:00:10.250Z');
    expect(epochSecondsToIso(0)).toBeNull();
  });
});
