// The bench's OpenCode store: one opencode.db in OpenCode's layout and WAL mode holding N sessions with realistic rows (prompts, reasoning, tool calls and outputs, step tokens and cost, sub-sessions).
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createOpenCodeStore, writeSession, type ToolSpec, type TurnSpec } from '../sources/opencode/opencode-test-store.ts';
import { Prng } from './prng.ts';

export interface OpenCodeStore {
  /** The folder to add as a root (OpenCode's data folder lies below it, as under a home). */
  root: string;
  path: string;
  sessions: number;
  /** The store and its WAL, in bytes. */
  bytes: number;
}

const PROJECTS = ['/home/dev/harbor-api', '/home/dev/ledger', '/home/dev/tide-tables', '/home/dev/vizier', '/home/dev/site'];
const FILES = ['src/index.ts', 'src/parser.ts', 'src/ledger/entry.ts', 'test/parser.test.ts', 'README.md', 'package.json', 'src/api/routes.ts'];

/** Turns per session: log-normal, median 4, up to 60 (most OpenCode sessions are short, a few run long). */
function turnCount(rng: Prng): number {
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(60, Math.max(1, Math.round(4 * Math.exp(0.8 * z))));
}

function tool(rng: Prng, cwd: string): ToolSpec {
  const file = rng.pick(FILES);
  switch (rng.int(0, 4)) {
    case 0:
      return {
        tool: 'bash',
        input: { command: rng.pick(['npm test', 'git status', 'ls src', 'npm run build']), description: rng.text(30) },
        output: rng.text(rng.int(80, 1200)),
      };
    case 1:
      return { tool: 'read', input: { filePath: join(cwd, file) }, output: rng.text(rng.int(200, 2000)) };
    case 2:
      return { tool: 'edit', input: { filePath: join(cwd, file), oldString: rng.text(60), newString: rng.text(80) }, output: '' };
    case 3:
      return { tool: 'grep', input: { pattern: rng.pick(['parseLedger', 'TODO', 'export function']), path: cwd }, output: rng.text(rng.int(60, 600)) };
    default:
      return { tool: 'bash', input: { command: 'npm run lint' }, output: `error: ${rng.text(120)}`, error: true };
  }
}

function turn(rng: Prng, cwd: string): TurnSpec {
  const tools = Array.from({ length: rng.int(0, 3) }, () => tool(rng, cwd));
  const input = rng.int(800, 12_000);
  const output = rng.int(50, 1500);
  return {
    prompt: rng.text(rng.int(40, 400)),
    ...(rng.next() < 0.4 ? { reasoning: rng.text(rng.int(100, 800)) } : {}),
    tools,
    answer: rng.text(rng.int(60, 900)),
    tokens: { input, output, reasoning: rng.int(0, 400), cache: { read: rng.int(0, 40_000), write: rng.int(0, 2000) } },
    cost: Math.round((input * 3 + output * 15) / 10) / 100_000,
  };
}

/** Writes the store (a fresh folder under `base`), `sessions` sessions in transactions of 200, the WAL left as OpenCode leaves it. */
export async function generateOpenCodeStore(base: string, sessions: number, seed = 22): Promise<OpenCodeStore> {
  const root = join(base, 'opencode-home');
  await rm(root, { recursive: true, force: true });
  const dir = join(root, '.local', 'share', 'opencode');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'opencode.db');
  const rng = new Prng(seed);
  const db: DatabaseSync = createOpenCodeStore(path, PROJECTS[0]);
  try {
    let start = Date.UTC(2025, 5, 1);
    for (let i = 0; i < sessions; i++) {
      if (i % 200 === 0) db.exec('BEGIN');
      const cwd = rng.pick(PROJECTS);
      start += rng.int(60_000, 3_600_000);
      // One session in twenty is a sub-session a task tool started from the one before it.
      const parentId = i > 0 && rng.next() < 0.05 ? `ses_bench${(i - 1).toString().padStart(6, '0')}` : null;
      writeSession(db, {
        id: `ses_bench${i.toString().padStart(6, '0')}`,
        title: rng.text(rng.int(20, 60)),
        directory: cwd,
        startMs: start,
        parentId,
        turns: Array.from({ length: turnCount(rng) }, () => turn(rng, cwd)),
      });
      if (i % 200 === 199 || i === sessions - 1) db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
  const sizes = await Promise.all(
    [path, `${path}-wal`].map((p) =>
      stat(p).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return { root, path, sessions, bytes: sizes.reduce((a, b) => a + b, 0) };
}
