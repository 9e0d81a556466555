// The Cursor reader over the sample corpus (samples/cursor-agent): the facts each transcript and its chat store imply.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { readCursorFile } from './cursor.ts';

const projects = join(samplesDir, 'cursor-agent/.cursor/projects');
const DAY = 24 * 3600_000;

interface Facts {
  title: string;
  path: string | null;
  name: string | null;
  messages: number;
  toolCalls: number;
  model: string | null;
  createdAt: string | null;
  parent: string | null;
  children: string[];
}

const SAMPLES: Array<[string, Facts]> = [
  // The chats store names it, dates it and gives its model; its md5 folder name gives the exact workspace path.
  [
    'Users-test-Repository-TestProject/agent-transcripts/a1b2c3d4-e5f6-7890-abcd-ef1234567890/a1b2c3d4-e5f6-7890-abcd-ef1234567890.jsonl',
    {
      title: 'Test Session',
      path: '/Users/test/Repository/TestProject',
      name: 'TestProject',
      messages: 6,
      toolCalls: 2,
      model: 'claude-4-sonnet',
      createdAt: '2026-04-07T00:43:10.321Z',
      parent: null,
      children: ['d88b213c-84e1-427d-bb5e-3859c1011087'],
    },
  ],
  [
    'Users-test-Repository-TestProject/agent-transcripts/a1b2c3d4-e5f6-7890-abcd-ef1234567890/subagents/d88b213c-84e1-427d-bb5e-3859c1011087.jsonl',
    {
      title: 'Run ls -la in the workspace directory and return the output.',
      path: '/Users/test/Repository/TestProject',
      name: 'TestProject',
      messages: 3,
      toolCalls: 1,
      model: null,
      createdAt: null,
      parent: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      children: [],
    },
  ],
  // No chat store: the project folder's name is all there is of the workspace.
  [
    'tmp-repo/agent-transcripts/5ca1ab1e-0000-4000-8000-000000000001/5ca1ab1e-0000-4000-8000-000000000001.jsonl',
    {
      title: 'List the files.',
      path: null,
      name: 'tmp-repo',
      messages: 4,
      toolCalls: 1,
      model: null,
      createdAt: null,
      parent: null,
      children: [],
    },
  ],
  [
    'tmp-repo/agent-transcripts/5ca1ab1e-0000-4000-8000-000000000004/5ca1ab1e-0000-4000-8000-000000000004.jsonl',
    {
      title: 'Run a subagent.',
      path: null,
      name: 'tmp-repo',
      messages: 2,
      toolCalls: 1,
      model: null,
      createdAt: null,
      parent: null,
      children: ['5ca1ab1e-0000-4000-8000-000000000005'],
    },
  ],
  [
    'tmp-repo/agent-transcripts/5ca1ab1e-0000-4000-8000-000000000004/subagents/5ca1ab1e-0000-4000-8000-000000000005.jsonl',
    {
      title: 'List files',
      path: null,
      name: 'tmp-repo',
      messages: 2,
      toolCalls: 0,
      model: null,
      createdAt: null,
      parent: '5ca1ab1e-0000-4000-8000-000000000004',
      children: [],
    },
  ],
];

describe('shared Cursor samples', () => {
  it.each(SAMPLES)('%s', async (rel, facts) => {
    const path = join(projects, rel);
    const mtimeMs = statSync(path).mtimeMs;
    const s = valid(await readCursorFile(path, mtimeMs + DAY));
    expect({
      title: s.title,
      path: s.project.path,
      name: s.project.name,
      messages: s.messages.length,
      toolCalls: countToolCalls(s),
      model: s.model?.name ?? null,
      createdAt: s.createdAt,
      parent: s.parentKey?.replace(/^cursor:/, '') ?? null,
      children: s.childKeys.map((k) => k.replace(/^cursor:/, '')),
    }).toEqual(facts);
    // The lines carry no times: the file's is the session's clock.
    expect([s.updatedAt, s.status, s.usage, s.warnings]).toEqual([new Date(mtimeMs).toISOString(), 'unknown', null, []]);
  });

  it('strips the <user_query> wrapper, keeps a [REDACTED] block, and reads the store as a meta file of the session', async () => {
    const s = await readCursorFile(join(projects, SAMPLES[0]![0]), 0);
    expect(s.messages[0]?.parts).toEqual([{ type: 'text', text: 'run ls command' }]);
    // The tag stays on the message, where the raw view and search find it.
    expect(s.messages[0]?.annotations).toEqual({ wrapper: 'user_query' });
    expect(new Set(s.messages.filter((m) => m.annotations).map((m) => m.role))).toEqual(new Set(['user']));
    expect(extractIndexText(s).more.split(/[^\p{L}\p{N}]+/u)).toEqual(expect.arrayContaining(['user', 'query']));
    expect(s.messages[4]?.parts[0]).toEqual({ type: 'text', text: '[REDACTED]' });
    expect(s.messages[1]?.parts[1]).toEqual({
      type: 'tool_call',
      callId: null,
      name: 'Shell',
      input: { command: 'ls -la /tmp', description: 'List directory contents' },
    });
    expect(s.sourceFiles.map((f) => [f.path.slice(samplesDir.length + 1), f.role])).toEqual([
      ['cursor-agent/.cursor/projects/' + SAMPLES[0]![0], 'primary'],
      ['cursor-agent/.cursor/chats/4666133cd05c622a9301da608ae1efcd/a1b2c3d4-e5f6-7890-abcd-ef1234567890/store.db', 'meta'],
    ]);
    expect(s.extra).toEqual({ projectFolder: 'Users-test-Repository-TestProject', mode: 'default' });
  });

  it('links the one Agent call of the parent to its one sub-agent, and counts the turn_ended line', async () => {
    const parent = await readCursorFile(join(projects, SAMPLES[3]![0]), 0);
    expect(parent.operations.map((o) => [o.type, o.name, o.childSessionKey])).toEqual([['subagent', 'Agent', 'cursor:5ca1ab1e-0000-4000-8000-000000000005']]);
    const small = await readCursorFile(join(projects, SAMPLES[2]![0]), 0);
    expect(small.extra).toEqual({ projectFolder: 'tmp-repo', turns: 1, lastTurnStatus: 'success' });
  });
});
