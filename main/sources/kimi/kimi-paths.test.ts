// Tests which Kimi files are sessions (one per session folder or agent) and which are their companions.
import { describe, expect, it } from 'vitest';
import { claimsKimi, isKimiCompanion, kimiLayoutOf } from './kimi-paths.ts';
import { kimiReader } from './kimi.ts';
import { isShadowedTwin } from '../../catalogue/walk-rules.ts';

const CLI = '/home/u/.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/1b7c';
const CODE = '/home/u/.kimi-code/sessions/wd_app_0123456789ab/session_9eb1';

describe('kimiLayoutOf', () => {
  it('takes context.jsonl as the kimi-cli session, and an older folder’s lone wire.jsonl (left to the context beside it)', () => {
    expect(kimiLayoutOf(`${CLI}/context.jsonl`)).toEqual({ kind: 'cli', sessionDir: CLI, sessionId: '1b7c' });
    expect(kimiLayoutOf(`${CLI}/wire.jsonl`)).toEqual({ kind: 'cli', sessionDir: CLI, sessionId: '1b7c' });
    expect(kimiLayoutOf(`${CLI}/subagents/a1/wire.jsonl`)).toEqual({ kind: 'cli-subagent', sessionDir: CLI, sessionId: '1b7c', agentId: 'a1' });
    expect(isShadowedTwin('wire.jsonl', (n) => n === 'context.jsonl', CLI)).toBe(true);
    expect(isShadowedTwin('wire.jsonl', () => false, CLI)).toBe(false);
    // A Kimi Code agent's wire is its session whatever lies beside it.
    expect(isShadowedTwin('wire.jsonl', (n) => n === 'context.jsonl', `${CODE}/agents/main`)).toBe(false);
    // KIMI_SHARE_DIR elsewhere: the work-dir folder is still an MD5.
    expect(claimsKimi('/data/kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/1b7c/context.jsonl')).toBe(true);
  });

  it('claims kimi-cli sub-agent instances and every Kimi Code agent journal', () => {
    expect(kimiLayoutOf(`${CLI}/subagents/a1/context.jsonl`)).toEqual({ kind: 'cli-subagent', sessionDir: CLI, sessionId: '1b7c', agentId: 'a1' });
    expect(kimiLayoutOf(`${CODE}/agents/main/wire.jsonl`)).toEqual({ kind: 'code', sessionDir: CODE, sessionId: 'session_9eb1', agentId: 'main' });
    expect(kimiLayoutOf(`${CODE}/agents/explore-2/wire.jsonl`)).toMatchObject({ kind: 'code', agentId: 'explore-2' });
  });

  it.each([
    `${CLI}/state.json`,
    `${CLI}/context_1.jsonl`,
    // kimi-cli's temp file while it prepends a system prompt.
    `${CLI}/context.tmp`,
    `${CLI}/subagents/a1/meta.json`,
    `${CODE}/state.json`,
    '/home/u/.kimi-code/session_index.jsonl',
  ])('leaves %s to its session as a companion', (p) => {
    expect(claimsKimi(p)).toBe(false);
    expect(isKimiCompanion(p)).toBe(true);
  });

  it.each(['/home/u/notes/sessions/a/b/context.jsonl', '/home/u/.codex/session_index.jsonl', `${CODE}/agents/main/other.jsonl`])(
    'neither claims nor keeps %s',
    (p) => {
      expect(claimsKimi(p)).toBe(false);
      expect(isKimiCompanion(p)).toBe(false);
    },
  );
});

describe('Kimi roots and resume', () => {
  it('honours KIMI_SHARE_DIR, KIMI_HOME, KIMI_DATA_DIR (comma-separated) and KIMI_CODE_HOME', () => {
    expect(kimiReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.kimi/sessions', '/home/u/.kimi-code/sessions']);
    expect(kimiReader.defaultRoots({ KIMI_SHARE_DIR: '/s' }, '/home/u')[0]).toBe('/s/sessions');
    expect(kimiReader.defaultRoots({ KIMI_HOME: '/k' }, '/home/u')[0]).toBe('/k/sessions');
    expect(kimiReader.defaultRoots({ KIMI_DATA_DIR: '/a,/b', KIMI_CODE_HOME: '/c' }, '/home/u')).toEqual(['/a/sessions', '/b/sessions', '/c/sessions']);
  });

  it('resumes a session with kimi --session, a sub-agent through its parent', () => {
    expect(kimiReader.resumeCommand({ id: 'session_9eb1', isSubAgent: false })).toBe('kimi --session session_9eb1');
    expect(kimiReader.resumeCommand({ id: 'session_9eb1/a1', isSubAgent: true })).toBeNull();
  });
});
