// Agents a Claude Code workflow run started (<session>/subagents/workflows/<run>/agent-*.jsonl) are read and linked to their session.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { claudeCodeReader } from './claude-code.ts';

/*
 * Constructed fixture (no public sample exists, see samples/MANIFEST.md "Not obtained"): the layout is the one
 * Claude Code writes for workflow runs (transcript `agent-<id>.jsonl` with `agent-<id>.meta.json` {label, phase,
 * model} and the run's `journal.jsonl` beside them), as public session archives and workflow tooling describe it;
 * the records are the same sidechain records as a Task sub-agent's (main/sources/claude-code/fixtures).
 */
const SESSION = '4a1b2c3d-0000-4000-8000-00000000000a';
const RUN = 'wf_57c6a296-6f2';
const AGENT = 'a7748a49cbfabf1b6';

function line(o: object): string {
  return JSON.stringify(o);
}

function writeProject(): { parent: string; agent: string; journal: string } {
  const project = join(testTempDir('sv-cc-wf-'), 'projects', '-home-u-prism');
  const runDir = join(project, SESSION, 'subagents', 'workflows', RUN);
  mkdirSync(runDir, { recursive: true });
  const base = { cwd: '/home/u/prism', sessionId: SESSION, version: '2.1.150', gitBranch: 'main', userType: 'external' };
  const parent = join(project, `${SESSION}.jsonl`);
  writeFileSync(
    parent,
    [
      line({
        ...base,
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        uuid: 'u-1',
        timestamp: '2026-06-03T01:12:00.000Z',
        message: { role: 'user', content: 'Survey the corpus with a workflow' },
      }),
      line({
        ...base,
        parentUuid: 'u-1',
        isSidechain: false,
        type: 'assistant',
        uuid: 'a-1',
        timestamp: '2026-06-03T01:12:05.000Z',
        requestId: 'req_1',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-5',
          content: [{ type: 'text', text: 'Starting the workflow.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      }),
    ].join('\n') + '\n',
  );
  const agent = join(runDir, `agent-${AGENT}.jsonl`);
  writeFileSync(
    agent,
    [
      line({
        ...base,
        parentUuid: null,
        isSidechain: true,
        agentId: AGENT,
        type: 'user',
        uuid: 's-1',
        timestamp: '2026-06-03T01:12:46.274Z',
        message: { role: 'user', content: 'Reconnoiter the golden corpus' },
      }),
      line({
        ...base,
        parentUuid: 's-1',
        isSidechain: true,
        agentId: AGENT,
        type: 'assistant',
        uuid: 's-2',
        timestamp: '2026-06-03T01:19:06.512Z',
        requestId: 'req_2',
        message: {
          id: 'msg_2',
          type: 'message',
          role: 'assistant',
          model: 'claude-haiku-4-5-20251001',
          content: [{ type: 'text', text: 'Found 31 files.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 900, output_tokens: 60, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      }),
    ].join('\n') + '\n',
  );
  writeFileSync(join(runDir, `agent-${AGENT}.meta.json`), JSON.stringify({ label: 'recon', phase: 'explore', model: 'claude-haiku-4-5-20251001' }));
  const journal = join(runDir, 'journal.jsonl');
  writeFileSync(journal, `${line({ type: 'started', agentId: AGENT, label: 'recon', phase: 'explore' })}\n`);
  return { parent, agent, journal };
}

describe('Claude Code workflow agents', () => {
  it("claims the run's agent transcripts and not its journal or meta", () => {
    const { agent, journal } = writeProject();
    expect(claudeCodeReader.claims(agent)).toBe(true);
    expect(claudeCodeReader.claims(journal)).toBe(false);
    expect(claudeCodeReader.claims(agent.replace(/\.jsonl$/, '.meta.json'))).toBe(false);
  });

  it("reads an agent as a sub-agent of its session, named by its workflow label, and lists it among the session's children", async () => {
    const { parent, agent } = writeProject();
    const child = await claudeCodeReader.read(agent);
    expect(() => Session.parse(child)).not.toThrow();
    expect(child.key).toBe(`claude-code:${SESSION}/agent-${AGENT}`);
    expect(child.parentKey).toBe(`claude-code:${SESSION}`);
    expect(child.title).toBe('recon');
    expect(child.extra).toMatchObject({ workflowRun: RUN, workflowPhase: 'explore', agentType: 'workflow agent' });
    expect(child.usage?.output).toBe(60);
    expect(child.sourceFiles.map((f) => f.role)).toEqual(['primary', 'meta']);

    const session = await claudeCodeReader.read(parent);
    expect(session.childKeys).toEqual([child.key]);
  });
});
