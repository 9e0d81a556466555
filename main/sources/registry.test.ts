// Tests that each path goes to the one reader whose tool wrote it, and that temp files go to none.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findReader, readers } from './registry.ts';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

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

  it('has one reader per format, each with a label', () => {
    const formats = readers.map((r) => r.format);
    expect(new Set(formats).size).toBe(formats.length);
    expect(readers.map((r) => r.label)).toEqual(['Vizier', 'JidoCode', 'Claude Code', 'ProjectHub', 'ai-agent', 'Codex CLI', 'Gemini CLI']);
  });

  it('claims every fixture session by exactly one reader and reads it cleanly, leaving temp files and artifacts alone', async () => {
    const claimed: string[] = [];
    for (const path of walk(fixtures)) {
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
    const perFormat = Object.fromEntries(readers.map((r) => [r.format, claimed.filter((k) => k.startsWith(`${r.format}:`)).length]));
    expect(perFormat).toEqual({ vizier: 3, 'jido-code': 3, 'claude-code': 5, projecthub: 2, 'ai-agent': 4, codex: 3, gemini: 3 });
  });
});
