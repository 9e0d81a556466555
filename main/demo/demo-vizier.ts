// The demo set's Vizier sessions: two repositories, the MVP schema (accepted, rejected, in flight) and one real-writer run.
import { join } from 'node:path';
import { DAY, HOUR, json, type DemoClock, type DemoFile } from './demo-clock.ts';

const EMPTY = { A: [], M: [], D: [], R: [] };

const TRAILHEAD_DIFF = `diff --git a/src/trails/elevation.ts b/src/trails/elevation.ts
index 5a1c2e9..b7d04f3 100644
--- a/src/trails/elevation.ts
+++ b/src/trails/elevation.ts
@@ -3,9 +3,14 @@ export function totalAscent(points: TrackPoint[]): number {
   let ascent = 0;
   for (let i = 1; i < points.length; i++) {
     const rise = points[i].ele - points[i - 1].ele;
-    if (rise > 0) ascent += rise;
+    // GPS noise adds phantom climbs; ignore steps under the 3 m threshold
+    if (rise > ASCENT_NOISE_M) ascent += rise;
   }
   return Math.round(ascent);
 }
+
+export const ASCENT_NOISE_M = 3;
diff --git a/test/trails/elevation.test.ts b/test/trails/elevation.test.ts
new file mode 100644
--- /dev/null
+++ b/test/trails/elevation.test.ts
@@ -0,0 +1,6 @@
+import { totalAscent } from '../../src/trails/elevation';
+
+test('small GPS jitter does not count as ascent', () => {
+  const pts = [0, 1, 0, 2, 0, 50].map((ele) => ({ lat: 0, lon: 0, ele }));
+  expect(totalAscent(pts)).toBe(50);
+});
`;

function staged(A: string[] = [], M: string[] = [], D: string[] = [], R: [string, string][] = []) {
  return { A, M, D, R };
}

function accepted(root: string, t: DemoClock): DemoFile[] {
  const id = '0196a0c1-4e2b-7d31-8f5a-2c9e1b7d4a01';
  const diff = `.vizier/sessions/${id}/proposal-1.diff`;
  const start = 3 * DAY + 2 * HOUR;
  const changes = staged(['test/trails/elevation.test.ts'], ['src/trails/elevation.ts']);
  const session = {
    id,
    created_at: t.iso(start),
    updated_at: t.iso(start - 27),
    tool_version: '0.1.2',
    repo: { root, current_branch: 'fix/ascent-noise', head_sha: '3c9a7e1f0b2d4c6e8a0f1b3d5c7e9a2b4d6f8a0c' },
    config_effective: {
      'model.name': { value: 'gpt-5-codex', provenance: 'CLI' },
      'model.temperature': { value: 0.2, provenance: 'profile' },
      thinking_level: { value: 'medium', provenance: 'session' },
      session_logging: { value: 'on', provenance: 'default' },
      redact: { value: ['secrets', 'env'], provenance: 'default' },
    },
    system_prompt_path: '.vizier/prompts/system.md',
    system_prompt_hash: 'c0ffee5a1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f80',
    model: { provider: 'openai', name: 'gpt-5-codex', temperature: 0.2, thinking_level: 'medium' },
    chat: [
      { role: 'system', content: 'You are a careful coding assistant for trailhead, a hiking route planner.', ts: t.iso(start - 0.1) },
      { role: 'user', content: 'Total ascent on the Ridge Loop shows 1,240 m but the map says 610 m. Find out why.', ts: t.iso(start - 0.5) },
      {
        role: 'assistant',
        content:
          '`totalAscent` adds every positive step, so GPS jitter of ±1–2 m doubles the climb on long tracks. Proposed patch: ignore steps below a 3 m threshold, plus a regression test.',
        ts: t.iso(start - 4),
        annotations: { tool_calls: [{ name: 'read_file', args: { path: 'src/trails/elevation.ts' } }], diffs_refs: [diff] },
      },
      { role: 'user', content: 'Good, apply it.', ts: t.iso(start - 9) },
      { role: 'assistant', content: 'Applied and committed; `npm test` passes (64 tests). Ridge Loop now reports 618 m.', ts: t.iso(start - 27) },
    ],
    operations: [
      { type: 'proposal', detail: { files: ['src/trails/elevation.ts', 'test/trails/elevation.test.ts'], diff }, vcs: { staged: EMPTY }, ts: t.iso(start - 4) },
      { type: 'gate_open', detail: 'commit gate opened: 1 modified, 1 added', vcs: { staged: changes }, ts: t.iso(start - 4.1) },
      { type: 'gate_accept', detail: 'accepted by user', vcs: { staged: changes }, ts: t.iso(start - 9) },
      {
        type: 'apply_diff',
        detail: 'applied proposal-1.diff',
        vcs: { staged: changes, applied_sha: '8e2d4f6a0c1b3e5d7f9a2c4e6b8d0f1a3c5e7b9d' },
        ts: t.iso(start - 9.5),
      },
      {
        type: 'test_run',
        detail: { command: 'npm test', exit_code: 0, passed: 64, failed: 0, duration_ms: 11873 },
        vcs: { staged: EMPTY },
        ts: t.iso(start - 26.5),
      },
    ],
    artifacts: [diff],
    outcome: {
      status: 'accepted',
      summary: 'Ascent ignores GPS jitter below 3 m; Ridge Loop now reports 618 m. Regression test added.',
      commit_sha: '8e2d4f6a0c1b3e5d7f9a2c4e6b8d0f1a3c5e7b9d',
    },
  };
  return [
    { path: `trailhead/.vizier/sessions/${id}/session.json`, content: json(session) },
    { path: `trailhead/${diff}`, content: TRAILHEAD_DIFF },
  ];
}

function rejected(root: string, t: DemoClock): DemoFile {
  const id = '0196a7f3-91c4-7a08-b2e6-5d3f0c8a1e22';
  const start = 26 * HOUR;
  const changes = staged(
    ['src/map/tiles/vector.ts'],
    ['src/map/index.ts', 'package.json'],
    ['src/map/tiles/raster.ts'],
    [['src/map/tiles/cache.ts', 'src/map/tiles/tile-cache.ts']],
  );
  const session = {
    id,
    created_at: t.iso(start),
    updated_at: t.iso(start - 14),
    tool_version: '0.1.2',
    repo: { root, current_branch: 'main', head_sha: '8e2d4f6a0c1b3e5d7f9a2c4e6b8d0f1a3c5e7b9d' },
    config_effective: {
      'model.name': { value: 'claude-sonnet-4-5', provenance: 'profile' },
      'model.temperature': { value: 0, provenance: 'default' },
      thinking_level: { value: 'high', provenance: 'CLI' },
    },
    system_prompt_path: '.vizier/prompts/system.md',
    system_prompt_hash: 'c0ffee5a1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f80',
    model: { provider: 'anthropic', name: 'claude-sonnet-4-5', temperature: 0, thinking_level: 'high' },
    chat: [
      { role: 'user', content: 'Switch the map from raster tiles to vector tiles.', ts: t.iso(start - 0.3) },
      {
        role: 'assistant',
        content: 'Proposed replacing the raster layer with a vector renderer (adds a 480 kB dependency) and renaming the tile cache.',
        ts: t.iso(start - 6),
      },
      { role: 'user', content: 'Too heavy for the offline bundle. Reject it and put everything back.', ts: t.iso(start - 12) },
      { role: 'assistant', content: 'Reverted the working tree to 8e2d4f6; nothing was committed.', ts: t.iso(start - 14) },
    ],
    operations: [
      { type: 'proposal', detail: 'raster -> vector tiles (5 files)', vcs: { staged: EMPTY }, ts: t.iso(start - 6) },
      { type: 'gate_open', detail: 'commit gate opened', vcs: { staged: changes }, ts: t.iso(start - 6.1) },
      { type: 'gate_reject', detail: 'rejected by user: bundle size', vcs: { staged: changes }, ts: t.iso(start - 12) },
      {
        type: 'revert',
        detail: 'git restore --staged --worktree .',
        vcs: { staged: EMPTY, restored_sha: '8e2d4f6a0c1b3e5d7f9a2c4e6b8d0f1a3c5e7b9d' },
        ts: t.iso(start - 13.9),
      },
    ],
    artifacts: [],
    outcome: { status: 'rejected', summary: 'Vector tiles rejected (offline bundle size); working tree restored.' },
  };
  return { path: `trailhead/.vizier/sessions/${id}/session.json`, content: json(session) };
}

function inFlight(root: string, t: DemoClock): DemoFile {
  const id = '0196b2e8-0d7a-7f14-9c3b-6a1e4d2f8b33';
  const session = {
    id,
    created_at: t.iso(12),
    updated_at: t.iso(2),
    tool_version: '0.1.3',
    repo: { root, current_branch: 'feat/export-csv', head_sha: 'b5a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6' },
    config_effective: {
      'model.name': { value: 'gpt-5', provenance: 'default' },
      thinking_level: { value: 'low', provenance: 'session' },
    },
    system_prompt_path: null,
    system_prompt_hash: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
    model: { provider: 'openai', name: 'gpt-5', temperature: null, thinking_level: 'low' },
    chat: [
      { role: 'user', content: 'Add `quill export --format csv` for the notes index.', ts: t.iso(11.5) },
      { role: 'assistant', content: 'Adding a `CsvWriter` in src/export/csv.rs and a `--format` flag to the export subcommand…', ts: t.iso(2) },
    ],
    operations: [
      {
        type: 'config_change',
        detail: { key: 'thinking_level', from: 'medium', to: 'low', provenance: 'session' },
        vcs: { staged: EMPTY },
        ts: t.iso(11.9),
      },
      { type: 'proposal', detail: 'in progress', vcs: { staged: staged(['src/export/csv.rs'], ['src/cli.rs']) }, ts: t.iso(2) },
    ],
    artifacts: [],
    outcome: { status: 'open' },
  };
  return { path: `quill-cli/.vizier/sessions/${id}/session.json`, content: json(session) };
}

function realWriterRun(root: string, t: DemoClock): DemoFile {
  const id = 'c2f1e0d9-8b7a-4c6d-9e5f-4a3b2c1d0e9f';
  const start = 5 * HOUR;
  const worktree = join(root, '.vizier', 'tmp-worktrees', 'search-index-5b2e9d10');
  const summary = 'Kept the incremental index writer from main and the new tokenizer from draft/search-index; the gate passes after one fix.';
  const session = {
    schema: 'vizier.session.v1',
    id,
    created_at: t.chrono(start),
    updated_at: t.rfc3339(start - 6),
    tool_version: '0.2.0',
    workflow_type: 'merge',
    mode: 'default',
    repo: { root: worktree, branch: 'draft/search-index', head: '2f4e6a8c0b1d3f5a7c9e1b3d5f7a9c2e4b6d8f0a' },
    config_effective: { backend: 'agent', agent: { label: 'codex', command: ['codex', 'exec', '--full-auto'] } },
    system_prompt: {
      kind: 'merge_conflict',
      scope: 'merge',
      origin: 'default',
      path: null,
      hash: '4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
    },
    model: { provider: 'agent', name: 'codex', reasoning_effort: 'medium', scope: 'merge' },
    messages: [
      { role: 'User', content: '<instruction>Resolve the conflicts in src/search/index.rs keeping the incremental writer from main.</instruction>' },
      { role: 'Assistant', content: 'Resolved 3 hunks in src/search/index.rs; the tokenizer now feeds the incremental writer.' },
      { role: 'User', content: 'CI/CD gate failed (attempt 1). Fix the failing test `search::tests::unicode_terms`.' },
      { role: 'Assistant', content: summary },
    ],
    agent: {
      command: ['codex', 'exec', '--full-auto'],
      output: 'wrapped',
      progress_filter: null,
      exit_code: 0,
      stdout: 'patched src/search/index.rs\npatched src/search/tokenize.rs\n',
      stderr: [],
      duration_ms: 94210,
    },
    operations: [
      {
        kind: 'cicd_gate',
        details: {
          scope: 'merge',
          script: './ci.sh',
          status: 'failed',
          attempts: 1,
          exit_code: 101,
          duration_ms: 52130,
          stdout: 'test search::tests::unicode_terms ... FAILED\n',
          stderr: 'error: test failed\n',
          auto_resolve_enabled: true,
          retries: 2,
          fixes_count: 0,
          fixes: [],
        },
      },
      {
        kind: 'cicd_gate',
        details: {
          scope: 'merge',
          script: './ci.sh',
          status: 'passed',
          attempts: 2,
          exit_code: 0,
          duration_ms: 49877,
          stdout: 'test result: ok. 131 passed; 0 failed\n',
          stderr: '',
          auto_resolve_enabled: true,
          retries: 2,
          fixes_count: 1,
          fixes: ['fix-1: normalise terms to NFC before indexing'],
        },
      },
    ],
    artifacts: [],
    outcome: { status: 'completed', summary },
  };
  return { path: `quill-cli/.vizier/sessions/${id}/session.json`, content: json(session) };
}

/** Vizier files of the demo set; `dir` is the demo folder, so repo roots point at the demo repos. */
export function vizierDemoFiles(dir: string, t: DemoClock): DemoFile[] {
  const trailhead = join(dir, 'trailhead');
  const quill = join(dir, 'quill-cli');
  return [...accepted(trailhead, t), rejected(trailhead, t), inFlight(quill, t), realWriterRun(quill, t)];
}
