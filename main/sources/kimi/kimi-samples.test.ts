// Reads the Kimi samples of the shared corpus (kimi-cli folders and a Kimi Code journal) and checks the facts they imply.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { walkFiles } from '../../catalogue/walk.ts';
import { kimiReader, readKimiFile } from './kimi.ts';

const base = join(samplesDir, 'kimi');
const CODE = '.kimi-code/sessions/wd_project_ac3bb318f98e/session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5';

async function read(rel: string): Promise<Session> {
  const path = join(base, rel);
  expect(kimiReader.claims(path)).toBe(true);
  return valid(await readKimiFile(path, statSync(path).mtimeMs + 3600_000));
}

const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('Kimi samples', () => {
  it('lists each session folder once: context.jsonl is the session, wire.jsonl (left to it) and state.json are read through it', async () => {
    expect(kimiReader.claims(join(base, '.kimi/sessions/project-hash/session-1', 'state.json'))).toBe(false);
    const found: string[] = [];
    for await (const path of walkFiles(join(base, '.kimi'), (p) => kimiReader.claims(p))) found.push(path.slice(base.length + 1));
    expect(found.sort()).toEqual(['.kimi/sessions/project-hash/session-1/context.jsonl', '.kimi/sessions/project-hash/session-2/context.jsonl']);
    expect(kimiReader.claims(join(base, CODE, 'state.json'))).toBe(false);
  });

  it('reads kimi-cli session 1: custom title from state.json, thinking, an OpenAI-style call paired with its result, wire times', async () => {
    const s = await read('.kimi/sessions/project-hash/session-1/context.jsonl');
    expect([s.key, s.title, s.status, s.createdAt, s.updatedAt]).toEqual([
      'kimi:session-1',
      'Implement Kimi provider',
      'closed',
      '2026-02-02T02:40:00.000Z',
      '2026-02-02T02:40:10.250Z',
    ]);
    expect(shape(s)).toEqual(['user:text', 'assistant:thinking+text+tool_call', 'tool:tool_result', 'assistant:text']);
    expect(s.messages[1]?.parts[2]).toEqual({ type: 'tool_call', callId: 'tool_1', name: 'Shell', input: { command: 'rg provider' } });
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 'tool_1', output: 'src-tauri/src/providers/mod.rs', isError: null });
    expect(countToolCalls(s)).toBe(1);
    expect(s.messages[0]?.timestamp).toBe('2026-02-02T02:40:00.000Z');
    expect(s.systemPrompt?.text).toBe('You are Kimi Code CLI.');
    expect(s.sourceFiles.map((f) => [f.path.slice(base.length + 1), f.role])).toEqual([
      ['.kimi/sessions/project-hash/session-1/context.jsonl', 'primary'],
      ['.kimi/sessions/project-hash/session-1/wire.jsonl', 'transcript'],
      ['.kimi/sessions/project-hash/session-1/state.json', 'meta'],
    ]);
    expect([s.usage, s.warnings, s.extra]).toEqual([null, [], { wireProtocol: '1', turns: 1, contextTokens: 12, otherRecords: { _checkpoint: 1, _usage: 1 } }]);
  });

  it('reads kimi-cli session 2: an empty custom title gives way to the first prompt', async () => {
    const s = await read('.kimi/sessions/project-hash/session-2/context.jsonl');
    expect([s.key, s.title, s.createdAt, s.updatedAt]).toEqual([
      'kimi:session-2',
      'Second session prompt',
      '2026-02-02T02:41:40.000Z',
      '2026-02-02T02:42:00.000Z',
    ]);
    expect(shape(s)).toEqual(['user:text', 'assistant:text']);
  });

  it('reads the Kimi Code main agent: the user turns of a cancelled and a retried turn, model, work dir from state.json', async () => {
    const s = await read(`${CODE}/agents/main/wire.jsonl`);
    expect([s.key, s.id, s.title, s.project.path, s.status, s.formatVersion]).toEqual([
      'kimi:session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5',
      'session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5',
      'hi',
      '/private/tmp/as-agent-lab/kimi/project',
      'closed',
      '1.4',
    ]);
    expect(s.messages.map((m) => (m.parts[0]?.type === 'text' ? m.parts[0].text : ''))).toEqual(['hi', 'hi', 'stop']);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'user', 'user']);
    expect(s.model).toEqual({ provider: 'kimi', name: 'kimi-k2.7-code', parameters: { thinkingEffort: 'on' } });
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-07-25T03:35:09.920Z', '2026-08-13T23:38:39.435Z']);
    expect([s.usage, s.parentKey, s.childKeys, s.warnings]).toEqual([null, null, [], []]);
    expect(s.extra).toMatchObject({ modelAlias: 'moonshot-ai/kimi-k2.7-code', cancelledTurns: 2, turns: 2, agentId: 'main' });
    expect((s.extra.otherRecords as Record<string, number>)['llm.request']).toBe(13);
  });
});
