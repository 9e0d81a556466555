// Search recall against ripgrep: for words of different frequencies, every file `rg -w -i` finds must be a search result.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ApiClient } from '../../shared/api-client.ts';
import type { RealisticCorpus } from './realistic-corpus/corpus.ts';
import { TextSource } from './realistic-corpus/text-source.ts';

const run = promisify(execFile);
export const RG = '/usr/bin/rg';

export interface WordRecall {
  word: string;
  /** Files rg finds the word in, as a whole word, any case. */
  rgFiles: number;
  /** Of those, files whose session a search for the word returns. */
  found: number;
  /** A few files rg finds that the search does not return. */
  missed: string[];
}

/**
 * Words in the JSON structure (keys such as "content", enumerations such as "tool_result") are in every file but
 * in no text a person would search: they are left out of the candidates. Read from a sample of each format's lines.
 */
function structuralWords(corpus: RealisticCorpus): Set<string> {
  const words = new Set<string>();
  const values = new Map<string, number>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        for (const w of k.toLowerCase().split(/[^a-z0-9]+/)) if (w) words.add(w);
        walk(x);
      }
    } else if (typeof v === 'string' && v.length < 40 && !v.includes(' ')) values.set(v, (values.get(v) ?? 0) + 1);
  };
  const byFormat = new Map<string, number>();
  for (const f of corpus.files) {
    if ((byFormat.get(f.format) ?? 0) >= 20) continue;
    byFormat.set(f.format, (byFormat.get(f.format) ?? 0) + 1);
    const text = readFileSync(f.path, 'utf8').slice(0, 2 << 20);
    const docs = f.path.endsWith('.jsonl') ? text.split('\n').slice(0, -1) : [text];
    for (const line of docs) {
      try {
        walk(JSON.parse(line));
      } catch {
        // a line cut by the slice
      }
    }
  }
  // Values that recur (enumerations and fixed strings), not text.
  for (const [v, n] of values) if (n >= 20) for (const w of v.toLowerCase().split(/[^a-z0-9]+/)) if (w) words.add(w);
  return words;
}

/** Candidate words from the corpus's text, spread over how many source texts hold them (log-spaced ranks). */
function candidates(repo: string, exclude: Set<string>, count: number): string[] {
  const text = TextSource.load(repo);
  const docFreq = new Map<string, number>();
  for (const f of [...text.code, ...text.docs]) {
    for (const w of new Set(f.text.toLowerCase().match(/\b[a-z]{6,14}\b/g) ?? [])) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  }
  const ranked = [...docFreq.entries()].filter(([w]) => !exclude.has(w)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const rank = Math.min(ranked.length - 1, Math.floor(Math.exp((Math.log(ranked.length) * i) / count)) - 1);
    const w = ranked[Math.max(0, rank)]?.[0];
    if (w && !out.includes(w)) out.push(w);
  }
  return out;
}

async function rgFiles(word: string, root: string): Promise<string[]> {
  // Session folders are hidden (.claude, .codex): without --hidden rg searches nothing there.
  const { stdout } = await run(RG, ['-l', '-w', '-i', '-F', '--hidden', '--no-ignore', '--', word, root], { maxBuffer: 256 << 20 }).catch(
    (err: { code?: number; stdout?: string }) => {
      if (err.code === 1) return { stdout: '' };
      throw err;
    },
  );
  return stdout.split('\n').filter(Boolean);
}

/**
 * The 20 words (fewer if the corpus is tiny), chosen to span rare to common by rg's own counts. Each with the session
 * files rg finds it in: a hit in a companion file (a sub-agent's meta) is a hit in the session it belongs to.
 */
export async function recallWords(corpus: RealisticCorpus, repo: string, wanted = 20): Promise<Array<{ word: string; files: string[] }>> {
  const pool = candidates(repo, structuralWords(corpus), wanted * 4);
  const ownerOf = new Map(corpus.companions.map((c) => [c.path, c.owner]));
  const measured: Array<{ word: string; files: string[] }> = [];
  for (const word of pool) {
    const files = [...new Set((await rgFiles(word, corpus.root)).map((f) => ownerOf.get(f) ?? f))];
    if (files.length) measured.push({ word, files });
  }
  measured.sort((a, b) => a.files.length - b.files.length || (a.word < b.word ? -1 : 1));
  if (measured.length <= wanted) return measured;
  // Evenly over the sorted counts: the rarest, the most common and the ones between.
  return Array.from({ length: wanted }, (_, i) => measured[Math.round((i * (measured.length - 1)) / (wanted - 1))] as { word: string; files: string[] });
}

/** Every page of a search for the word: the files of the sessions it returns (each session's source files). */
async function searchedFiles(client: ApiClient, word: string): Promise<Set<string>> {
  const files = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const page = await client.searchSessions({ query: word, limit: 1000, offset });
    for (const r of page.results) files.add(r.summary.primaryPath);
    if (page.results.length < 1000 || offset + 1000 >= page.total) return files;
  }
}

export async function measureRecall(client: ApiClient, words: Array<{ word: string; files: string[] }>): Promise<WordRecall[]> {
  const out: WordRecall[] = [];
  for (const { word, files } of words) {
    const found = await searchedFiles(client, word);
    const missed = files.filter((f) => !found.has(f));
    out.push({ word, rgFiles: files.length, found: files.length - missed.length, missed: missed.slice(0, 3) });
  }
  return out;
}
