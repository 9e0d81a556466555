// Tests that each path goes to the one reader whose tool wrote it, and that temp files go to none.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_FORMATS } from '../../shared/source-formats.ts';
import { fixturesOf, formatsWithFixtures } from '../test-support/source-fixtures.ts';
import { findReader, readers } from './registry.ts';

/** Every reader's fixtures, each in its format's folder (`<format>/fixtures/`). */
const fixtureDirs = formatsWithFixtures().map(fixturesOf);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Files that belong to a session without being one: temp files, artifacts, sub-agent meta, ProjectHub's index and transcripts. */
function isCompanion(path: string): boolean {
  return (
    /\.tmp(-\d+-\d+)?$/.test(path) ||
    /\.(patch|diff|db)$/.test(path) ||
    path.endsWith('.meta.json') ||
    path.includes('/.projecthub/transcripts/') ||
    path.endsWith('/accounting.jsonl') ||
    path.includes('/payloads/')
  );
}

describe('findReader', () => {
  it('routes each tool layout to its reader', () => {
    expect(findReader('/home/u/repo/.vizier/sessions/0193/session.json')?.format).toBe('vizier');
    expect(findReader('/home/u/.jido_code/sessions/5b1f.json')?.format).toBe('jido-code');
  });

  it.each([
    '/home/u/repo/.vizier/sessions/0193/session.json.tmp',
    '/home/u/.jido_code/sessions/5b1f.json.tmp',
    '/home/u/notes/session.json',
    '/home/u/.jido_code/settings.json',
  ])('finds no reader for %s', (path) => {
    expect(findReader(path)).toBeUndefined();
  });

  it('has one reader per format, each a format the contract knows, with absolute default folders and a resume rule', () => {
    const formats = readers.map((r) => r.format);
    expect(new Set(formats).size).toBe(formats.length);
    expect(formats.every((f) => f !== 'vault' && SOURCE_FORMATS.includes(f))).toBe(true);
    for (const reader of readers) {
      for (const root of reader.defaultRoots({ HOME: '/home/u' }, '/home/u')) expect(isAbsolute(root)).toBe(true);
      const command = reader.resumeCommand({ id: "it's-1", isSubAgent: false });
      // An id with a quote in it is passed to the shell as one argument.
      if (command !== null) expect(command).toContain(`'it'\\''s-1'`);
    }
  });

  it('claims every fixture session by exactly one reader and reads it cleanly, leaving temp files and artifacts alone', async () => {
    const claimed: string[] = [];
    for (const path of fixtureDirs.flatMap((dir) => walk(dir))) {
      const owners = readers.filter((r) => r.claims(path));
      if (isCompanion(path)) {
        expect(owners).toEqual([]);
        continue;
      }
      expect(owners).toHaveLength(1);
      const session = await owners[0]!.read(path);
      expect(session.warnings).toEqual([]);
      claimed.push(session.key);
    }
    // Readers without fixtures of their own (checked on samples/ by conformance.test.ts) claim none here.
    const perFormat = Object.fromEntries(
      readers.map((r) => [r.format, claimed.filter((k) => k.startsWith(`${r.format}:`)).length] as const).filter(([, n]) => n > 0),
    );
    expect(perFormat).toEqual({ vizier: 3, 'jido-code': 3, 'claude-code': 5, projecthub: 2, 'ai-agent': 4, codex: 3, gemini: 3 });
  });
});
