// Deterministic synthetic corpus for the search benchmark: N sessions across formats with realistic sizes and words.
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { Prng } from './prng.ts';

export interface CorpusFile {
  path: string;
  bytes: number;
  format: 'claude-code' | 'codex' | 'jido-code' | 'vizier';
}

export interface Corpus {
  root: string;
  files: CorpusFile[];
  bytes: number;
  /** Words and identifiers planted in the corpus, for the fixed query set. */
  vocabulary: string[];
  identifiers: string[];
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vor', 'sil', 'qua', 'zen', 'dra', 'pel', 'nox', 'tri', 'bel', 'mun', 'gar', 'fes', 'hol', 'jin', 'wex'];
const VERBS = ['parse', 'load', 'render', 'merge', 'resolve', 'fetch', 'compute', 'validate', 'encode', 'flush'];
const NOUNS = ['Document', 'Session', 'Ledger', 'Snapshot', 'Index', 'Token', 'Branch', 'Cursor', 'Payload', 'Schema', 'Vizier', 'Rollout'];

function vocabulary(rng: Prng, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) words.add(Array.from({ length: rng.int(2, 4) }, () => rng.pick(SYLLABLES)).join(''));
  return [...words];
}

function identifiers(rng: Prng, size: number): string[] {
  const ids = new Set<string>();
  while (ids.size < size) ids.add(`${rng.pick(VERBS)}${rng.pick(NOUNS)}${rng.pick(NOUNS)}${rng.int(1, 99)}`);
  return [...ids];
}

/** Log-normal sizes: median ~10 KB, p99 ~1 MB, capped at 3 MB (the huge files are added separately). */
function sessionBytes(rng: Prng): number {
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(3 * 1024 * 1024, Math.max(1500, Math.round(10 * 1024 * Math.exp(1.98 * z))));
}

class TextMaker {
  private readonly rng: Prng;
  private readonly words: string[];
  private readonly ids: string[];
  constructor(rng: Prng, words: string[], ids: string[]) {
    this.rng = rng;
    this.words = words;
    this.ids = ids;
  }
  /** Zipf-like: a few words are everywhere, most are rare. */
  text(length: number): string {
    const out: string[] = [];
    let n = 0;
    while (n < length) {
      const r = this.rng.next();
      const w =
        r < 0.04 ? (this.ids[Math.floor(this.rng.next() ** 2 * this.ids.length)] as string) : (this.words[Math.floor(r ** 3 * this.words.length)] as string);
      out.push(w);
      n += w.length + 1;
    }
    return out.join(' ');
  }
  id(): string {
    return this.ids[Math.floor(this.rng.next() ** 2 * this.ids.length)] as string;
  }
}

async function writeLines(path: string, targetBytes: number, next: (i: number) => unknown[]): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  let written = 0;
  for (let i = 0; written < targetBytes; i++) {
    for (const record of next(i)) {
      const line = `${JSON.stringify(record)}\n`;
      written += Buffer.byteLength(line);
      if (!out.write(line)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return written;
}

const uuid = (rng: Prng) => {
  const h = () =>
    Math.floor(rng.next() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-8${h().slice(1)}-${h()}${h()}${h()}`;
};

async function writeSession(root: string, n: number, bytes: number, rng: Prng, t: TextMaker, projects: string[]): Promise<CorpusFile> {
  const format = (['claude-code', 'codex', 'jido-code', 'vizier'] as const)[n % 4] as CorpusFile['format'];
  const project = rng.pick(projects);
  const start = Date.UTC(2025, 0, 1) + Math.floor(rng.next() * 500 * 86_400_000);
  const ts = (i: number) => new Date(start + i * 9_000).toISOString();
  const branch = rng.pick(['main', 'main', 'develop', `fix/${t.text(6).split(' ')[0]}`, `feature/${t.text(6).split(' ')[0]}`]);
  const model = format === 'codex' ? rng.pick(['gpt-5-codex', 'gpt-5']) : rng.pick(['claude-sonnet-4-5', 'claude-opus-4-7', 'gemini-2.5-pro']);
  const id = uuid(rng);
  if (format === 'claude-code') {
    const path = join(root, '.claude', 'projects', `-home-dev-${project}`, `${id}.jsonl`);
    const base = { sessionId: id, cwd: `/home/dev/${project}`, version: '2.1.150', gitBranch: branch, isSidechain: false, userType: 'external' };
    let parent: string | null = null;
    const written = await writeLines(path, bytes, (i) => {
      const u = `${id.slice(0, 24)}${(i * 3).toString(16).padStart(12, '0')}`;
      const a = `${id.slice(0, 24)}${(i * 3 + 1).toString(16).padStart(12, '0')}`;
      const r = `${id.slice(0, 24)}${(i * 3 + 2).toString(16).padStart(12, '0')}`;
      const toolId = `toolu_01${id.replaceAll('-', '').slice(0, 10)}${i}`;
      const usage = { input_tokens: rng.int(100, 4000), output_tokens: rng.int(50, 1500), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
      const records = [
        { ...base, type: 'user', uuid: u, parentUuid: parent, timestamp: ts(i * 3), message: { role: 'user', content: t.text(rng.int(40, 300)) } },
        {
          ...base,
          type: 'assistant',
          uuid: a,
          parentUuid: u,
          timestamp: ts(i * 3 + 1),
          message: {
            id: `msg_${id.slice(0, 8)}${i}`,
            type: 'message',
            role: 'assistant',
            model,
            usage,
            content: [
              { type: 'text', text: t.text(rng.int(80, 900)) },
              { type: 'tool_use', id: toolId, name: rng.pick(['Read', 'Bash', 'Grep', 'Edit']), input: { file_path: `/home/dev/${project}/src/${t.id()}.ts` } },
            ],
          },
        },
        {
          ...base,
          type: 'user',
          uuid: r,
          parentUuid: a,
          timestamp: ts(i * 3 + 2),
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: t.text(rng.int(200, 4000)), is_error: false }] },
        },
      ];
      parent = r;
      return records;
    });
    return { path, bytes: written, format };
  }
  if (format === 'codex') {
    const day = new Date(start).toISOString().slice(0, 10).split('-');
    const path = join(
      root,
      '.codex',
      'sessions',
      day[0] ?? '2025',
      day[1] ?? '01',
      day[2] ?? '01',
      `rollout-${new Date(start).toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`,
    );
    const written = await writeLines(path, bytes, (i) => {
      const call = `call_${id.slice(0, 8)}${i}`;
      const records: unknown[] = [];
      if (i === 0)
        records.push({
          timestamp: ts(0),
          type: 'session_meta',
          payload: {
            id,
            timestamp: ts(0),
            cwd: `/home/dev/${project}`,
            originator: 'codex_cli_rs',
            cli_version: '0.128.0',
            source: 'cli',
            git: { commit_hash: 'a'.repeat(40), branch },
          },
        });
      records.push(
        {
          timestamp: ts(i * 5 + 1),
          type: 'turn_context',
          payload: {
            turn_id: `turn-${i}`,
            cwd: `/home/dev/${project}`,
            model,
            effort: 'high',
            approval_policy: 'on-request',
            sandbox_policy: { type: 'workspace-write' },
          },
        },
        {
          timestamp: ts(i * 5 + 2),
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: t.text(rng.int(40, 300)) }] },
        },
        {
          timestamp: ts(i * 5 + 3),
          type: 'response_item',
          payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `rg -n ${t.id()}`] }), call_id: call },
        },
        {
          timestamp: ts(i * 5 + 4),
          type: 'response_item',
          payload: {
            type: 'function_call_output',
            call_id: call,
            output: JSON.stringify({ output: t.text(rng.int(200, 4000)), metadata: { exit_code: 0, duration_seconds: 0.4 } }),
          },
        },
        {
          timestamp: ts(i * 5 + 5),
          type: 'response_item',
          payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.text(rng.int(80, 900)) }] },
        },
      );
      return records;
    });
    return { path, bytes: written, format };
  }
  // Document formats: one JSON file, grown turn by turn to the target size.
  const messages: Array<{ role: string; content: string; ts: string }> = [];
  let size = 600;
  for (let i = 0; size < bytes; i++) {
    const content = t.text(i % 2 ? rng.int(80, 2000) : rng.int(40, 300));
    messages.push({ role: i % 2 ? 'assistant' : 'user', content, ts: ts(i) });
    size += content.length + 80;
  }
  let path: string;
  let doc: unknown;
  if (format === 'jido-code') {
    path = join(root, '.jido_code', 'sessions', `${id}.json`);
    doc = {
      version: 1,
      id,
      name: t.text(30),
      project_path: `/home/dev/${project}`,
      config: { provider: 'anthropic', model, temperature: 0.2 },
      created_at: ts(0),
      updated_at: ts(messages.length),
      closed_at: ts(messages.length),
      conversation: messages.map((m, i) => ({ id: `m${i}`, role: m.role, content: m.content, timestamp: m.ts })),
      todos: [{ content: t.text(40), status: 'completed', active_form: 'Working' }],
    };
  } else {
    path = join(root, project, '.vizier', 'sessions', id, 'session.json');
    doc = {
      id,
      created_at: ts(0),
      updated_at: ts(messages.length),
      tool_version: '0.1.0',
      repo: { root: `/home/dev/${project}`, current_branch: branch, head_sha: 'abc1234' },
      model: { provider: 'anthropic', name: model, temperature: 0.2 },
      chat: messages.map((m) => ({ role: m.role, content: m.content, ts: m.ts })),
      operations: [],
      artifacts: [],
      outcome: { status: rng.pick(['accepted', 'rejected', 'open']), summary: t.text(60), commit_sha: 'abc1234' },
    };
  }
  const text = JSON.stringify(doc);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return { path, bytes: Buffer.byteLength(text), format };
}

/** Writes `count` sessions below `root`; with 5,000 or more, two of them are 50 MB+. */
export async function generateCorpus(root: string, count: number, seed = 7): Promise<Corpus> {
  const rng = new Prng(seed);
  const vocab = vocabulary(rng, 6000);
  const ids = identifiers(rng, 3000);
  const projects = Array.from({ length: 40 }, (_, i) => `${vocab[i * 7]}-${i}`);
  const maker = new TextMaker(rng, vocab, ids);
  const files: CorpusFile[] = [];
  for (let n = 0; n < count; n++) {
    const huge = count >= 5000 && (n === 11 || n === 4004);
    files.push(await writeSession(root, huge ? 4 * n : n, huge ? 52 * 1024 * 1024 : sessionBytes(rng), rng, maker, projects));
  }
  return { root, files, bytes: files.reduce((s, f) => s + f.bytes, 0), vocabulary: vocab, identifiers: ids };
}
