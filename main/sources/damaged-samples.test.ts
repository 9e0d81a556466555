// Damaged copies of the sample sessions (a field of another type or gone, a line dropped, doubled or cut) read into a valid session or fail with a reason, never with a reader's own TypeError or RangeError.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Session } from '../../shared/session.ts';
import { resolveReader } from './recognize.ts';
import { UnreadableError } from './types.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { SAMPLE_SESSION_FORMATS } from '../test-support/sample-roles.ts';
import { damageJsonValue, everyNumberHuge, oddValue } from '../test-support/damage.ts';

interface ManifestFile {
  path: string;
  format: string;
}

const manifest = (JSON.parse(readFileSync(join(samplesDir, 'manifest.json'), 'utf8')) as { files: ManifestFile[] }).files;
/** Text files of every agent's layout (SQLite stores are binary; malformed/ is damaged already). */
const damageable = manifest.filter(
  (f) => !/SQLite/.test(f.format) && !f.path.startsWith('malformed/') && /\.(jsonl|json|json\.gz|md)$/.test(f.path) && wellFormed(f.path),
);
const sessionFiles = damageable.filter((f) => f.format in SAMPLE_SESSION_FORMATS);

/** The file as text; null for the samples that are damaged already (an empty snapshot, a document cut short). */
function sampleText(path: string): string | null {
  try {
    const bytes = readFileSync(join(samplesDir, path));
    const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    if (path.endsWith('.json') || path.endsWith('.json.gz')) JSON.parse(text);
    return text;
  } catch {
    return null;
  }
}

function wellFormed(path: string): boolean {
  return sampleText(path) !== null;
}

type Damage =
  | { kind: 'replace'; line: number; at: number; value: unknown }
  | { kind: 'delete'; line: number; at: number }
  | { kind: 'drop-line' | 'double-line' | 'cut-line'; line: number }
  | { kind: 'truncate'; fraction: number };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('replace' as const), line: fc.nat(), at: fc.nat(), value: oddValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), line: fc.nat(), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('drop-line' as const, 'double-line' as const, 'cut-line' as const), line: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
);

/** A line as JSON, or as the string it is when it is not JSON (a sample may hold a torn line on purpose). */
function parsedOr(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

function damageValue(root: unknown, d: Extract<Damage, { at: number }>): unknown {
  return damageJsonValue(root, d.at, d.kind === 'replace' ? { value: d.value } : undefined);
}

function damageText(text: string, name: string, d: Damage): string {
  if (d.kind === 'truncate') return text.slice(0, Math.floor(text.length * d.fraction));
  const lines = text.split('\n');
  const perLine = name.endsWith('.jsonl') || name.endsWith('.md');
  const filled = lines.flatMap((l, i) => (l.trim() ? [i] : []));
  if (!filled.length) return text;
  const i = filled[d.line % filled.length]!;
  if (d.kind === 'replace' || d.kind === 'delete') {
    if (name.endsWith('.md')) lines[i] = d.kind === 'replace' ? `${lines[i]!.slice(0, 3)}${JSON.stringify(d.value).slice(0, 200)}` : '';
    else if (perLine) lines[i] = JSON.stringify(damageValue(parsedOr(lines[i]!), d)) ?? 'null';
    else {
      // A whole document: once an earlier damage broke it, it stays as that damage left it.
      const doc = parsedOr(text);
      return doc === text ? text : (JSON.stringify(damageValue(doc, d)) ?? 'null');
    }
  } else if (d.kind === 'drop-line') lines.splice(i, 1);
  else if (d.kind === 'double-line') lines.splice(i, 0, lines[i]!);
  else lines[i] = lines[i]!.slice(0, Math.floor(lines[i]!.length / 2));
  return lines.join('\n');
}

/** Every session a file reads into, as the app lists them. */
async function readAll(abs: string): Promise<unknown[]> {
  const reader = await resolveReader(abs);
  if (!reader) return [];
  const store = reader.container && (reader.container.isStore?.(abs) ?? true) ? reader.container : null;
  return store ? Promise.all((await store.list(abs)).map((s) => store.readOne(abs, s.id))) : [await reader.read(abs)];
}

/**
 * With `file` of the sample copy at `copy` changed, every session it is part of read again (the file itself, or for a
 * companion such as a sub-agent's meta or a message of a storage tree, the sessions of its agent): what went wrong,
 * a reader's own exception or a session outside the schema, one line each.
 */
async function faultsAfterChange(copy: string, file: ManifestFile, change: string): Promise<string[]> {
  const faults: string[] = [];
  const agent = file.path.split('/')[0]!;
  const targets = file.format in SAMPLE_SESSION_FORMATS ? [file] : sessionFiles.filter((f) => f.path.startsWith(`${agent}/`));
  for (const target of targets) {
    let sessions: unknown[] = [];
    try {
      sessions = await readAll(join(copy, target.path));
    } catch (err) {
      if (!(err instanceof UnreadableError)) faults.push(`${target.path} after ${change} to ${file.path}: ${String(err)}`);
    }
    for (const session of sessions) {
      const parsed = Session.safeParse(session);
      if (!parsed.success) faults.push(`${target.path} after ${change} to ${file.path}: ${parsed.error.message.slice(0, 300)}`);
      else {
        // Plain JSON (no NaN, Infinity or Date that would change on the way to the renderer).
        try {
          expect(JSON.parse(JSON.stringify(session))).toEqual(session);
        } catch {
          faults.push(`${target.path} after ${change} to ${file.path}: not plain JSON`);
        }
      }
    }
  }
  return faults;
}

describe('damaged sample sessions', () => {
  it('read into a valid session, or are refused with a reason (UnreadableError), whatever the damage', async () => {
    // SV_DAMAGE_RUNS=5000 explores further, from a new seed each time (fast-check prints the seed of a failure).
    const runs = Number(process.env.SV_DAMAGE_RUNS ?? 300);
    const copy = testTempDir('sv-damaged-');
    cpSync(samplesDir, copy, { recursive: true });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...damageable), fc.array(damage, { minLength: 1, maxLength: 3 }), async (file, damages) => {
        const abs = join(copy, file.path);
        const original = readFileSync(abs);
        const gz = file.path.endsWith('.gz');
        const text = (gz ? gunzipSync(original) : original).toString('utf8');
        const damaged = damages.reduce((t, d) => damageText(t, file.path.replace(/\.gz$/, ''), d), text);
        writeFileSync(abs, gz ? gzipSync(damaged) : damaged);
        try {
          expect(await faultsAfterChange(copy, file, JSON.stringify(damages).slice(0, 300))).toEqual([]);
        } finally {
          writeFileSync(abs, original);
        }
      }),
      { numRuns: runs, ...(process.env.SV_DAMAGE_RUNS ? {} : { seed: 2026 }) },
    );
  }, 120_000);

  it('read into a valid session or are refused with a reason when every number in them is past any count (1e308, summed to Infinity)', async () => {
    const copy = testTempDir('sv-huge-');
    cpSync(samplesDir, copy, { recursive: true });
    const failures: string[] = [];
    for (const file of damageable.filter((f) => !f.path.endsWith('.md'))) {
      const abs = join(copy, file.path);
      const original = readFileSync(abs);
      const gz = file.path.endsWith('.gz');
      const text = (gz ? gunzipSync(original) : original).toString('utf8');
      const perLine = file.path.replace(/\.gz$/, '').endsWith('.jsonl');
      const changed = perLine
        ? text
            .split('\n')
            .map((l) => (l.trim() ? (JSON.stringify(everyNumberHuge(parsedOr(l))) ?? 'null') : l))
            .join('\n')
        : JSON.stringify(everyNumberHuge(JSON.parse(text)));
      writeFileSync(abs, gz ? gzipSync(changed) : changed);
      try {
        failures.push(...(await faultsAfterChange(copy, file, 'every number set to 1e308')));
      } finally {
        writeFileSync(abs, original);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
