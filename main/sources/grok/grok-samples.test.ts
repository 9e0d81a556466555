// The Grok reader over the sample corpus (samples/grok): three session folders, one of them a sub-agent, one forked.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { grokReader, readGrokFolder } from './grok.ts';

const sessions = join(samplesDir, 'grok/.grok/sessions');
const LAB = '%2Ftmp%2Fas-agent-lab%2Fgrok%2Fproject';
const AUDIT = '%2Fworkspace%2Fgrok-worktrees%2Fparser-audit';
const DAY = 24 * 3600_000;

async function read(rel: string): Promise<Session> {
  const path = join(sessions, rel, 'summary.json');
  expect(grokReader.claims(path)).toBe(true);
  for (const companion of ['chat_history.jsonl', 'signals.json']) {
    expect(grokReader.claims(join(sessions, rel, companion))).toBe(false);
    expect(grokReader.companion?.(join(sessions, rel, companion))).toBe(true);
  }
  return valid(await readGrokFolder(path, statSync(path).mtimeMs + DAY));
}

const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('Grok samples', () => {
  it('019f6851-…755: reasoning, tool calls paired with results, a backend web search, an injected context row and an image prompt', async () => {
    const s = await read(`${LAB}/019f6851-7ec4-7ef0-97d3-03f3eee38755`);
    expect(s.key).toBe('grok:019f6851-7ec4-7ef0-97d3-03f3eee38755');
    expect(s.title).toBe('Read hello.py and summarize what it prints');
    expect(shape(s)).toEqual([
      'system:text',
      'user:text',
      'assistant:thinking+text+tool_call',
      'tool:tool_result',
      'assistant:tool_call+tool_result',
      'assistant:tool_call',
      'tool:tool_result',
      'assistant:thinking',
      'user:image+text',
    ]);
    expect(countToolCalls(s)).toBe(3);
    const calls = s.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_call' ? [p.callId] : [])));
    const results = s.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_result' ? [p.callId] : [])));
    expect(results).toEqual(calls);
    expect(s.messages[2]!.parts[2]).toEqual({
      type: 'tool_call',
      callId: 'call-00000000-0000-4000-8000-000000000002-0',
      name: 'read_file',
      input: { target_file: '/tmp/as-agent-lab/grok/project/hello.py' },
    });
    expect(s.messages[0]!.annotations).toMatchObject({ syntheticReason: 'environment_context' });
    // The scrubbed data URL keeps its media type but no bytes.
    expect(s.messages[8]!.parts[0]).toEqual({ type: 'image', mediaType: 'image/png', data: null, url: null });
    expect(s.systemPrompt?.text).toMatch(/^You are Grok 4.5/);
    expect(s.project).toEqual({
      path: '/tmp/as-agent-lab/grok/project',
      name: 'project',
      branch: 'main',
      headCommit: '0000000000000000000000000000000000000000',
    });
    expect(s.model).toEqual({ provider: 'xai', name: 'grok-4.5', parameters: { reasoningEffort: 'high' } });
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-07-31T10:13:27.574Z', '2026-07-31T10:15:02.118Z']);
    expect(s.summary?.overview).toBe('Read hello.py and reported its printed output.');
    // No updates.jsonl in the fixture: no per-message times and no tokens.
    expect(s.messages.every((m) => m.timestamp === null)).toBe(true);
    expect([s.usage, s.cost, s.parentKey, s.childKeys]).toEqual([null, null, null, []]);
    expect(s.messages[2]!.origin).toEqual({ fileIndex: 1, line: 5, pointer: null });
    expect(s.warnings).toEqual([]);
  });

  it('019f6851-…756: a sub-agent session (explore) whose parent recorded no link in the fixture', async () => {
    const s = await read(`${LAB}/019f6851-7ec4-7ef0-97d3-03f3eee38756`);
    expect(s.title).toBe('Count the Python files under the project root');
    expect(shape(s)).toEqual(['user:text', 'assistant:text+tool_call', 'tool:tool_result', 'assistant:text']);
    // The repository's remotes and the sandbox profile, as summary.json records them.
    expect(s.extra).toMatchObject({
      sessionKind: 'subagent',
      agentName: 'explore',
      gitRemotes: ['git@github.com:example-user/example.git'],
      sandboxProfile: 'off',
    });
    expect(s.parentKey).toBeNull();
    expect(s.warnings).toEqual([]);
  });

  it('019f6000-…001: written by Grok Build itself: project instructions, an interjection, signals, a fork parent', async () => {
    const s = await read(`${AUDIT}/019f6000-0000-7000-8000-000000000001`);
    expect(s.title).toBe('Audit Grok compatibility');
    expect(shape(s)).toEqual([
      'system:text',
      'user:text',
      'assistant:thinking+tool_call+tool_result',
      'assistant:text+tool_call',
      'tool:tool_result',
      'user:text',
      'assistant:text',
    ]);
    expect(s.messages[5]!.annotations).toEqual({ interjection: true });
    expect(s.project).toEqual({ path: '/workspace/grok-worktrees/parser-audit', name: 'parser-audit', branch: 'feature/parser-audit', headCommit: null });
    expect(s.extra).toMatchObject({
      forkedFrom: 'grok:019f5000-0000-7000-8000-000000000000',
      sourceWorkspace: '/workspace/agentsview',
      signals: { turnCount: 2, contextTokensUsed: 12000 },
    });
    expect(s.parentKey).toBeNull();
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'transcript', 'meta']);
    expect(s.warnings).toEqual([]);
  });
});
