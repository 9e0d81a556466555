// Reads one session's row from ProjectHub's vault/.projecthub/index.db (opened read-only, never written).
import { DatabaseSync } from 'node:sqlite';
import type { SessionSummaryText, SourceFile } from '../../../shared/session.ts';
import { isRecord, type WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { readAllowingBigIntegers } from '../sqlite-big-integers.ts';

export interface IndexRow {
  projectDir: string | null;
  startedAt: number | null;
  lastSavedAt: number | null;
  turnCount: number | null;
  estimatedTokens: number | null;
  rollingSummary: string | null;
  decisions: string[] | null;
  searchFootprint: string[] | null;
  summary: SessionSummaryText | null;
  status: string | null;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}

/** A JSON column; text that is not JSON of the expected shape is reported and left out. */
function jsonColumn<T>(row: Record<string, unknown>, column: string, shape: (v: unknown) => T | null, warnings: WarningList): T | null {
  const text = row[column];
  if (text === null || text === undefined || text === '') return null;
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  const shaped = value === undefined ? null : shape(value);
  if (shaped === null) warnings.add('wrong_type', `index.db column "${column}" does not hold the JSON ProjectHub writes; it was skipped.`);
  return shaped;
}

function summaryShape(value: unknown): SessionSummaryText | null {
  if (!isRecord(value)) return null;
  return {
    overview: typeof value.overview === 'string' && value.overview.trim() !== '' ? value.overview : null,
    decisions: strings(value.decisions) ?? [],
    outcomes: strings(value.outcomes) ?? [],
    openItems: strings(value.openItems) ?? [],
    tags: strings(value.tags) ?? [],
  };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The `sessions` row for one id: null (and no file) when there is no index.db; a warning when the database
 * cannot be read or has no row for the session, since the Markdown file then stands alone.
 */
export async function readIndexRow(dbPath: string, sessionId: string, warnings: WarningList): Promise<{ row: IndexRow | null; file: SourceFile } | null> {
  let info;
  try {
    info = await statPath(dbPath);
  } catch {
    return null;
  }
  const file: SourceFile = { path: dbPath, size: info.size, mtimeMs: info.mtimeMs, role: 'index' };
  let raw: Record<string, unknown> | undefined;
  let db: DatabaseSync | null = null;
  try {
    // ProjectHub may be writing while we read; wait briefly for its lock instead of failing at once.
    db = new DatabaseSync(dbPath, { readOnly: true, timeout: 1000 });
    raw = readAllowingBigIntegers(db, (d) => d.prepare('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as Record<string, unknown> | undefined);
  } catch (err) {
    warnings.add('index_unreadable', `index.db could not be read (${(err as Error).message}); the session is shown from its Markdown file.`);
    return { row: null, file };
  } finally {
    db?.close();
  }
  if (!raw) {
    warnings.add('index_missing_row', 'index.db has no row for this session; the session is shown from its Markdown file.');
    return { row: null, file };
  }
  return {
    row: {
      projectDir: str(raw.project_dir),
      startedAt: num(raw.started_at),
      lastSavedAt: num(raw.last_saved_at),
      turnCount: num(raw.turn_count),
      estimatedTokens: num(raw.estimated_tokens),
      rollingSummary: str(raw.rolling_summary),
      decisions: jsonColumn(raw, 'decisions_json', strings, warnings),
      searchFootprint: jsonColumn(raw, 'search_footprint_json', strings, warnings),
      summary: jsonColumn(raw, 'summary_json', summaryShape, warnings),
      status: str(raw.status),
    },
    file,
  };
}
