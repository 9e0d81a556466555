// Reads a Qwen Code chat file: JSON Lines, where a crashed append can glue two records onto one physical line.
import type { Warning } from '../../../shared/session.ts';
import { MAX_DOCUMENT_BYTES } from '../coerce.ts';
import { readWholeFile } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';

export interface QwenLine extends JsonLine {
  /** Position of the record among those glued on its line (0 for a line of its own). */
  part: number;
}

/**
 * The complete top-level objects one line holds back to back (`{...}{...}`), found by tracking strings and
 * nesting, so a `}{` inside a string never splits; null when anything else is between them or only one is there.
 */
export function splitGlued(text: string): unknown[] | null {
  const out: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i === text.length) break;
    if (text[i] !== '{') return null;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          end = j;
          break;
        }
      }
    }
    if (end < 0) return null;
    try {
      out.push(JSON.parse(text.slice(i, end + 1)));
    } catch {
      return null;
    }
    i = end + 1;
  }
  return out.length > 1 ? out : null;
}

/**
 * Every record in file order. Lines the JSONL reader had to skip are looked at again when the file is not huge:
 * records glued together are read apart (as Qwen Code's own loader does), and their skip warnings dropped.
 */
export async function readQwenLines(absPath: string, size: number): Promise<{ records: QwenLine[]; warnings: Warning[] }> {
  let records: JsonLine[] = [];
  let warnings: Warning[] = [];
  let failure: UnreadableError | null = null;
  try {
    ({ records, warnings } = await readJsonLines(absPath));
  } catch (err) {
    // Every line glued (a one-line file): nothing parsed as JSON Lines, but the records may still be there.
    if (!(err instanceof UnreadableError) || err.code !== 'invalid_json' || size > MAX_DOCUMENT_BYTES) throw err;
    failure = err;
  }
  const lines: QwenLine[] = records.map((r) => ({ ...r, part: 0 }));
  const bad = warnings.filter((w) => w.code === 'invalid_line' || w.code === 'torn_line');
  if (!failure && (!bad.length || size > MAX_DOCUMENT_BYTES)) return { records: lines, warnings };
  const text = (await readWholeFile(absPath)).toString('utf8');
  const have = new Set(records.map((r) => r.line));
  const recovered = new Set<number>();
  const rows = text.split('\n');
  rows.forEach((raw, index) => {
    const line = index + 1;
    if (have.has(line) || !raw.trim()) return;
    const glued = splitGlued(raw.replace(/\r$/, '').replace(/^\uFEFF/, ''));
    if (glued) {
      glued.forEach((value, part) => lines.push({ value, line, part }));
      recovered.add(line);
    } else if (failure) {
      // The JSONL reader gave up on the whole file, so its per-line warnings are gone: say again which lines were skipped.
      const torn = index === rows.length - 1;
      warnings.push(
        torn
          ? {
              code: 'torn_line',
              message: `The last line (${line}) is incomplete: the file was probably being written or the writer was killed. It was skipped.`,
              count: 1,
            }
          : { code: 'invalid_line', message: `Line ${line} is not valid JSON and was skipped.`, count: 1 },
      );
    }
  });
  if (failure && !recovered.size) throw failure;
  if (!recovered.size) return { records: lines, warnings };
  lines.sort((a, b) => a.line - b.line || a.part - b.part);
  const kept = warnings.filter(
    (w) =>
      !(w.code === 'invalid_line' || w.code === 'torn_line') ||
      ![...recovered].some((n) => w.message.startsWith(`Line ${n} `) || w.message.startsWith(`The last line (${n})`)),
  );
  const count = [...recovered].length;
  kept.push({
    code: 'glued_records',
    message: `${count === 1 ? 'One line holds' : `${count} lines hold`} several records written without a line break; they were read apart.`,
    count: 1,
  });
  return { records: lines, warnings: kept };
}
