// Splits an .aider.chat.history.md into runs (one per `# aider chat started at <local time>` header) and gives each a stable id.
import { createHash } from 'node:crypto';

export const HEADER = '# aider chat started at ';

export interface RunLine {
  text: string;
  /** 1-based line in the file, for the raw view. */
  line: number;
}

export interface AiderRun {
  /** Position among the file's runs (0-based). */
  index: number;
  /** The header's time text, verbatim. */
  header: string;
  /** The run's start: aider writes local wall-clock time without a zone, read as this machine's local time. */
  startedAt: string | null;
  headerLine: number;
  lines: RunLine[];
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

export function localTime(text: string): string | null {
  const m = LOCAL_TIME.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const date = new Date(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) ? 0 : s!);
  // A day that does not exist (Feb 30) rolls over in the Date constructor: not a time aider wrote.
  if (date.getDate() !== d || date.getMonth() !== mo! - 1) return null;
  return date.toISOString();
}

/**
 * Lines before the first header belong to no run; a header with nothing after it is a run with no lines.
 * `firstLine` is the number of the text's first line (a run read back from its rows starts where it stood).
 */
export function splitRuns(text: string, firstLine = 1): { runs: AiderRun[]; preamble: number } {
  const runs: AiderRun[] = [];
  let preamble = 0;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith(HEADER)) {
      const header = line.slice(HEADER.length).trim();
      runs.push({ index: runs.length, header, startedAt: localTime(header), headerLine: i + firstLine, lines: [] });
      return;
    }
    const run = runs.at(-1);
    if (run) run.lines.push({ text: line, line: i + firstLine });
    else if (line.trim() !== '') preamble++;
  });
  return { runs, preamble };
}

function short(text: string, n = 8): string {
  return createHash('sha256').update(text).digest('hex').slice(0, n);
}

/**
 * A run's id, stable while the file grows: `<file hash>-<start as YYYYMMDDTHHMMSS>`, with `~2`, `~3` ... for
 * later runs that started in the same second. A header that is not a time is hashed instead.
 */
export function runIds(filePath: string, runs: readonly AiderRun[]): string[] {
  const file = short(filePath);
  const seen = new Map<string, number>();
  return runs.map((run) => {
    const n = (seen.get(run.header) ?? 0) + 1;
    seen.set(run.header, n);
    const stamp = LOCAL_TIME.test(run.header) ? run.header.replace(/\D/g, '').replace(/^(\d{8})/, '$1T') : `h${short(run.header)}`;
    return `${file}-${stamp}${n > 1 ? `~${n}` : ''}`;
  });
}

/** The part of an id that does not depend on where the file lies (a kept copy in the vault has another path). */
export function runPart(id: string): string {
  return id.replace(/^[0-9a-f]{8}-/, '');
}

/** Changes whenever the run's text does: what the scan compares to decide whether to read it again. */
export function runVersion(run: AiderRun, isLast: boolean): string {
  return `${short(run.lines.map((l) => l.text).join('\n'), 16)}${isLast ? '-last' : ''}`;
}
