// Exports a planted corpus through the real bundle and document paths and counts which planted secrets got out; and counts findings on clean samples.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import yauzl from 'yauzl';
import type { Session } from '../../shared/session.ts';
import { exportBundle } from '../bundle/export-bundle.ts';
import { renderDocument } from '../bundle/export-document.ts';
import { prefilterFor } from '../bundle/secret-prefilter.ts';
import { SecretScanStream } from '../bundle/secret-scan.ts';
import { Redactor } from '../recorder/redact.ts';
import { findReader } from '../sources/registry.ts';
import type { Plant } from './redaction-corpus.ts';

/** Every entry of a zip, decompressed. */
export function unzip(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** An output's text as a reader of it would see it: gunzipped, with every base64 `"body"` decoded beside it. */
export function readable(bytes: Buffer): string {
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const bodies = [...text.matchAll(/"body"\s*:\s*"([A-Za-z0-9+/=]{16,})"/g)].map((m) => Buffer.from(m[1] as string, 'base64').toString('utf8'));
  return [text, ...bodies].join('\n');
}

/** Whether `needle` (or a long piece of it: a cut title keeps a key's head) is in `text`. */
export function leaks(text: string, needle: string): boolean {
  if (text.includes(needle)) return true;
  return needle.length >= 24 && (text.includes(needle.slice(0, 16)) || text.includes(needle.slice(-16)));
}

export interface RecallResult {
  plants: Plant[];
  /** Plants whose secret is in some output, with where. */
  leaked: Array<{ plant: Plant; where: string }>;
  outputs: number;
  sessions: number;
}

/** Reads `files`, exports every session as one bundle at `zipPath` and as Markdown and HTML, and checks each plant against every output. */
export async function measureRecall(files: string[], plants: Plant[], zipPath: string): Promise<RecallResult> {
  const sessions = new Map<string, Session>();
  for (const file of files) {
    const reader = findReader(file);
    if (!reader) throw new Error(`no reader claims ${file}`);
    const session = await reader.read(file);
    sessions.set(session.key, session);
  }
  const load = async (key: string) => sessions.get(key) as Session;
  await exportBundle([...sessions.keys()], load, zipPath, { env: {}, includeChildren: false });
  const outputs = new Map<string, string>();
  for (const [name, bytes] of await unzip(zipPath)) outputs.set(name, readable(bytes));
  for (const [key, session] of sessions) {
    for (const format of ['md', 'html'] as const) outputs.set(`${key}.${format}`, (await renderDocument(session, format, { env: {} })).text);
  }
  const leaked: RecallResult['leaked'] = [];
  for (const plant of plants) {
    for (const [name, text] of outputs) {
      if (leaks(text, plant.needle)) {
        leaked.push({ plant, where: name });
        break;
      }
    }
  }
  return { plants, leaked, outputs: outputs.size, sessions: sessions.size };
}

/** Recall per row key and column key, as a printable table (rows × columns, each cell found/planted). */
export function recallTable(result: RecallResult, row: (p: Plant) => string, column: (p: Plant) => string): string[] {
  const leakedSet = new Set(result.leaked.map((l) => l.plant));
  const rows = [...new Set(result.plants.map(row))];
  const columns = [...new Set(result.plants.map(column))];
  const cell = (r: string, c: string) => {
    const here = result.plants.filter((p) => row(p) === r && column(p) === c);
    if (!here.length) return '—';
    const found = here.filter((p) => !leakedSet.has(p)).length;
    return found === here.length ? `${found}/${here.length}` : `${found}/${here.length}!`;
  };
  const width = Math.max(...rows.map((r) => r.length), 6);
  const colWidth = Math.max(...columns.map((c) => c.length), 7);
  const lines = [`${''.padEnd(width)}  ${columns.map((c) => c.padStart(colWidth)).join(' ')}  ${'recall'.padStart(7)}`];
  for (const r of rows) {
    const mine = result.plants.filter((p) => row(p) === r);
    const recall = mine.filter((p) => !leakedSet.has(p)).length / mine.length;
    lines.push(`${r.padEnd(width)}  ${columns.map((c) => cell(r, c).padStart(colWidth)).join(' ')}  ${`${(recall * 100).toFixed(1)}%`.padStart(7)}`);
  }
  return lines;
}

/** Findings on files that hold no real secret (the sample corpus): each is a false positive. Scanned as an export scans a source. */
export async function findingsOnSamples(dirs: string[]): Promise<{ files: number; bytes: number; byRule: Map<string, number>; examples: string[] }> {
  const byRule = new Map<string, number>();
  const examples: string[] = [];
  let files = 0;
  let bytes = 0;
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      let data = await readFile(path);
      if (data[0] === 0x1f && data[1] === 0x8b) {
        try {
          data = gunzipSync(data);
        } catch {
          // a torn gzip (the malformed samples): scanned as the bytes it is
        }
      }
      files++;
      bytes += data.length;
      const ctx = { redactor: new Redactor(['secrets'], {}), literals: new Map<string, string>(), keep: new Set<string>(), prefilter: prefilterFor({}) };
      const scan = new SecretScanStream(ctx, { file: path, clip: /\.(json|jsonl|ndjson)(\.gz)?$/i.test(path) ? 'json' : 'text', emit: false });
      await new Promise<void>((resolve, reject) => {
        scan.on('finish', resolve).on('error', reject);
        scan.end(data);
      });
      for (const f of scan.findings) {
        byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
        if (examples.length < 40) examples.push(`${f.rule}  ${path.replace(dir, '')}:${f.line}  ${f.preview}`);
      }
    }
  }
  return { files, bytes, byRule, examples };
}
