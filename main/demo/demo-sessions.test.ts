// Tests that the generated part of the demo set (Vizier, JidoCode) is written atomically and reads back through the normal readers.
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../shared/session.ts';
import { findReader } from '../sources/registry.ts';
import { writeDemoSessions } from './demo-sessions.ts';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const minutesBefore = (now: number, minutes: number) => new Date(now - minutes * 60_000).toISOString();

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

async function readAll(dir: string): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const path of walk(dir)) {
    const reader = findReader(path);
    if (!reader) continue;
    sessions.push(Session.parse(await reader.read(path)));
  }
  return sessions;
}

describe('writeDemoSessions', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'demo-set-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes Vizier and JidoCode sessions in their tools' layouts that read back without warnings", async () => {
    await writeDemoSessions(dir, NOW, null);
    const files = walk(dir).map((p) => p.slice(dir.length + 1));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((f) => !findReader(join(dir, f)))).toEqual(['trailhead/.vizier/sessions/0196a0c1-4e2b-7d31-8f5a-2c9e1b7d4a01/proposal-1.diff']);
    const sessions = await readAll(dir);
    expect(sessions.map((s) => s.warnings)).toEqual(sessions.map(() => []));
    expect(sessions.filter((s) => s.format === 'vizier')).toHaveLength(4);
    expect(sessions.filter((s) => s.format === 'jido-code')).toHaveLength(3);
    expect(new Set(sessions.map((s) => s.project.name))).toEqual(new Set(['trailhead', 'quill-cli', 'weather-station', 'dotfiles', 'nightly-report']));
  });

  it('covers an accepted chain with its diff, a rejected revert, an open session, a real-writer run and JidoCode usage', async () => {
    await writeDemoSessions(dir, NOW, null);
    const sessions = await readAll(dir);
    const byOutcome = (status: string) => sessions.find((s) => s.outcome?.status === status);

    const accepted = byOutcome('accepted');
    expect(accepted?.operations.map((o) => o.type)).toEqual(['proposal', 'gate_open', 'gate_accept', 'apply_diff', 'test_run']);
    expect(accepted?.artifacts[0]?.resolvedPath).toBe(join(dir, 'trailhead/.vizier/sessions/0196a0c1-4e2b-7d31-8f5a-2c9e1b7d4a01/proposal-1.diff'));
    expect(accepted?.project.path).toBe(join(dir, 'trailhead'));

    expect(byOutcome('rejected')?.operations.at(-1)).toMatchObject({ type: 'revert', vcs: { restoredSha: expect.any(String) } });

    const open = byOutcome('open');
    expect(open?.status).toBe('open');
    expect(open?.updatedAt).toBe(minutesBefore(NOW, 2));

    const real = sessions.find((s) => s.formatVersion === 'vizier.session.v1');
    expect(real?.project.name).toBe('quill-cli');
    expect(real?.operations.map((o) => o.status)).toEqual(['failed', 'passed']);
    expect(real?.createdAt).toBe(minutesBefore(NOW, 300));

    const jido = sessions.filter((s) => s.format === 'jido-code');
    expect(jido.every((s) => s.todos.length > 0 && s.status === 'closed')).toBe(true);
    const station = jido.find((s) => s.title === 'weather-station');
    expect(station?.usage).toMatchObject({ input: 8600, output: 438 });
    expect(station?.cost?.usd).toBeCloseTo(0.03237, 6);
    expect(station?.messages.some((m) => m.parts[0]?.type === 'tool_result')).toBe(true);
  });

  it('is idempotent: a second run refreshes the same files with newer timestamps', async () => {
    await writeDemoSessions(dir, NOW, null);
    const first = walk(dir).sort();
    const later = NOW + 3 * 24 * 60 * 60_000;
    await writeDemoSessions(dir, later, null);
    expect(walk(dir).sort()).toEqual(first);
    const open = (await readAll(dir)).find((s) => s.outcome?.status === 'open');
    expect(open?.updatedAt).toBe(minutesBefore(later, 2));
  });
});
