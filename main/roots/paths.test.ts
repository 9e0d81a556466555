// Path checks: what counts as inside a folder the user made known, and where a link really points.
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonical, expandHome, isWithin } from './paths.ts';

describe('isWithin', () => {
  it('holds for the folder itself and anything below it', () => {
    expect(isWithin('/home/me/.claude', '/home/me/.claude')).toBe(true);
    expect(isWithin('/home/me/.claude', '/home/me/.claude/projects/x/s.jsonl')).toBe(true);
    expect(isWithin('/', '/anything/at/all')).toBe(true);
  });

  it('does not hold for a sibling that shares a prefix, a parent, or another folder', () => {
    expect(isWithin('/home/me/.claude', '/home/me/.claude-old/s.jsonl')).toBe(false);
    expect(isWithin('/home/me/.claude', '/home/me')).toBe(false);
    expect(isWithin('/home/me/.claude', '/srv/.claude/s.jsonl')).toBe(false);
  });

  it('accepts a folder given with a trailing separator', () => {
    expect(isWithin('/home/me/', '/home/me/a.json')).toBe(true);
  });
});

describe('expandHome', () => {
  it('expands a leading ~ and leaves other paths alone', () => {
    expect(expandHome('~', '/home/me')).toBe('/home/me');
    expect(expandHome('~/.codex', '/home/me')).toBe('/home/me/.codex');
    expect(expandHome('/tmp/~x', '/home/me')).toBe('/tmp/~x');
  });
});

describe('canonical', () => {
  it('follows a link to where it points, and leaves a path that does not exist absolute and normalised', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'sv-canonical-')));
    try {
      await mkdir(join(dir, 'real'));
      await symlink(join(dir, 'real'), join(dir, 'link'));
      expect(await canonical(join(dir, 'link'))).toBe(join(dir, 'real'));
      expect(await canonical(`${dir}/gone/../missing`)).toBe(join(dir, 'missing'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
