// The real text the realistic corpus is made of: Markdown prose and source files from node_modules and samples/, chosen deterministically.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Prng } from '../prng.ts';

/** A source file as a session shows it: its path below the project, its text and its lines. */
export interface SourceText {
  /** Relative path (`zod/lib/types.d.ts`), placed under a project's folder by the writers. */
  path: string;
  text: string;
  lines: string[];
}

const CODE = /\.(?:ts|mts|cts|js|mjs|cjs|jsx|tsx)$/;
const PROSE = /\.(?:md|markdown)$/i;
const MIN_FILE = 1024;
const MAX_FILE = 128 * 1024;

/** Minified or generated files (long lines) make poor transcripts: people read and edit source. */
function looksWritten(text: string): boolean {
  const head = text.slice(0, 8192);
  const lines = head.split('\n');
  return lines.length > 8 && lines.every((l) => l.length < 400);
}

function walk(dir: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    // Dot folders (.cache, .vite, .bin) hold what builds and test runs leave, which changes from run to run.
    if (e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(path, out);
    else if (e.isFile() && (CODE.test(e.name) || PROSE.test(e.name))) out.push(path);
  }
}

/**
 * Prose paragraphs and source files, read once. The files are node_modules' (fixed by package-lock.json) and the
 * sample corpus's Markdown (committed), taken in path order at a stride, so a checkout makes the same corpus each run.
 */
export class TextSource {
  readonly paragraphs: string[] = [];
  readonly code: SourceText[] = [];
  readonly docs: SourceText[] = [];
  readonly bytes: number;

  private constructor(paragraphs: string[], code: SourceText[], docs: SourceText[]) {
    this.paragraphs = paragraphs;
    this.code = code;
    this.docs = docs;
    this.bytes = [...code, ...docs].reduce((n, f) => n + f.text.length, 0);
  }

  /** `repo`: the checkout; `budget`: about how many characters of files to keep. */
  static load(repo: string, budget = 24 * 1024 * 1024): TextSource {
    const found: string[] = [];
    walk(join(repo, 'node_modules'), found);
    const candidates = found
      .map((path) => ({ path, size: statSync(path).size }))
      .filter((f) => f.size >= MIN_FILE && f.size <= MAX_FILE)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const total = candidates.reduce((n, f) => n + f.size, 0);
    const stride = Math.max(1, Math.floor(total / budget));
    const code: SourceText[] = [];
    const docs: SourceText[] = [];
    const paragraphs: string[] = [];
    const add = (absolute: string, base: string) => {
      const text = readFileSync(absolute, 'utf8');
      if (!looksWritten(text)) return;
      const file = { path: relative(base, absolute).replaceAll('\\', '/'), text, lines: text.split('\n') };
      if (PROSE.test(absolute)) {
        docs.push(file);
        for (const p of text.split(/\n\s*\n/)) if (p.length >= 40 && /[a-z]{3}/i.test(p) && p.length < 4000) paragraphs.push(p.trim());
      } else code.push(file);
    };
    // Every Markdown file (prose is what prompts and answers are made of), every stride-th source file.
    candidates.forEach((f, i) => {
      if (PROSE.test(f.path) || i % stride === 0) add(f.path, join(repo, 'node_modules'));
    });
    for (const name of ['README.md', 'MANIFEST.md']) add(join(repo, 'samples', name), join(repo, 'samples'));
    if (!paragraphs.length || !code.length) throw new Error('No text found for the realistic corpus: is node_modules installed?');
    return new TextSource(paragraphs, code, docs);
  }

  /** Paragraphs, one after another, until at least `chars` characters (joined by blank lines, as written). */
  prose(rng: Prng, chars: number): string {
    const out: string[] = [];
    let n = 0;
    let i = rng.int(0, this.paragraphs.length - 1);
    while (n < chars) {
      const p = this.paragraphs[i % this.paragraphs.length] as string;
      out.push(p);
      n += p.length + 2;
      // Mostly the next paragraph of the same file (a coherent text), now and then a jump.
      i = rng.next() < 0.8 ? i + 1 : rng.int(0, this.paragraphs.length - 1);
    }
    return out.join('\n\n');
  }

  /** One short paragraph, cut to at most `max` characters at a space. */
  line(rng: Prng, max = 120): string {
    const p = (rng.pick(this.paragraphs) as string).replace(/\s+/g, ' ');
    if (p.length <= max) return p;
    const cut = p.lastIndexOf(' ', max);
    return p.slice(0, cut > 20 ? cut : max);
  }

  sourceFile(rng: Prng): SourceText {
    return rng.next() < 0.8 ? (rng.pick(this.code) as SourceText) : (rng.pick(this.docs) as SourceText);
  }

  /** A run of `count` lines of a file, from a random start. */
  snippet(rng: Prng, file: SourceText, count: number): { start: number; lines: string[] } {
    const start = rng.int(0, Math.max(0, file.lines.length - count));
    return { start, lines: file.lines.slice(start, start + count) };
  }
}
