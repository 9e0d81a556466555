// Damaged copies of every agent's JSON and JSON-lines sample sessions (every number past any count, or one value replaced by an odd one), read by the app's readers: the sessions they accept, for tests of what the app does with them next.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Session } from '../../shared/session.ts';
import { resolveReader } from '../sources/recognize.ts';
import { damageJsonValue, everyNumberHuge, oddValue } from './damage.ts';
import { SAMPLE_SESSION_FORMATS } from './sample-roles.ts';
import { samplesDir } from './samples.ts';

interface ManifestFile {
  path: string;
  format: string;
}

const manifest = (JSON.parse(readFileSync(join(samplesDir, 'manifest.json'), 'utf8')) as { files: ManifestFile[] }).files;
/** The file as text; null for a sample that is damaged already (a gzip or a document cut short). */
function sampleText(path: string): string | null {
  try {
    const bytes = readFileSync(join(samplesDir, path));
    const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    if (!path.replace(/\.gz$/, '').endsWith('.jsonl')) JSON.parse(text);
    return text;
  } catch {
    return null;
  }
}

/** Every agent's session files that are JSON or JSON lines (SQLite stores are binary; malformed/ is damaged already). */
export const damageableFiles = manifest.filter(
  (f) => f.format in SAMPLE_SESSION_FORMATS && !f.path.startsWith('malformed/') && /\.(jsonl|json|json\.gz)$/.test(f.path) && sampleText(f.path) !== null,
);

/** Each value of a JSON document (or of each line) changed by `change`. */
function changeText(text: string, perLine: boolean, change: (value: unknown) => unknown): string {
  const one = (t: string) => {
    try {
      return JSON.stringify(change(JSON.parse(t))) ?? 'null';
    } catch {
      return t;
    }
  };
  return perLine
    ? text
        .split('\n')
        .map((l) => (l.trim() ? one(l) : l))
        .join('\n')
    : one(text);
}

/** Every session a file reads into; none when a reader refuses it. */
async function readAll(abs: string): Promise<Session[]> {
  const reader = await resolveReader(abs);
  if (!reader) return [];
  try {
    const store = reader.container && (reader.container.isStore?.(abs) ?? true) ? reader.container : null;
    const read = store ? await Promise.all((await store.list(abs)).map((s) => store.readOne(abs, s.id))) : [await reader.read(abs)];
    return read.filter((s) => Session.safeParse(s).success);
  } catch {
    return [];
  }
}

interface Variant {
  file: ManifestFile;
  /** The file's text with this variant's damage. */
  damage(text: string): string;
}

/** Each file with every number set to 1e308, then `runs` single values replaced (seed 2026, or a new seed when SV_DAMAGE_RUNS is set). */
function variants(runs: number): Variant[] {
  const perLine = (file: ManifestFile) => file.path.replace(/\.gz$/, '').endsWith('.jsonl');
  const damages = fc.sample(fc.record({ file: fc.constantFrom(...damageableFiles), line: fc.nat(), at: fc.nat(), value: oddValue }), {
    numRuns: runs,
    ...(process.env.SV_DAMAGE_RUNS ? {} : { seed: 2026 }),
  });
  return [
    ...damageableFiles.map((file) => ({ file, damage: (text: string) => changeText(text, perLine(file), everyNumberHuge) })),
    ...damages.map((d) => ({
      file: d.file,
      damage: (text: string) => {
        const change = (v: unknown) => damageJsonValue(v, d.at, { value: d.value });
        if (!perLine(d.file)) return changeText(text, false, change);
        // One line of the file damaged.
        const lines = text.split('\n');
        const filled = lines.flatMap((l, n) => (l.trim() ? [n] : []));
        const n = filled[d.line % Math.max(1, filled.length)] ?? 0;
        lines[n] = changeText(lines[n] ?? '', false, change);
        return lines.join('\n');
      },
    })),
  ];
}

/** The file's bytes with the variant's damage (gzip stays gzip). */
function damagedBytes(original: Buffer, variant: Variant): Buffer {
  const gz = variant.file.path.endsWith('.gz');
  const damaged = variant.damage((gz ? gunzipSync(original) : original).toString('utf8'));
  return gz ? gzipSync(damaged) : Buffer.from(damaged);
}

const DEFAULT_RUNS = () => Number(process.env.SV_DAMAGE_RUNS ?? 60);

/**
 * The sessions the readers accept from damaged copies of the samples, made in `copy` (a folder of its own). Each
 * variant's sessions get keys of their own (`<key>~<n>`), as if each were another file, with no parent or
 * sub-agents; their source files are the undamaged samples again once this returns.
 */
export async function damagedSampleSessions(copy: string, runs = DEFAULT_RUNS()): Promise<Session[]> {
  cpSync(samplesDir, copy, { recursive: true });
  const sessions: Session[] = [];
  for (const [i, variant] of variants(runs).entries()) {
    const abs = join(copy, variant.file.path);
    const original = readFileSync(abs);
    writeFileSync(abs, damagedBytes(original, variant));
    try {
      // Each variant's sessions under keys of their own, as if each were another file, standing alone (their
      // sub-agents' and parents' files are not among them).
      for (const s of await readAll(abs)) sessions.push({ ...s, key: `${s.key}~${i}`, parentKey: null, childKeys: [] });
    } finally {
      writeFileSync(abs, original);
    }
  }
  return sessions;
}

/**
 * The samples copied to `copy`, and beside each damaged file its damaged copies as files of their own
 * (`<name>-d<n>.jsonl`, in the agent's layout, so a scan of `copy` lists them as more sessions of that agent where
 * the agent keys sessions by file). Returns how many were written.
 */
export function writeDamagedSamples(copy: string, runs = DEFAULT_RUNS()): number {
  cpSync(samplesDir, copy, { recursive: true });
  let written = 0;
  for (const [i, variant] of variants(runs).entries()) {
    const abs = join(copy, variant.file.path);
    writeFileSync(abs.replace(/(\.jsonl|\.json)(\.gz)?$/, `-d${i}$1$2`), damagedBytes(readFileSync(abs), variant));
    written++;
  }
  return written;
}
