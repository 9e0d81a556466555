// The realistic benchmark corpus: sessions in a real machine's proportions (mostly Claude Code, then Codex, Gemini, the rest), sizes from a few KB to 200 MB, deterministic.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Prng } from '../prng.ts';
import { writeClaudeSession, CLAUDE_FORMAT } from './claude-code.ts';
import { writeCodexRollout } from './codex.ts';
import { CorpusWriter, type CompanionFile, type CorpusProfile, type WrittenFile } from './corpus-writer.ts';
import { writeGeminiChat } from './gemini.ts';
import { uuid } from './ids.ts';
import { writeJidoSession, writeVizierSession } from './other-formats.ts';
import { TextSource } from './text-source.ts';

/** Bump when the generator writes something different, so a kept corpus (--corpus-dir) is made again. */
const GENERATOR_VERSION = 3;

export interface RealisticCorpus {
  /** The folder to add as a root: `.claude/`, `.codex/`, `.gemini/`, `.jido_code/` and project folders below it. */
  root: string;
  /** Claude Code's folder (what ccusage reads as CLAUDE_CONFIG_DIR). */
  claudeDir: string;
  files: WrittenFile[];
  /** Files beside sessions that are none (sub-agents' meta), each with its session's file. */
  companions: CompanionFile[];
  bytes: number;
  profile: CorpusProfile;
  sizeMb: number;
  seed: number;
  /** Top-level sessions asked for (null: as many as the size holds, about 1,750 per GB). */
  sessions: number | null;
  /** The projects' folder names (each session's working directory is /home/dev/src/<name>). */
  projects: string[];
  /** Files over 32 MB: the "few 50–200 MB sessions", scaled with the corpus. */
  largeFiles: WrittenFile[];
  /** Whether this run wrote it (false: a kept corpus from --corpus-dir was used). */
  generated: boolean;
  generateMs: number;
}

interface Manifest {
  version: number;
  sizeMb: number;
  seed: number;
  sessions: number | null;
  projects: string[];
  files: WrittenFile[];
  companions: CompanionFile[];
  profile: CorpusProfile;
  generateMs: number;
}

const MB = 1024 * 1024;
const DAY = 86_400_000;
/** The big sessions of a 1 GB corpus, in MB (Claude Code, Claude Code, Codex), scaled with the corpus size. */
const LARGE_MB = [200, 100, 50] as const;

const CLAUDE_MODELS = [
  'claude-opus-4-7',
  'claude-opus-4-7',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-6',
  'claude-opus-4-1-20250805',
];
const CODEX_MODELS = ['gpt-5-codex', 'gpt-5.1-codex', 'gpt-5'];
const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash'];

const MEDIAN_BYTES = 120 * 1024;
const SIGMA = 1.4;
/** The mean of those sizes (a log-normal's mean is its median times e^(sigma²/2)). */
const MEAN_BYTES = MEDIAN_BYTES * Math.exp((SIGMA * SIGMA) / 2);

/** Log-normal session sizes: median 120 KB (times `scale`), a long tail, at most 12 MB (the large ones are planned apart). */
function sessionBytes(rng: Prng, scale = 1): number {
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(12 * MB, Math.max(3 * 1024, Math.round(MEDIAN_BYTES * scale * Math.exp(SIGMA * z))));
}

interface Place {
  cwd: string;
  project: string;
  branch: string;
  startMs: number;
}

function places(rng: Prng, text: TextSource, projects: string[]): () => Place {
  const names = [...new Set(text.code.map((f) => f.path.split('/')[0]?.replace(/^@/, '') ?? 'app'))];
  while (projects.length < 40) projects.push(rng.pick(names));
  const first = Date.UTC(2025, 5, 1);
  return () => {
    const project = rng.pick(projects);
    const word = (text
      .line(rng, 30)
      .toLowerCase()
      .match(/[a-z]{4,}/) ?? ['work'])[0];
    return {
      project,
      cwd: `/home/dev/src/${project}`,
      branch: rng.pick(['main', 'main', 'main', 'develop', `feature/${word}`, `fix/${word}`]),
      startMs: first + Math.floor(rng.next() * 365 * DAY),
    };
  };
}

function readManifest(dir: string, sizeMb: number, seed: number, sessions: number | null): Manifest | null {
  const file = join(dir, 'corpus.json');
  if (!existsSync(file)) return null;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    return m.version === GENERATOR_VERSION && m.sizeMb === sizeMb && m.seed === seed && m.sessions === sessions ? m : null;
  } catch {
    return null;
  }
}

function corpusOf(dir: string, m: Manifest, generated: boolean): RealisticCorpus {
  const root = join(dir, 'root');
  return {
    root,
    claudeDir: join(root, '.claude'),
    files: m.files,
    companions: m.companions,
    bytes: m.files.reduce((n, f) => n + f.bytes, 0),
    profile: m.profile,
    sizeMb: m.sizeMb,
    seed: m.seed,
    sessions: m.sessions,
    projects: m.projects,
    largeFiles: m.files.filter((f) => f.bytes > 32 * MB),
    generated,
    generateMs: m.generateMs,
  };
}

export interface CorpusOptions {
  sizeMb: number;
  /** Top-level sessions to write (their sizes scaled to fill `sizeMb`); by default as many as the size holds. */
  sessions?: number | undefined;
  seed?: number;
  /** The checkout whose node_modules and samples/ give the text. */
  repo?: string;
}

/**
 * Writes about `sizeMb` MB of sessions below `<dir>/root` (a corpus already there, made by this generator with the
 * same options, is used as it is).
 */
export async function realisticCorpus(dir: string, options: CorpusOptions): Promise<RealisticCorpus> {
  const { sizeMb, seed = 23, repo = resolve(import.meta.dirname, '../../..') } = options;
  const sessions = options.sessions ?? null;
  const kept = readManifest(dir, sizeMb, seed, sessions);
  if (kept) return corpusOf(dir, kept, false);
  const t0 = performance.now();
  const root = join(dir, 'root');
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const text = TextSource.load(repo);
  const rng = new Prng(seed);
  const w = new CorpusWriter();
  const projects: string[] = [];
  const place = places(rng, text, projects);
  const projectsDir = join(root, '.claude', 'projects');
  const claude = (targetBytes: number, subagents: boolean) => {
    const p = place();
    writeClaudeSession(w, text, rng, {
      projectsDir,
      cwd: p.cwd,
      branch: p.branch,
      sessionId: uuid(rng),
      startMs: p.startMs,
      model: rng.pick(CLAUDE_MODELS),
      targetBytes,
      subagents,
    });
  };
  const codex = (targetBytes: number) => {
    const p = place();
    writeCodexRollout(w, text, rng, {
      sessionsDir: join(root, '.codex', 'sessions'),
      cwd: p.cwd,
      branch: p.branch,
      startMs: p.startMs,
      model: rng.pick(CODEX_MODELS),
      targetBytes,
    });
  };
  // Smaller corpora get smaller ones; a larger corpus (more sessions, not larger ones) keeps them at 50-200 MB.
  const largeScale = Math.min(1, sizeMb / 1024);
  const [claudeBig, claudeLarge, codexLarge] = LARGE_MB.map((mb) => Math.round(mb * largeScale * MB)) as [number, number, number];
  claude(claudeBig, true);
  claude(claudeLarge, true);
  codex(codexLarge);
  const budget = sizeMb * MB;
  const written = () => w.files.reduce((n, f) => n + f.bytes, 0);
  // With a count asked for, sizes are scaled so that that many sessions fill the rest of the size.
  const sizeScale = sessions === null ? 1 : Math.max(0.01, (budget - written()) / sessions / MEAN_BYTES);
  for (let n = 0; sessions === null ? written() < budget : n < sessions; n++) {
    const bytes = sessions === null ? Math.min(sessionBytes(rng), Math.max(3 * 1024, budget - written())) : sessionBytes(rng, sizeScale);
    const r = rng.next();
    const p = place();
    if (r < 0.72) claude(bytes, rng.next() < 0.25);
    else if (r < 0.9) codex(bytes);
    else if (r < 0.96)
      writeGeminiChat(w, text, rng, {
        tmpDir: join(root, '.gemini', 'tmp'),
        cwd: p.cwd,
        startMs: p.startMs,
        model: rng.pick(GEMINI_MODELS),
        targetBytes: bytes,
        jsonl: rng.next() < 0.35,
      });
    else if (r < 0.98) writeJidoSession(w, text, rng, { root, ...p, model: rng.pick(CLAUDE_MODELS), targetBytes: Math.min(bytes, 2 * MB) });
    else writeVizierSession(w, text, rng, { root, ...p, model: rng.pick(CLAUDE_MODELS), targetBytes: Math.min(bytes, 2 * MB) });
  }
  const manifest: Manifest = {
    version: GENERATOR_VERSION,
    sizeMb,
    seed,
    sessions,
    projects,
    files: w.files,
    companions: w.companions,
    profile: w.profile,
    generateMs: Math.round(performance.now() - t0),
  };
  writeFileSync(join(dir, 'corpus.json'), JSON.stringify(manifest));
  return corpusOf(dir, manifest, true);
}

/** The corpus's Claude Code session files (sub-agents included), what ccusage reads. */
export const claudeFiles = (c: RealisticCorpus) => c.files.filter((f) => f.format === CLAUDE_FORMAT);
