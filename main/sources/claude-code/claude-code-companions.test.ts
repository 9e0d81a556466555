// Claude Code's sub-agent meta files and workflow journals are its own companions: never sniffed as sessions, read through their transcript.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../test-support/samples.ts';
import { isRecognitionCandidate, needsHead, resolveReader } from '../recognize.ts';
import { readers } from '../registry.ts';
import { claudeCodeReader, readClaudeCodeFile } from './claude-code.ts';

const projects = join(samplesDir, 'claude-code/projects');
/** The sample corpus's meta files (samples/MANIFEST.md: "claude-code sub-agent meta"), each beside its transcript. */
const METAS = [
  '-home-user-src-demo/22222222-2222-4222-8222-222222222222/subagents/agent-a1b2c3d4e5f6071.meta.json',
  '-home-user-src-old/66666666-6666-4666-8666-666666666666/subagents/agent-fedcba9876543210.meta.json',
  '-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.meta.json',
];

describe('Claude Code sub-agent meta files', () => {
  it.each(METAS)('%s is a companion: no reader claims it and its head is never read', async (path) => {
    const abs = join(projects, path);
    expect(claudeCodeReader.companion?.(abs)).toBe(true);
    expect(readers.filter((r) => r.claims(abs))).toEqual([]);
    // The scan reads a file only when it is claimed or a recognition candidate; neither holds, so no byte is read.
    expect(isRecognitionCandidate(abs)).toBe(false);
    expect(needsHead(abs)).toBe(false);
    expect(await resolveReader(abs)).toBeUndefined();
  });

  it("is a companion in a workflow run's folder too, as is the run's journal", () => {
    const run = '/home/u/.claude/projects/-home-u-app/s1/subagents/workflows/wf_1';
    expect(claudeCodeReader.companion?.(`${run}/agent-a1.meta.json`)).toBe(true);
    expect(claudeCodeReader.companion?.(`${run}/journal.jsonl`)).toBe(true);
    expect(isRecognitionCandidate(`${run}/journal.jsonl`)).toBe(false);
  });

  it('is not one outside the layout: a loose file of that name is still recognised by its content', () => {
    for (const path of [
      '/home/u/Downloads/agent-a1.meta.json',
      '/home/u/.claude/projects/-home-u-app/agent-a1.meta.json',
      '/home/u/.claude/projects/-home-u-app/s1/subagents/journal.jsonl',
      '/home/u/.claude/projects/-home-u-app/s1/subagents/agent-a1.json',
    ]) {
      expect(claudeCodeReader.companion?.(path), path).toBe(false);
      expect(isRecognitionCandidate(path), path).toBe(true);
    }
  });

  it("gives its sub-agent a title, a type and a place under its parent, and is one of the sub-agent's source files", async () => {
    const session = '-home-user-src-demo/22222222-2222-4222-8222-222222222222';
    const parent = await readClaudeCodeFile(join(projects, `${session}.jsonl`));
    const agentPath = join(projects, session, 'subagents/agent-a1b2c3d4e5f6071.jsonl');
    const agent = await readClaudeCodeFile(agentPath);
    expect(parent.childKeys).toContain(agent.key);
    expect(agent.parentKey).toBe(parent.key);
    // The meta: {"agentType":"general-purpose","description":"[REDACTED_DESCRIPTION]","toolUseId":"toolu_agent_1"}.
    expect([agent.title, agent.extra.agentType, agent.extra.toolUseId]).toEqual(['[REDACTED_DESCRIPTION]', 'general-purpose', 'toolu_agent_1']);
    expect(agent.sourceFiles.map((f) => [f.role, f.path])).toEqual([
      ['primary', agentPath],
      ['meta', agentPath.replace(/\.jsonl$/, '.meta.json')],
    ]);
    expect(parent.operations.find((o) => o.childSessionKey === agent.key)?.id).toBe('toolu_agent_1');
  });
});
