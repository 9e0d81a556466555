// Random sequences of what a user does with the vault (keep, annotate, fork, delete its copy, restore, clear, the live file removed): nothing kept is lost, and every call answers without an internal error.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';

type Op =
  { kind: 'keep' | 'star' | 'tag' | 'fork' | 'delete' | 'removeSource'; session: number } | { kind: 'restore'; entry: number } | { kind: 'clear' | 'rescan' };

const session = fc.integer({ min: 0, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('keep' as const), session }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('star' as const, 'tag' as const, 'fork' as const), session }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('delete' as const, 'removeSource' as const), session }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), entry: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('clear' as const, 'rescan' as const) }) },
);

/** The call's answer, or the error code it was refused with; an internal error fails the test. */
async function call(services: Services, method: Parameters<Services['dispatch']>[0], input: unknown): Promise<unknown> {
  const result = await services.dispatch(method, input);
  if (!result.ok) expect(result.error.code, `${method}(${JSON.stringify(input)}): ${result.error.message}`).not.toBe('INTERNAL');
  return result.ok ? result.value : null;
}

describe('the vault under random use', () => {
  it('keeps every kept session readable and listed, through deletes, restores, clears and gone source files', async () => {
    const base = testTempDir('sv-vault-seq-');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const dir = join(base, `run-${++run}`);
        const root = join(dir, 'root');
        cpSync(join(samplesDir, 'jido-code'), root, { recursive: true });
        cpSync(join(samplesDir, 'codex'), join(root, 'codex'), { recursive: true });
        const services = createServices({ dataDir: join(dir, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
        try {
          await services.start();
          await services.whenScanned();
          const listed = (await services.client.listSessions({})).sessions.filter((s) => !s.unreadable).slice(0, 4);
          const keys = listed.map((s) => s.key);
          const paths = new Map(listed.map((s) => [s.key, s.primaryPath]));
          /** Kept by the user and not deleted since: each must stay listed and open. */
          const kept = new Set<string>();
          for (const o of ops) {
            const key = 'session' in o ? keys[o.session % keys.length]! : '';
            if (o.kind === 'keep') {
              if ((await call(services, 'keepSession', { key })) !== null) kept.add(key);
            } else if (o.kind === 'star') await call(services, 'setAnnotations', { key, starred: true });
            else if (o.kind === 'tag') await call(services, 'setAnnotations', { key, tags: ['seq'] });
            else if (o.kind === 'fork') await call(services, 'forkSession', { key, throughMessage: 0 });
            else if (o.kind === 'delete') {
              if ((await call(services, 'deleteSession', { key })) !== null) kept.delete(key);
            } else if (o.kind === 'removeSource') {
              const path = paths.get(key);
              if (path && existsSync(path)) rmSync(path);
              await call(services, 'rescanRoots', {});
            } else if (o.kind === 'restore') {
              const trash = (await call(services, 'listTrash', {})) as Array<{ id: string; key: string }> | null;
              const entry = trash?.[o.entry % Math.max(1, trash.length)];
              if (entry && (await call(services, 'restoreSession', { id: entry.id })) !== null && keys.includes(entry.key)) kept.add(entry.key);
            } else if (o.kind === 'clear') {
              if ((await call(services, 'clearVault', { confirm: 'CLEAR' })) !== null) kept.clear();
            } else await call(services, 'rescanRoots', {});
          }
          const rows = (await services.client.listSessions({ includeChildren: true, limit: 1000 })).sessions;
          for (const key of kept) {
            const row = rows.find((r) => r.key === key);
            expect(row, `${key} after ${JSON.stringify(ops)}`).toMatchObject({ kept: true });
            expect((await services.dispatch('getSession', { key })).ok, `${key} opens after ${JSON.stringify(ops)}`).toBe(true);
          }
        } finally {
          await services.close();
        }
      }),
      { numRuns: Number(process.env.SV_VAULT_RUNS ?? 4), ...(process.env.SV_VAULT_RUNS ? {} : { seed: 2026 }) },
    );
  }, 600_000);
});
