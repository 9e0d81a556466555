// Sessions the vault writes are Vizier MVP files: the app's own Vizier reader shows them with nothing lost.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDocument } from '../sources/coerce.ts';
import { claimsVizier, parseVizierDocument, vizierReader } from '../sources/vizier/vizier.ts';
import { openSession } from './open-session.ts';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-roundtrip-'));
});
afterEach(async () => rm(base, { recursive: true, force: true }));

describe('writer output read back by the Vizier reader', () => {
  it('gives the same messages, operations, outcome, config and repo, with no warnings', async () => {
    const sessionsDir = join(base, 'harbor', '.vizier', 'sessions');
    const s = await openSession({
      sessionsDir,
      env: {},
      repo: { root: join(base, 'harbor'), current_branch: 'fix/berths', head_sha: '4be1c09d2f7a' },
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5', temperature: 0.2, thinking_level: 'high' },
      config: { 'model.name': { value: 'claude-sonnet-4-5', provenance: 'CLI' } },
      workflowType: 'chat',
      mode: 'protocol',
      toolVersion: '0.4.1',
    });
    await s.append({ role: 'user', content: 'Fix the berth timezone bug.' });
    await s.append({ role: 'assistant', content: 'Proposed fix-1.patch.', annotations: { diffs_refs: ['fix-1.patch'] } });
    const patch = await s.attach('fix-1.patch', '--- a/x\n+++ b/x\n');
    await s.recordOperation({ type: 'proposal', detail: { diff: patch } });
    await s.recordOperation({
      type: 'gate_open',
      detail: 'commit gate opened',
      vcs: { staged: { M: ['src/booking.ts'], D: ['old.json'], R: [['tz.ts', 'oslo.ts']] } },
    });
    await s.recordOperation({ type: 'gate_accept', detail: 'accepted by user' });
    await s.recordOperation({ type: 'apply_diff', detail: 'applied', vcs: { applied_sha: '7d1e2f0a9c8b' } });
    await s.close({ status: 'accepted', summary: 'Bookings bucketed by Oslo day.', commit_sha: '7d1e2f0a9c8b' });

    const path = s.path as string;
    expect(claimsVizier(path)).toBe(true);
    const { value, ctx } = await readDocument(path);
    const written = s.snapshot();
    const session = parseVizierDocument(value, ctx);

    expect(session.warnings).toEqual([]);
    expect(session.id).toBe(s.id);
    expect(session.status).toBe('closed');
    expect(session.outcome).toEqual({ status: 'accepted', summary: 'Bookings bucketed by Oslo day.', commitSha: '7d1e2f0a9c8b' });
    expect(session.project).toEqual({ path: join(base, 'harbor'), name: 'harbor', branch: 'fix/berths', headCommit: '4be1c09d2f7a' });
    expect(session.messages.map((m) => ({ role: m.role, parts: m.parts, timestamp: m.timestamp, annotations: m.annotations }))).toEqual(
      written?.chat.map((m) => ({
        role: m.role,
        parts: [{ type: 'text', text: m.content }],
        timestamp: new Date(m.ts).toISOString(),
        annotations: m.annotations,
      })),
    );
    expect(session.operations.map((o) => ({ type: o.type, detail: o.detail, vcs: o.vcs }))).toEqual(
      written?.operations.map((o) => ({
        type: o.type,
        detail: o.detail,
        vcs: {
          staged: { A: o.vcs.staged.A, M: o.vcs.staged.M, D: o.vcs.staged.D, R: o.vcs.staged.R.map(([from, to]) => ({ from, to })) },
          appliedSha: o.vcs.applied_sha ?? null,
          restoredSha: o.vcs.restored_sha ?? null,
        },
      })),
    );
    expect(session.config).toContainEqual({ key: 'model.name', value: 'claude-sonnet-4-5', provenance: 'CLI' });
    expect(session.config).toContainEqual({ key: 'redact', value: ['secrets', 'env'], provenance: 'default' });
    expect(session.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5', parameters: { temperature: 0.2, thinkingLevel: 'high' } });
    expect(session.toolVersion).toBe('0.4.1');
    expect(session.extra).toMatchObject({ workflow_type: 'chat', mode: 'protocol' });

    // The attached patch sits beside session.json and the reader resolves it there.
    const read = await vizierReader.read(path);
    expect(read.artifacts).toEqual([
      expect.objectContaining({ path: 'artifacts/fix-1.patch', kind: 'diff', resolvedPath: join(sessionsDir, s.id, 'artifacts/fix-1.patch') }),
    ]);
  });
});
