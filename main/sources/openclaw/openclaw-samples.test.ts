// Reads the OpenClaw samples of the shared corpus (and an archived copy of one) and checks the facts they imply.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { claimsOpenClaw } from './openclaw-paths.ts';
import { readOpenClawFile } from './openclaw.ts';

const samples = join(samplesDir, 'openclaw/.openclaw/agents/main/sessions');
const HOUR = 3600_000;

describe('OpenClaw samples', () => {
  const read = async (name: string) => {
    const path = join(samples, name);
    expect(claimsOpenClaw(path)).toBe(true);
    return valid(await readOpenClawFile(path, statSync(path).mtimeMs + HOUR));
  };

  it('reads the small transcript: a tool call paired with its result, the model from model_change', async () => {
    const s = await read('openclaw-stage0-small.jsonl');
    expect([s.key, s.title, s.project.path, s.createdAt, s.updatedAt, s.status]).toEqual([
      'openclaw:openclaw-stage0-small',
      'List files',
      '/tmp/repo',
      '2026-02-24T09:00:00.000Z',
      '2026-02-24T09:00:04.000Z',
      'closed',
    ]);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(countToolCalls(s)).toBe(1);
    expect(s.messages[2]?.parts).toEqual([{ type: 'tool_result', callId: 'tc1', output: 'main.swift\nResources\n', isError: false }]);
    expect(s.model).toEqual({ provider: 'openclaw-model', name: 'openclaw-small', parameters: {} });
    expect([s.usage, s.cost]).toEqual([null, null]);
    // The result names the tool call as its parent, as OpenClaw writes it: kept in order, with nothing to warn about.
    expect(s.warnings).toEqual([]);
    expect(s.extra).toEqual({ version: 3, agentId: 'main' });
  });

  it('reads the drift transcript: custom state counted, a system message, the legacy compact record warned about', async () => {
    const s = await read('openclaw-stage0-drift.jsonl');
    expect([s.title, s.project.path]).toEqual(['Need a quick diagnostic', '/tmp/drift']);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'system']);
    expect(countToolCalls(s)).toBe(1);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 'tc-diagnose', output: 'PASS\n', isError: false });
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([['unknown_record_type', 'Unknown entry type "compact" (1 entry) skipped.']]);
    expect(s.extra).toEqual({ version: 3, otherEntries: { 'custom:ui_state': 1 }, agentId: 'main' });
  });

  it('reads a deleted transcript and marks it: closed, outcome "deleted", closed at the archive time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sv-claw-'));
    try {
      const sessions = join(dir, '.openclaw/agents/main/sessions');
      mkdirSync(sessions, { recursive: true });
      const archived = join(sessions, 'openclaw-stage0-small.jsonl.deleted.2026-03-01T08-15-00.000Z');
      copyFileSync(join(samples, 'openclaw-stage0-small.jsonl'), archived);
      const s = valid(await readOpenClawFile(archived, Date.now()));
      expect([s.key, s.status, s.closedAt, s.outcome?.status, s.extra.archived]).toEqual([
        'openclaw:openclaw-stage0-small',
        'closed',
        '2026-03-01T08:15:00.000Z',
        'deleted',
        'deleted',
      ]);
      expect(s.messages).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
