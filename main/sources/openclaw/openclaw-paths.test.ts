// Tests which files of OpenClaw's sessions folders are sessions (archives too), which are its own side files, and its roots.
import { describe, expect, it } from 'vitest';
import { claimsOpenClaw, isOpenClawCompanion, openClawFileOf } from './openclaw-paths.ts';
import { openClawReader } from './openclaw.ts';

const SESSIONS = '/home/u/.openclaw/agents/main/sessions';

describe('OpenClaw paths', () => {
  it.each([
    `${SESSIONS}/0b9c.jsonl`,
    '/home/u/.clawdbot/agents/work/sessions/0b9c.jsonl',
    '/home/u/.moltbot/agents/main/sessions/0b9c.jsonl',
    // OPENCLAW_STATE_DIR elsewhere keeps the same agents/<id>/sessions layout.
    '/srv/claw-state/agents/main/sessions/0b9c.jsonl',
  ])('claims the transcript %s', (p) => expect(claimsOpenClaw(p)).toBe(true));

  it('claims deleted and reset archives, with why and when they were set aside', () => {
    expect(openClawFileOf(`${SESSIONS}/0b9c.jsonl.deleted.2026-02-24T09-30-00.000Z`)).toEqual({
      kind: 'archive',
      agentId: 'main',
      sessionId: '0b9c',
      reason: 'deleted',
      at: '2026-02-24T09:30:00.000Z',
    });
    // An archive named by epoch seconds or milliseconds has its time too.
    expect(openClawFileOf(`${SESSIONS}/0b9c.jsonl.deleted.1704067200`)).toMatchObject({ reason: 'deleted', at: '2024-01-01T00:00:00.000Z' });
    expect(openClawFileOf(`${SESSIONS}/0b9c.jsonl.reset.1704067200123`)).toMatchObject({ reason: 'reset', at: '2024-01-01T00:00:00.123Z' });
    expect(openClawFileOf(`${SESSIONS}/0b9c.jsonl.reset.2026-02-24T09-30-00Z`)).toMatchObject({
      kind: 'archive',
      reason: 'reset',
      at: '2026-02-24T09:30:00.000Z',
    });
  });

  it.each([
    `${SESSIONS}/0b9c.trajectory.jsonl`,
    `${SESSIONS}/0b9c.jsonl.lock`,
    `${SESSIONS}/sessions.json`,
    `${SESSIONS}/0b9c.checkpoint.0f1e2d3c-4b5a-4697-8887-766554433221.jsonl`,
    `${SESSIONS}/0b9c.jsonl.bak.2026-02-24T09-30-00.000Z`,
  ])("leaves OpenClaw's own file %s to its session, never reading it as one", (p) => {
    expect(claimsOpenClaw(p)).toBe(false);
    expect(isOpenClawCompanion(p)).toBe(true);
  });

  it.each(['/home/u/.openclaw/agents/main/notes.jsonl', '/home/u/.openclaw/sessions/x.jsonl', `${SESSIONS}/0b9c.jsonl.tmp`])('does not claim %s', (p) => {
    expect(claimsOpenClaw(p)).toBe(false);
  });

  it('looks in every home OpenClaw has had, or where OPENCLAW_DIR / OPENCLAW_STATE_DIR say', () => {
    expect(openClawReader.defaultRoots({}, '/home/u')).toEqual(['.openclaw', '.clawdbot', '.moltbot', '.moldbot'].map((h) => `/home/u/${h}/agents`));
    expect(openClawReader.defaultRoots({ OPENCLAW_DIR: '/a,/b' }, '/home/u')).toEqual(['/a/agents', '/b/agents']);
    expect(openClawReader.defaultRoots({ OPENCLAW_STATE_DIR: '/s' }, '/home/u')).toEqual(['/s/agents']);
    expect(openClawReader.resumeCommand({ id: 'x', isSubAgent: false })).toBeNull();
  });
});
