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
    expect(readers.map((r) => r.label)).toEqual(['Vizier', 'JidoCode']);
  });

  it('claims every fixture session by exactly one reader and reads it cleanly, leaving temp files and artifacts alone', async () => {
    const claimed: string[] = [];
    for (const path of walk(fixtures)) {
      const owners = readers.filter((r) => r.claims(path));
      if (path.endsWith('.tmp') || path.endsWith('.patch')) {
        expect(owners).toEqual([]);
        continue;
      }
      expect(owners).toHaveLength(1);
      const session = await owners[0]!.read(path);
      expect(session.warnings).toEqual([]);
      claimed.push(session.key);
    }
    expect(claimed.filter((k) => k.startsWith('vizier:'))).toHaveLength(3);
    expect(claimed.filter((k) => k.startsWith('jido-code:'))).toHaveLength(3);
  });
});
