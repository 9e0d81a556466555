// Damaged copies of a real exported bundle (bytes flipped, cut, zeroed, inserted): each imports whole or is refused with its rule, and a refusal leaves the vault as it was.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../app/services.ts';
import { copyAllFixtures } from '../test-support/source-fixtures.ts';
import { BundleError } from './bundle-error.ts';
import { exportBundle } from './export-bundle.ts';
import { importBundle } from './import-bundle.ts';
import { tree } from './hostile-harness.ts';

type Damage =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'cut'; at: number }
  | { kind: 'zero'; at: number; length: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.constantFrom(0, 0xff, 0x7f, 0x80, 0x50, 0x4b) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('zero' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }) },
);

function damaged(zip: Buffer, damages: Damage[]): Buffer {
  let out = Buffer.from(zip);
  for (const d of damages) {
    if (!out.length) break;
    const at = d.at % Math.max(1, out.length);
    if (d.kind === 'flip') out[at] = (out[at] ?? 0) ^ (1 << d.bit);
    else if (d.kind === 'set') out[at] = d.value;
    else if (d.kind === 'cut') out = out.subarray(0, at);
    else if (d.kind === 'zero') out.fill(0, at, Math.min(out.length, at + d.length));
    else out = Buffer.concat([out.subarray(0, at), d.bytes, out.subarray(at)]);
  }
  return out;
}

describe('damaged bundles', () => {
  it('import whole, or are refused with the rule they broke (a BundleError), the vault untouched', async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-damaged-bundle-'));
    try {
      // A real export: sessions of two formats, their source files, a manifest; deflated entries.
      const root = join(base, 'root');
      await copyAllFixtures(root);
      const services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
      let zip: Buffer;
      try {
        await services.start();
        await services.whenScanned();
        const { sessions } = await services.client.listSessions({ includeChildren: true });
        const keys = ['jido-code', 'codex'].flatMap((format) =>
          sessions
            .filter((s) => s.format === format && !s.unreadable)
            .slice(0, 1)
            .map((s) => s.key),
        );
        expect(keys).toHaveLength(2);
        const file = join(base, 'good.zip');
        await exportBundle(keys, services.bundles.load, file, { redact: false });
        zip = await readFile(file);
      } finally {
        await services.close();
      }
      const vault = join(base, 'vault-data');
      await mkdir(join(vault, 'vault', 'sessions', 'existing'), { recursive: true });
      await writeFile(join(vault, 'vault', 'sessions', 'existing', 'meta.json'), '{"kept":true}');
      const hostile = join(base, 'damaged.zip');
      await fc.assert(
        fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), async (damages) => {
          await writeFile(hostile, damaged(zip, damages));
          const before = await tree(vault);
          try {
            const report = await importBundle(hostile, { dataDir: vault });
            // Imported whole (the damage fell where nothing is checked, such as the archive's comment): then start again.
            expect(report.imported.length + report.skipped.length).toBeGreaterThan(0);
            await rm(join(vault, 'vault'), { recursive: true, force: true });
            await mkdir(join(vault, 'vault', 'sessions', 'existing'), { recursive: true });
            await writeFile(join(vault, 'vault', 'sessions', 'existing', 'meta.json'), '{"kept":true}');
          } catch (err) {
            if (!(err instanceof BundleError)) throw new Error(`${JSON.stringify(damages)}: ${String(err)}`, { cause: err });
            expect(err.message).toContain(`(${err.rule})`);
            expect(await tree(vault)).toEqual(before);
          }
        }),
        { numRuns: Number(process.env.SV_DAMAGE_RUNS ?? 150), ...(process.env.SV_DAMAGE_RUNS ? {} : { seed: 2026 }) },
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 180_000);
});
