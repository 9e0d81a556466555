// What coding tools print, made from real files: numbered file reads, search hits, diffs, test and compiler output, file lists.
import type { Prng } from '../prng.ts';
import type { SourceText, TextSource } from './text-source.ts';

/** Claude Code cuts a Bash tool's output at 30,000 characters, and a Read at 2,000 lines of at most 2,000 characters. */
export const BASH_OUTPUT_MAX = 30_000;
const READ_LINES = 2000;
const LINE_MAX = 2000;

/** `cat -n` as the Read tool numbers lines: right-aligned number, an arrow, the line. */
export function numbered(lines: readonly string[], first: number): string {
  return lines.map((l, i) => `${String(first + i).padStart(6)}→${l.length > LINE_MAX ? l.slice(0, LINE_MAX) : l}`).join('\n');
}

/** A file as the Read tool returns it: the first 2,000 lines, or a window when the file is long and the call gave one. */
export function readWindow(rng: Prng, file: SourceText): { start: number; lines: string[] } {
  if (file.lines.length <= READ_LINES || rng.next() < 0.5) return { start: 0, lines: file.lines.slice(0, READ_LINES) };
  const start = rng.int(0, file.lines.length - 200);
  return { start, lines: file.lines.slice(start, start + rng.int(100, 600)) };
}

/** One edit: a few lines of a file changed, with the unified hunk Claude Code stores as `structuredPatch`. */
export interface FileEdit {
  oldString: string;
  newString: string;
  hunk: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] };
  /** The changed region with its context, numbered as the edited file has it. */
  shown: string;
  /** The whole file after the edit. */
  after: string;
}

export function editOf(rng: Prng, text: TextSource, file: SourceText): FileEdit {
  const { start, lines: old } = text.snippet(rng, file, rng.int(2, 12));
  const comment = file.path.endsWith('.md') ? text.line(rng, 100) : `// ${text.line(rng, 90)}`;
  const changed = [...old];
  const at = rng.int(0, changed.length);
  changed.splice(at, 0, comment);
  if (changed.length > 2 && rng.next() < 0.5) changed[0] = `${changed[0]} ${rng.pick(['// was wrong', '/* fixed */', '// keep'])}`;
  const before = file.lines.slice(Math.max(0, start - 3), start);
  const after = file.lines.slice(start + old.length, start + old.length + 3);
  const oldStart = Math.max(0, start - 3) + 1;
  const hunkLines = [...before.map((l) => ` ${l}`), ...old.map((l) => `-${l}`), ...changed.map((l) => `+${l}`), ...after.map((l) => ` ${l}`)];
  const edited = [...file.lines.slice(0, start), ...changed, ...file.lines.slice(start + old.length)];
  return {
    oldString: old.join('\n'),
    newString: changed.join('\n'),
    hunk: {
      oldStart,
      oldLines: before.length + old.length + after.length,
      newStart: oldStart,
      newLines: before.length + changed.length + after.length,
      lines: hunkLines,
    },
    shown: numbered([...before, ...changed, ...after], oldStart),
    after: edited.join('\n'),
  };
}

/** `git diff` of an edit. */
export function gitDiff(path: string, edit: FileEdit): string {
  const h = edit.hunk;
  return [
    `diff --git a/${path} b/${path}`,
    'index 3f2a1c4..8b9d0e2 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    ...h.lines,
  ].join('\n');
}

/** Lines of a search (`rg -n word`): `path:line:text` from a few files that hold a word of the first file's line. */
function searchHits(rng: Prng, text: TextSource, cwd: string): { command: string; output: string; files: string[] } {
  const file = text.sourceFile(rng);
  const line = file.lines[rng.int(0, file.lines.length - 1)] ?? '';
  const word = (line.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? ['export'])[0] as string;
  const out: string[] = [];
  const files: string[] = [];
  for (const f of [file, ...Array.from({ length: rng.int(0, 4) }, () => text.sourceFile(rng))]) {
    let hits = 0;
    f.lines.forEach((l, i) => {
      if (hits < 12 && l.includes(word)) {
        out.push(`${f.path}:${i + 1}:${l}`);
        hits++;
      }
    });
    if (hits) files.push(`${cwd}/${f.path}`);
  }
  return { command: `rg -n ${word}`, output: out.join('\n'), files };
}

function testRun(rng: Prng, text: TextSource): string {
  const files = Array.from({ length: rng.int(2, 12) }, () => text.sourceFile(rng).path.replace(/\.\w+$/, '.test.ts'));
  const out = ['', '> vitest run', '', ` RUN  v3.2.4 /home/dev/project`, ''];
  let failed = 0;
  for (const f of files) {
    if (rng.next() < 0.15) {
      failed++;
      const src = text.sourceFile(rng);
      const { start, lines } = text.snippet(rng, src, 6);
      out.push(
        ` ❯ ${f} (${rng.int(2, 30)} tests | 1 failed) ${rng.int(20, 900)}ms`,
        `   × ${text.line(rng, 70)}`,
        `     → expected ${rng.int(0, 99)} to be ${rng.int(100, 200)}`,
        '',
        ` FAIL  ${f}`,
        `AssertionError: ${text.line(rng, 80)}`,
        ...lines.map((l, i) => ` ${i === 3 ? '❯' : ' '} ${src.path}:${start + i + 1}  ${l}`),
        '',
      );
    } else out.push(` ✓ ${f} (${rng.int(1, 40)} tests) ${rng.int(3, 400)}ms`);
  }
  out.push(
    '',
    ` Test Files  ${failed ? `${failed} failed | ` : ''}${files.length - failed} passed (${files.length})`,
    `      Tests  ${rng.int(20, 400)} passed`,
    `   Duration  ${(rng.next() * 9).toFixed(2)}s`,
  );
  return out.join('\n');
}

function compilerErrors(rng: Prng, text: TextSource): string {
  return Array.from({ length: rng.int(1, 15) }, () => {
    const f = text.sourceFile(rng);
    return `${f.path}(${rng.int(1, f.lines.length)},${rng.int(1, 40)}): error TS${rng.int(2300, 2800)}: ${text.line(rng, 110)}`;
  }).join('\n');
}

/** A shell command and what it printed (at most BASH_OUTPUT_MAX characters), with the files it names. */
export function shellRun(rng: Prng, text: TextSource, cwd: string): { command: string; description: string; output: string; failed: boolean } {
  const r = rng.next();
  let command: string;
  let output: string;
  let failed = false;
  if (r < 0.3) ({ command, output } = searchHits(rng, text, cwd));
  else if (r < 0.45) {
    command = 'npm test';
    output = testRun(rng, text);
    failed = output.includes(' FAIL ');
  } else if (r < 0.55) {
    command = 'npx tsc --noEmit -p .';
    output = compilerErrors(rng, text);
    failed = true;
  } else if (r < 0.7) {
    const file = text.sourceFile(rng);
    command = 'git diff';
    output = gitDiff(file.path, editOf(rng, text, file));
  } else if (r < 0.85) {
    const file = text.sourceFile(rng);
    const { start, lines } = text.snippet(rng, file, rng.int(10, 120));
    command = `sed -n '${start + 1},${start + lines.length}p' ${file.path}`;
    output = lines.join('\n');
  } else {
    command = 'git log --oneline -20';
    output = Array.from(
      { length: 20 },
      () =>
        `${Math.floor(rng.next() * 0xfffffff)
          .toString(16)
          .padStart(7, '0')} ${text.line(rng, 72)}`,
    ).join('\n');
  }
  if (output.length > BASH_OUTPUT_MAX) output = `${output.slice(0, BASH_OUTPUT_MAX)}\n\n... [${output.length - BASH_OUTPUT_MAX} characters truncated] ...`;
  return { command, description: text.line(rng, 60), output, failed };
}
