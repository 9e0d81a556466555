// Tests for the Vizier reader: both schemas, the shared samples, artifacts and path claims.
import { readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import type { DocumentContext } from '../coerce.ts';
import { claimsVizier, parseVizierDocument, vizierReader } from './vizier.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const samples = samplesDir;
const fixtures = join(here, './fixtures/harbor-api/.vizier/sessions');

async function read(path: string): Promise<Session> {
  const session = await vizierReader.read(path);
  return valid(session);
}

function ctxFor(path = '/r/.vizier/sessions/0199-fallback/session.json'): DocumentContext {
  return { path, size: 10, mtimeMs: 1, warnings: [] };
}

describe('claimsVizier', () => {
  it.each(['/home/a/repo/.vizier/sessions/0193-abc/session.json', '/x/.vizier/sessions/id/session.json'])('claims %s', (p) => {
    expect(claimsVizier(p)).toBe(true);
  });

  it.each([
    '/home/a/repo/.vizier/sessions/0193-abc/session.json.tmp',
    '/home/a/repo/.vizier/sessions/session.json',
    '/home/a/repo/vizier/sessions/0193-abc/session.json',
    '/home/a/repo/.vizier/archive/0193-abc/session.json',
    '/home/a/repo/.vizier/sessions/0193-abc/nested/session.json',
    '/home/a/repo/.vizier/sessions/0193-abc/proposal-1.diff',
    '/home/a/.jido_code/sessions/0193-abc.json',
  ])('does not claim %s', (p) => {
    expect(claimsVizier(p)).toBe(false);
  });
});

describe('Vizier fixtures', () => {
  it('reads an MVP session with "messages", provenance, R pairs and plain-string renames, and a resolved patch artifact', async () => {
    const dir = join(fixtures, '0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13');
    const s = await read(join(dir, 'session.json'));
    expect(s.key).toBe('vizier:0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13');
    expect(s.formatVersion).toBe('mvp');
    expect(s.title).toBe('Berth bookings made after 23:00 show up on the wrong day. Fix the timezone hand…');
    expect(s.createdAt).toBe('2026-02-03T08:15:00.250Z');
    expect(s.updatedAt).toBe('2026-02-03T08:41:12.900Z');
    expect(s.project).toEqual({
      path: '/home/sam/work/harbor-api',
      name: 'harbor-api',
      branch: 'fix/berth-timezone',
      headCommit: '4be1c09d2f7a83e5b6c0d1f9a2e4b7c8d3f6a015',
    });
    expect(s.status).toBe('closed');
    expect(s.outcome).toEqual({
      status: 'accepted',
      summary: 'Bookings are now bucketed by Europe/Oslo calendar day; regression test added.',
      commitSha: '7d1e2f0a9c8b4d6e3f5a1b2c0d9e8f7a6b5c4d3e',
    });
    expect(s.config).toEqual([
      { key: 'model.name', value: 'gpt-5-codex', provenance: 'CLI' },
      { key: 'thinking_level', value: 'medium', provenance: 'profile' },
      { key: 'redact', value: ['secrets', 'env'], provenance: 'default' },
    ]);
    expect(s.model).toEqual({ provider: 'openai', name: 'gpt-5-codex', parameters: { temperature: 0.1, thinkingLevel: 'medium' } });
    expect(s.systemPrompt).toEqual({
      path: '.vizier/prompts/system.md',
      hash: '5f0c1e3a9b7d2c4e6a8f0b1d3c5e7a9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a13',
      text: null,
    });
    expect(s.toolVersion).toBe('0.1.2');
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(s.messages[1]).toMatchObject({
      timestamp: '2026-02-03T08:18:40.512Z',
      origin: { fileIndex: 0, line: null, pointer: '/messages/1' },
      annotations: { tool_calls: [{ name: 'read_file', args: { path: 'src/bookings/booking.ts' } }] },
    });
    expect(s.operations.map((o) => o.type)).toEqual(['proposal', 'gate_open', 'gate_accept', 'apply_diff', 'test_run']);
    expect(s.operations[1]?.vcs?.staged).toEqual({
      A: [],
      M: ['src/bookings/booking.ts'],
      D: ['src/time/legacy-offsets.json'],
      R: [
        { from: 'src/time/tz.ts', to: 'src/time/oslo.ts' },
        { from: null, to: 'src/time/index.ts' },
      ],
    });
    expect(s.operations[3]).toMatchObject({
      vcs: { appliedSha: '7d1e2f0a9c8b4d6e3f5a1b2c0d9e8f7a6b5c4d3e', restoredSha: null },
      timestamp: '2026-02-03T08:30:09.775Z',
      origin: { pointer: '/operations/3' },
    });
    expect(s.operations[4]?.detail).toEqual({ command: 'npm test', exit_code: 0, passed: 112, failed: 0, duration_ms: 21877 });
    const patch = join(dir, 'fix-1.patch');
    expect(s.artifacts).toEqual([
      { path: '.vizier/sessions/0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13/fix-1.patch', kind: 'diff', resolvedPath: patch, size: statSync(patch).size },
      { path: '.vizier/narrative/threads/bookings.md', kind: 'markdown', resolvedPath: null, size: null },
    ]);
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([
      [join(dir, 'session.json'), 'primary'],
      [patch, 'artifact'],
    ]);
    expect(s.sourceFiles[0]?.size).toBe(statSync(join(dir, 'session.json')).size);
    expect(s.warnings).toEqual([]);
  });

  it('reads a real-writer merge run in a temporary worktree as part of the owning repository', async () => {
    const s = await read(join(fixtures, '6d2a91f0-3b7c-4e58-a1d9-0c4f7e2b8a35', 'session.json'));
    expect(s.formatVersion).toBe('vizier.session.v1');
    expect(s.createdAt).toBe('2026-02-10T16:20:45.123Z');
    expect(s.updatedAt).toBe('2026-02-10T16:27:03.500Z');
    expect(s.project).toEqual({
      path: '/home/sam/work/harbor-api',
      name: 'harbor-api',
      branch: 'draft/tide-tables',
      headCommit: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9',
    });
    expect(s.extra).toMatchObject({
      workflow_type: 'merge',
      mode: 'default',
      worktree: '/home/sam/work/harbor-api/.vizier/tmp-worktrees/tide-tables-3e9a1c07',
      agent: { exit_code: 0, duration_ms: 65210 },
      system_prompt_kind: 'merge_conflict',
    });
    expect(s.title).toBe('Resolve the conflict in src/tides/table.ts keeping both the cache and the new s…');
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(s.model).toEqual({ provider: 'agent', name: 'codex', parameters: { reasoningEffort: 'high' } });
    expect(s.config.map((c) => [c.key, c.provenance])).toEqual([
      ['backend', null],
      ['agent.label', null],
      ['agent.command', null],
    ]);
    expect(s.operations).toHaveLength(1);
    expect(s.operations[0]).toMatchObject({ type: 'cicd_gate', name: './cicd.sh', status: 'passed', latencyMs: 40112, vcs: null, timestamp: null });
    expect(s.outcome?.status).toBe('completed');
    expect(s.status).toBe('closed');
    expect(s.systemPrompt).toEqual({ path: null, hash: '0d1c2b3a49586776a5b4c3d2e1f0a9b8c7d6e5f40312a1b0c9d8e7f6a5b4c3d2', text: null });
  });

  it('reads the early writer variant (message_type + api) with the per-message model', async () => {
    const s = await read(join(fixtures, '9e41b7c2-58d0-4a6f-b3e1-7f2c0d9a4b86', 'session.json'));
    expect(s.title).toBe('Which endpoint returns the berth occupancy for a given week?');
    expect(s.messages.map((m) => [m.role, m.model])).toEqual([
      ['user', 'gpt-5'],
      ['assistant', 'gpt-5'],
    ]);
    expect(s.messages[0]?.annotations).toBeUndefined();
    expect(s.model?.parameters).toEqual({ reasoningEffort: 'Medium' });
    expect(s.config.find((c) => c.key === 'codex.binary')?.value).toBe('codex');
    expect(s.createdAt).toBe('2026-01-28T07:02:11.480Z');
  });

  it('never claims the leftover session.json.tmp checkpoint', () => {
    const dir = join(fixtures, '9e41b7c2-58d0-4a6f-b3e1-7f2c0d9a4b86');
    expect(readdirSync(dir).sort()).toEqual(['session.json', 'session.json.tmp']);
    expect(claimsVizier(join(dir, 'session.json.tmp'))).toBe(false);
  });
});

describe('parseVizierDocument edge cases', () => {
  it('falls back to the folder name for a missing id and builds the title from the outcome, then the workflow', () => {
    const s = parseVizierDocument({ schema: 'vizier.session.v1', workflow_type: 'save', outcome: { status: 'completed', summary: 'Saved.\nmore' } }, ctxFor());
    expect(s.id).toBe('0199-fallback');
    expect(s.title).toBe('Saved.');
    expect(parseVizierDocument({ schema: 'vizier.session.v1', workflow_type: 'save', messages: [] }, ctxFor()).title).toBe('Vizier save session');
  });

  it('reads an unknown schema that still has v1 fields, with a warning', () => {
    const s = parseVizierDocument({ schema: 'vizier.session.v2', id: 'a', messages: [{ role: 'User', content: 'hi' }] }, ctxFor());
    expect(s.formatVersion).toBe('vizier.session.v2');
    expect(s.title).toBe('hi');
    expect(s.warnings.map((w) => w.code)).toEqual(['unknown_version']);
  });

  it('lists unknown top-level fields in one warning and skips messages with unknown roles', () => {
    const s = parseVizierDocument(
      { id: 'a', chat: [{ role: 'critic', content: 'x' }, { content: 'y' }, { role: 'user', content: 'ok' }], zeta: 1, beta: [] },
      ctxFor(),
    );
    expect(s.messages.map((m) => m.origin?.pointer)).toEqual(['/chat/2']);
    expect(s.warnings).toEqual([
      { code: 'unknown_role', message: 'A "chat" entry has the unknown role "critic"; it was skipped.', count: 1 },
      { code: 'unknown_role', message: 'A "chat" entry has no role; it was skipped.', count: 1 },
      { code: 'unknown_field', message: 'Unknown top-level fields ignored: zeta, beta.', count: 1 },
    ]);
  });

  it('keeps a config value whose provenance is not one of the four, without provenance', () => {
    const s = parseVizierDocument({ id: 'a', config_effective: { x: { value: 1, provenance: 'env' }, y: { value: 2, provenance: 'cli' } } }, ctxFor());
    expect(s.config).toEqual([
      { key: 'x', value: 1, provenance: null },
      { key: 'y', value: 2, provenance: 'CLI' },
    ]);
    expect(s.warnings[0]?.code).toBe('unknown_provenance');
  });

  it('shows an operation without a type as "unknown" and skips non-string staged paths with a warning', () => {
    const s = parseVizierDocument({ id: 'a', operations: [{ detail: 'x', vcs: { staged: { A: ['ok', 3], R: [[1]] } } }] }, ctxFor());
    expect(s.operations[0]).toMatchObject({ type: 'unknown', vcs: { staged: { A: ['ok'], M: [], D: [], R: [] } } });
    expect(s.warnings.map((w) => w.code)).toEqual(['missing_field', 'wrong_type', 'wrong_type']);
  });

  it('refuses an empty object with a reason', async () => {
    const err = await failure(() => parseVizierDocument({}, ctxFor()));
    expect(err.code).toBe('wrong_shape');
    expect(err.message).toBe('Not a usable Vizier session: the object is empty.');
  });
});

describe('Vizier artifacts', () => {
  let tmp = '';
  afterEach(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('resolves only files inside the repository or session folder, not ../ escapes, absolute paths or symlinks out', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'vizier-art-'));
    const repo = join(tmp, 'repo');
    const sessionDir = join(repo, '.vizier', 'sessions', 's1');
    await mkdir(sessionDir, { recursive: true });
    await writeFile(join(tmp, 'secret.txt'), 'outside');
    await writeFile(join(repo, 'notes.md'), 'inside');
    await symlink(join(tmp, 'secret.txt'), join(repo, 'link.log'));
    const artifacts = ['../secret.txt', join(tmp, 'secret.txt'), 'link.log', 'notes.md', join(repo, 'notes.md')];
    await writeFile(join(sessionDir, 'session.json'), JSON.stringify({ id: 's1', repo: { root: repo }, artifacts }));
    const s = await read(join(sessionDir, 'session.json'));
    expect(s.artifacts.map((a) => a.resolvedPath)).toEqual([null, null, null, join(repo, 'notes.md'), join(repo, 'notes.md')]);
    expect(s.artifacts[3]?.size).toBe(6);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'artifact']);
  });
});

describe('shared Vizier samples', () => {
  const ledgerly = join(samples, 'vizier/ledgerly/.vizier/sessions');
  const orbit = join(samples, 'vizier/orbit-notes/.vizier/sessions');

  it('reads the real-writer save run', async () => {
    const s = await read(join(ledgerly, '3f6c2a9e-8d41-4b7a-9c15-2e7b0d4f8a61/session.json'));
    expect(s.title).toBe('Update the snapshot and existing TODOs as needed');
    expect([s.createdAt, s.updatedAt]).toEqual(['2025-11-02T14:03:11.123Z', '2025-11-02T14:05:42.987Z']);
    expect(s.project).toEqual({ path: '/home/dev/src/ledgerly', name: 'ledgerly', branch: 'main', headCommit: '9b2f6d1c4e8a7b3f0d5c2e1a6b9f8d7c4e3a2b1f' });
    expect([s.messages.length, s.operations.length, s.status, s.outcome?.status]).toEqual([2, 0, 'closed', 'completed']);
    expect(s.extra).toMatchObject({ workflow_type: 'save', mode: 'default', agent: { exit_code: 0, duration_ms: 48213 } });
    expect(s.config.map((c) => c.key)).toEqual(['backend', 'agent.label', 'agent.command']);
    expect(s.warnings).toEqual([]);
  });

  it('reads the early Nov-2025 variant', async () => {
    const s = await read(join(ledgerly, '7a0c5e93-1d2b-4f86-b4e7-9c3a2d8f1e05/session.json'));
    expect(s.title).toBe('Why does `ledgerly import` hang on an empty CSV?');
    expect(s.createdAt).toBe('2025-11-16T00:56:35.746Z');
    expect(s.messages.map((m) => [m.role, m.model])).toEqual([
      ['user', 'gpt-5'],
      ['assistant', 'gpt-5'],
    ]);
    expect(s.model).toEqual({ provider: 'codex', name: 'gpt-5', parameters: { reasoningEffort: 'Low' } });
    expect(s.config.map((c) => c.key)).toEqual(['backend', 'codex.binary', 'codex.bounds_prompt', 'codex.profile', 'fallback_backend', 'reasoning_effort']);
  });

  it('reads the merge run with two CI/CD gates', async () => {
    const s = await read(join(ledgerly, 'b81e4c07-52d9-4f3e-a6b2-7c0d19e35f42/session.json'));
    expect([s.createdAt, s.updatedAt]).toEqual(['2025-12-09T21:47:03.004Z', '2025-12-09T21:52:19.660Z']);
    expect(s.project.branch).toBe('draft/csv-import');
    expect(s.project.name).toBe('ledgerly');
    expect(s.extra.worktree).toBe('/home/dev/src/ledgerly/.vizier/tmp-worktrees/csv-import-7c41d2aa');
    expect(s.operations.map((o) => [o.type, o.status, o.latencyMs])).toEqual([
      ['cicd_gate', 'failed', 38211],
      ['cicd_gate', 'passed', 36954],
    ]);
    expect(s.messages).toHaveLength(4);
    expect(s.systemPrompt?.path).toBe('.vizier/MERGE_CONFLICT_PROMPT.md');
  });

  it('reads the approve run on a detached HEAD', async () => {
    const s = await read(join(ledgerly, 'e2d94f1b-07ac-4c58-8e3d-5a61b9c27f80/session.json'));
    expect(s.project.branch).toBeNull();
    expect(s.title).toBe('Implement plan `fx-rates`: add a daily FX rate cache with a 24h TTL and an offl…');
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(s.operations.map((o) => o.type)).toEqual(['approve_stop_condition_attempt', 'approve_stop_condition_attempt', 'approve_stop_condition']);
    expect(s.extra.agent).toBeUndefined();
    expect(s.toolVersion).toBe('0.2.0');
    expect(s.createdAt).toBe('2026-01-14T08:12:55.700Z');
  });

  it('reads the accepted MVP session with its full gate chain and diff artifact', async () => {
    const dir = join(orbit, '01934f2a-6c1e-7b3d-9a45-0e8c2d7f1b63');
    const s = await read(join(dir, 'session.json'));
    expect(s.formatVersion).toBe('mvp');
    expect(s.title).toBe('Sync drops my edit when two devices save in the same millisecond. Fix the merge…');
    expect([s.createdAt, s.updatedAt]).toEqual(['2025-11-20T15:14:22.481Z', '2025-11-20T15:31:07.902Z']);
    expect(s.project).toEqual({
      path: '/home/dev/proj/orbit-notes',
      name: 'orbit-notes',
      branch: 'fix/merge-tiebreak',
      headCommit: 'a41c9e07d3b25f8e16c0a9d7e4b3f2c1d0e9f8a7',
    });
    expect(s.outcome).toEqual({
      status: 'accepted',
      summary: 'Merge tie-break now prefers the higher rev on equal timestamps; regression test added.',
      commitSha: 'c3d8f1a29e7b4c60d5a1f8e2b9c7d4a3e6f0b1c2',
    });
    expect(s.messages).toHaveLength(5);
    expect(s.messages[2]?.annotations).toMatchObject({ tool_calls: [{ name: 'read_file' }] });
    expect(s.operations.map((o) => o.type)).toEqual(['proposal', 'gate_open', 'gate_accept', 'apply_diff', 'test_run']);
    expect(s.operations[3]?.vcs?.appliedSha).toBe('c3d8f1a29e7b4c60d5a1f8e2b9c7d4a3e6f0b1c2');
    expect(s.config).toHaveLength(5);
    expect(s.config[0]).toEqual({ key: 'model.name', value: 'gpt-5-codex', provenance: 'CLI' });
    expect(s.model?.parameters).toEqual({ temperature: 0.2, thinkingLevel: 'medium' });
    expect(s.artifacts[0]).toMatchObject({ kind: 'diff', resolvedPath: join(dir, 'proposal-1.diff'), size: 1147 });
    expect(s.artifacts[1]).toMatchObject({ path: '.vizier/narrative/threads/sync.md', resolvedPath: null });
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'artifact']);
  });

  it('reads the rejected MVP session with its revert and [old, new] renames', async () => {
    const s = await read(join(orbit, '01935b80-2f47-7e91-8c3a-6d1b4e9f0a27/session.json'));
    expect(s.outcome?.status).toBe('rejected');
    expect(s.operations.map((o) => o.type)).toEqual(['proposal', 'gate_open', 'gate_reject', 'revert']);
    expect(s.operations[1]?.vcs?.staged.R).toEqual([{ from: 'src/db/notes.ts', to: 'src/db/documents.ts' }]);
    expect(s.operations[3]?.vcs?.restoredSha).toBe('c3d8f1a29e7b4c60d5a1f8e2b9c7d4a3e6f0b1c2');
    expect(s.model?.parameters).toEqual({ temperature: 0, thinkingLevel: 'high' });
    expect(s.createdAt).toBe('2025-11-24T15:02:09.118Z');
  });

  it('reads the in-flight MVP session as open and ignores its leftover .tmp', async () => {
    const dir = join(orbit, '01936a11-9b5c-7d20-a7e4-3f8c1b2d6e90');
    const s = await read(join(dir, 'session.json'));
    expect(s.status).toBe('open');
    expect(s.outcome).toEqual({ status: 'open', summary: null, commitSha: null });
    expect(s.title).toBe('Add an offline write queue that replays on reconnect.');
    expect(s.model?.parameters).toEqual({ thinkingLevel: 'low' });
    expect(s.systemPrompt).toEqual({ path: null, hash: '83cf34b19b2c0ea70b64ada6189e093609ae0a87f5c761114f01568ceac62de1', text: null });
    expect(s.operations.map((o) => o.type)).toEqual(['config_change', 'proposal']);
    expect(claimsVizier(join(dir, 'session.json.tmp'))).toBe(false);
  });
});
