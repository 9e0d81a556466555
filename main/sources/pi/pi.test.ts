// Tests the Pi reader on files in Pi's and oh-my-pi's real layouts: malformed lines, sub-agent links, roots, resume.
import { mkdtempSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { valid } from '../../test-support/reader-checks.ts';
import { readHead } from '../head.ts';
import { piReader, readPiFile } from './pi.ts';

const home = mkdtempSync(join(tmpdir(), 'sv-pi-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const jsonl = (...values: unknown[]) => `${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')}\n`;
const header = (id: string) => ({ type: 'session', version: 3, id, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/dev/app' });
const entry = (id: string, parentId: string | null, message: unknown) => ({ type: 'message', id, parentId, timestamp: '2026-03-01T10:00:01.000Z', message });
const HOUR = 3600_000;

function write(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function read(path: string) {
  expect(piReader.claims(path)).toBe(true);
  return valid(await readPiFile(path, statSync(path).mtimeMs + HOUR));
}

describe('Pi reader', () => {
  it('skips a malformed line and an unknown entry type, with warnings, keeping the rest', async () => {
    const path = write(
      join(home, '.pi/agent/sessions/--home-dev-app--/2026-03-01T10-00-00-000Z_p1.jsonl'),
      jsonl(
        header('p1'),
        entry('a', null, { role: 'user', content: [{ type: 'text', text: 'Fix the login bug' }] }),
        'not valid json -- malformed line',
        { type: 'unknown_future_entry_type', id: 'x', parentId: 'a', timestamp: '2026-03-01T10:00:02.000Z' },
        entry('b', 'x', { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stopReason: 'stop' }),
      ),
    );
    const s = await read(path);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.warnings.map((w) => w.code)).toEqual(['invalid_line', 'unknown_record_type']);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 0, line: 5, pointer: null });
  });

  it('links an oh-my-pi sub-agent to the session whose folder holds it, both ways', async () => {
    const project = join(home, '.omp/agent/sessions/-src-app');
    const parent = write(
      join(project, '2026-03-01T10-00-00-000Z_omp-parent.jsonl'),
      jsonl({ type: 'title', v: 1, title: 'Refactor auth', pad: '      ' }, header('omp-parent'), entry('a', null, { role: 'user', content: 'refactor' })),
    );
    const child = write(
      join(project, '2026-03-01T10-00-00-000Z_omp-parent', 'scout.jsonl'),
      jsonl(header('omp-child'), entry('a', null, { role: 'assistant', content: 'found it' })),
    );
    const p = await read(parent);
    const c = await read(child);
    expect([p.title, p.childKeys, p.extra.fork]).toEqual(['Refactor auth', ['pi:omp-child'], 'oh-my-pi']);
    expect([c.key, c.parentKey, c.title, c.extra.agent]).toEqual(['pi:omp-child', 'pi:omp-parent', 'Sub-agent scout', 'scout']);
    expect(piReader.resumeCommand({ id: c.id, isSubAgent: true })).toBeNull();
  });

  it('does not take a parent linked in from outside the project folder', async () => {
    const outside = write(join(home, 'elsewhere/real-parent.jsonl'), jsonl(header('foreign'), entry('a', null, { role: 'user', content: 'x' })));
    const project = join(home, '.omp/agent/sessions/-linked');
    mkdirSync(join(project, 'p'), { recursive: true });
    symlinkSync(outside, join(project, 'p.jsonl'));
    const child = write(join(project, 'p', 'worker.jsonl'), jsonl(header('w'), entry('a', null, { role: 'user', content: 'x' })));
    expect((await read(child)).parentKey).toBeNull();
  });

  it('is recognised by its header, after an oh-my-pi title slot too', async () => {
    const loose = write(
      join(home, 'Downloads/session.jsonl'),
      jsonl({ type: 'title', v: 1, title: 't' }, header('loose'), entry('a', null, { role: 'user', content: 'x' })),
    );
    expect(piReader.claims(loose)).toBe(false);
    expect(piReader.recognizes?.(await readHead(loose))).toBe(true);
    const other = write(join(home, 'Downloads/other.jsonl'), jsonl({ type: 'session', id: 'x' }, { type: 'user' }));
    expect(piReader.recognizes?.(await readHead(other))).toBe(false);
  });

  it('looks in ~/.pi/agent/sessions and ~/.omp, or where PI_AGENT_DIR / PI_CODING_AGENT_DIR say', () => {
    expect(piReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.pi/agent/sessions', '/home/u/.omp/agent/sessions']);
    expect(piReader.defaultRoots({ PI_CODING_AGENT_DIR: '/data/pi' }, '/home/u')[0]).toBe('/data/pi/sessions');
    expect(piReader.defaultRoots({ PI_AGENT_DIR: '/a/sessions, /b/sessions' }, '/home/u').slice(0, 2)).toEqual(['/a/sessions', '/b/sessions']);
    expect(piReader.resumeCommand({ id: '019e19b4', isSubAgent: false })).toBe('pi --session 019e19b4');
  });
});
