// Redaction recall in every format the app reads: secrets planted into a copy of the sample corpus (JSON strings, SQLite text, Markdown lines), every session exported through the contract.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { BundleExport } from '../../shared/bundle-api.ts';
import { benchServices } from './bench-services.ts';
import { Prng } from './prng.ts';
import { SECRET_TYPES, secretOf, type SecretType } from './redaction-corpus.ts';
import { leaks, readable, unzip } from './redaction-recall.ts';

/** One secret planted into a sample file: `needle` must not leave; `format` is the sample corpus folder it went into. */
export interface SamplePlant {
  type: SecretType;
  format: string;
  needle: string;
}

export interface SampleRecall {
  /** The plants an export carries: those found in the same sessions' bundle exported unredacted (the rest sit in bytes no reader shares). */
  plants: SamplePlant[];
  /** Every plant written into the corpus. */
  planted: number;
  leaked: Array<{ plant: SamplePlant; where: string }>;
  files: number;
  sessions: number;
  outputs: number;
  /** Sessions listed but not exported because their reader could not read them (the corpus's empty files). */
  unreadable: number;
}

/** Sample folders that hold no session of a format: expected outputs and deliberately broken files. */
const SKIPPED = /(?:^|\/)(?:_expected|malformed)(?:\/|$)/;

/** Plants secrets into a copy of the sample corpus, each of the next secret type in turn, and remembers them. */
class Planter {
  readonly plants: SamplePlant[] = [];
  private readonly rng: Prng;
  private next = 0;

  constructor(seed: number) {
    this.rng = new Prng(seed);
  }

  /** A new secret of the next type in turn, as written (an assignment, a URL, a PEM block), on lines of its own. */
  secret(format: string): string {
    const type = SECRET_TYPES[this.next++ % SECRET_TYPES.length] as SecretType;
    const { needle, written } = secretOf(this.rng, type);
    this.plants.push({ type, format, needle });
    return written;
  }

  /** Prose (a string with a space) gets a secret after it; JSON inside a string is planted inside. */
  json(value: unknown, format: string): unknown {
    if (typeof value === 'string') {
      if (!value.includes(' ') || value.length < 8) return value;
      const inner = parseObject(value);
      return inner ? JSON.stringify(this.json(inner, format)) : `${value}\n${this.secret(format)}\n`;
    }
    if (Array.isArray(value)) return value.map((v) => this.json(v, format));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.json(v, format)]));
    return value;
  }
}

function parseObject(text: string): object | null {
  if (!/^\s*[[{]/.test(text)) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

/** Plants into one file by its kind; a file that is not JSON, SQLite or Markdown (or does not parse) is left as it is. */
async function plantFile(file: string, format: string, planter: Planter): Promise<void> {
  if (/\.(?:db|sqlite)$/.test(file)) return plantStore(file, format, planter);
  if (/\.md$/.test(file)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, lines.flatMap((l) => (/^[A-Za-z].* .* /.test(l) ? [l, planter.secret(format)] : [l])).join('\n'));
    return;
  }
  if (!/\.(?:jsonl|ndjson|json)(?:\.gz)?$/.test(file)) return;
  const raw = await readFile(file);
  const gz = raw[0] === 0x1f && raw[1] === 0x8b;
  let text: string;
  try {
    text = (gz ? gunzipSync(raw) : raw).toString('utf8');
  } catch {
    return;
  }
  let out: string;
  if (/\.json(?:\.gz)?$/.test(file)) {
    const value = parseObject(text);
    if (!value) return;
    out = JSON.stringify(planter.json(value, format));
  } else {
    out = text
      .split('\n')
      .map((line) => {
        const value = parseObject(line);
        return value ? JSON.stringify(planter.json(value, format)) : line;
      })
      .join('\n');
  }
  await writeFile(file, gz ? gzipSync(out) : out);
}

/** Every text column of every row of an agent's SQLite store: prose gets a secret, JSON text a secret inside. */
function plantStore(file: string, format: string, planter: Planter): void {
  const db = new DatabaseSync(file);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    for (const { name } of tables) {
      let rows: Array<Record<string, unknown>>;
      try {
        rows = db.prepare(`SELECT rowid AS __rowid, * FROM "${name}"`).all() as Array<Record<string, unknown>>;
      } catch {
        continue; // a virtual or WITHOUT ROWID table
      }
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (column === '__rowid' || typeof value !== 'string' || !value.includes(' ')) continue;
          const planted = planter.json(value, format);
          if (planted !== value) db.prepare(`UPDATE "${name}" SET "${column}" = ? WHERE rowid = ?`).run(planted as string, row.__rowid as number);
        }
      }
    }
  } finally {
    db.close();
  }
}

/**
 * Copies `samplesDir` (its sessions, not the expected outputs or the broken files), plants secrets into every file
 * a format's reader reads, lists the copy through the app's services, exports every readable session as one
 * redacted bundle and each as Markdown and HTML through the contract, and checks every plant against every output.
 */
export async function measureSampleRecall(samplesDir: string, seed = 1): Promise<SampleRecall> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-redaction-samples-'));
  const root = join(base, 'root');
  const services = benchServices({ dataDir: join(base, 'data'), shell: 'web', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
  try {
    await cp(samplesDir, root, { recursive: true, filter: (src) => !SKIPPED.test(relative(samplesDir, src).split(sep).join('/')) });
    const planter = new Planter(seed);
    // The corpus's own manifest and notes at its top are no session: only files in a format's folder are planted.
    const files = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile() && d.parentPath !== root)
      .map((d) => join(d.parentPath, d.name))
      .sort();
    for (const file of files) await plantFile(file, relative(root, file).split(sep)[0] as string, planter);
    await services.start();
    await services.whenScanned();
    const { sessions } = await services.client.listSessions({ includeChildren: true });
    const exportable = sessions.filter((s) => !s.unreadable);
    const call = async <T>(method: string, input: unknown): Promise<T> => {
      const result = await services.dispatch(method, input);
      if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
      return result.value as T;
    };
    let n = 0;
    const exportId = () => `sample-recall-${String(++n).padStart(6, '0')}`;
    const keys = exportable.map((s) => s.key);
    const raw = await call<BundleExport>('exportBundle', { exportId: exportId(), keys, includeChildren: false, redact: false });
    const shared = [...(await unzip(raw.path)).values()].map((bytes) => readable(bytes));
    const exposed = planter.plants.filter((p) => shared.some((text) => leaks(text, p.needle)));
    const outputs = new Map<string, string>();
    const zip = await call<BundleExport>('exportBundle', { exportId: exportId(), keys, includeChildren: false });
    for (const [name, bytes] of await unzip(zip.path)) outputs.set(name, readable(bytes));
    for (const s of exportable) {
      for (const format of ['md', 'html'] as const) {
        const doc = await call<BundleExport>('exportBundle', { exportId: exportId(), keys: [s.key], format, includeChildren: false });
        outputs.set(`${s.key}.${format}`, await readFile(doc.path, 'utf8'));
      }
    }
    const leaked: SampleRecall['leaked'] = [];
    for (const plant of exposed) {
      for (const [where, text] of outputs) {
        if (leaks(text, plant.needle)) {
          leaked.push({ plant, where });
          break;
        }
      }
    }
    return {
      plants: exposed,
      planted: planter.plants.length,
      leaked,
      files: files.length,
      sessions: exportable.length,
      outputs: outputs.size,
      unreadable: sessions.length - exportable.length,
    };
  } finally {
    await services.close();
    await rm(base, { recursive: true, force: true });
  }
}

/** Recall per sample folder (a format, or a few of one), then per secret type, as printable lines. */
export function sampleRecallLines(r: SampleRecall): string[] {
  const leakedSet = new Set(r.leaked.map((l) => l.plant));
  const line = (label: string, plants: SamplePlant[]) => {
    const found = plants.filter((p) => !leakedSet.has(p)).length;
    return `${label.padEnd(22)} ${`${found}/${plants.length}`.padStart(11)}  ${plants.length ? ((found / plants.length) * 100).toFixed(1) : '—'}%${found < plants.length ? '  !' : ''}`;
  };
  const out: string[] = [];
  for (const format of [...new Set(r.plants.map((p) => p.format))].sort())
    out.push(
      line(
        format,
        r.plants.filter((p) => p.format === format),
      ),
    );
  out.push('');
  for (const type of SECRET_TYPES)
    out.push(
      line(
        type,
        r.plants.filter((p) => p.type === type),
      ),
    );
  return out;
}
