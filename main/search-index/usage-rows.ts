// A session's token usage and cost per hour and model, worked out in the scan worker and stored in the index's `usage` table.
import type { Cost, Session, TokenUsage } from '../../shared/session.ts';

/** The five token counts every usage row and total carries. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/**
 * Usage of one hour (UTC, start in ms) and one model of one session file; where the machine's time zone is not a whole
 * number of hours from UTC, of the part of the hour on either side of its local hour's start (machineHourCut).
 */
export interface UsageRow extends TokenCounts {
  hourMs: number;
  model: string | null;
  /** Dollars of the priced calls (recorded by the tool, or estimated). */
  costUsd: number;
  /** Calls with tokens and no known price, left out of costUsd. */
  unpriced: number;
  /** Calls with usage. */
  calls: number;
  /** The first and last call's time in this hour (ms): what 5-hour blocks need to match ccusage's to the second. */
  firstMs: number;
  lastMs: number;
}

const HOUR_MS = 3_600_000;

/** Where a local hour begins within each UTC hour (ms past it) in a time zone `offsetMinutes` ahead of UTC: 0 for whole hours. */
export function hourCut(offsetMinutes: number): number {
  const past = ((offsetMinutes % 60) + 60) % 60;
  return past === 0 ? 0 : (60 - past) * 60_000;
}

/**
 * hourCut in the machine's time zone at `atMs`. A row is cut there too, so a day or an hour in the machine's zone
 * (India's +5:30, Nepal's +5:45, Newfoundland's -3:30) adds up exactly the calls made in it: a row of a whole UTC hour
 * put the half hour after local midnight on the day before. Every row still lies within one UTC hour, so 5-hour
 * blocks (which start on UTC hours, as ccusage's) split between rows as before.
 */
export const machineHourCut = (atMs: number): number => hourCut(-new Date(atMs).getTimezoneOffset());

/** Whether the machine's zone cuts hours (machineHourCut) at `atMs` or half a year either side (a zone's summer and winter offsets). */
export function machineCutsHours(atMs = Date.now()): boolean {
  return [atMs, atMs - 182 * 86_400_000, atMs + 182 * 86_400_000].some((t) => machineHourCut(t) !== 0);
}

/** Every row starts on a multiple of this (the UTC hours, and the cuts of today's zones: 15, 30 or 45 minutes past). */
export const ROW_STEP_MS = 15 * 60_000;

/**
 * The start of the machine's local hour `atMs` falls in: its UTC hour's where the zone is whole hours from UTC, else
 * the cut before it (a row starts there, and the dashboard's hours are local hours).
 */
export function localHourStart(atMs: number, cutAt: (atMs: number) => number = machineHourCut): number {
  const utcHourMs = Math.floor(atMs / HOUR_MS) * HOUR_MS;
  const cut = cutAt(atMs);
  if (cut === 0) return utcHourMs;
  return atMs - utcHourMs >= cut ? utcHourMs + cut : utcHourMs + cut - HOUR_MS;
}

/** The start of the row a call at `atMs` counts in: its UTC hour's, or the cut's when the call is past it. */
function rowStart(atMs: number, cutAt: (atMs: number) => number = machineHourCut): number {
  const utcHourMs = Math.floor(atMs / HOUR_MS) * HOUR_MS;
  const cut = cutAt(atMs);
  return cut !== 0 && atMs - utcHourMs >= cut ? utcHourMs + cut : utcHourMs;
}

const hasTokens = (u: TokenUsage) => u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning > 0;
/** A call with neither tokens nor a cost (an error turn, a synthetic message) counts for nothing, as in ccusage. */
const counts = (c: { usage: TokenUsage | null; cost: Cost | null }) => (c.usage !== null && hasTokens(c.usage)) || (c.cost !== null && c.cost.usd !== 0);

function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

interface Call {
  timestamp: string | null;
  model: string | null;
  usage: TokenUsage | null;
  cost: Cost | null;
}

/**
 * Each call counts in the hour it happened (ccusage gives each message its own day too), so a session spanning
 * midnight is split between the days. Calls come from the messages; a format that records usage only on its
 * operations, or only for the whole session, counts those instead (the session's last activity then dates it).
 */
export function usageRows(session: Session, cutAt: (atMs: number) => number = machineHourCut): UsageRow[] {
  const fallbackMs = timeOf(session.updatedAt) ?? timeOf(session.createdAt) ?? 0;
  const sessionModel = session.model?.name ?? null;
  const fromMessages = session.messages.filter(counts);
  const fromOperations = session.operations.filter(counts);
  const calls: Call[] = fromMessages.length
    ? fromMessages
    : fromOperations.length
      ? // An llm operation is named by its model (Cline's requests, ai-agent's and Goose's calls): a task may switch models.
        fromOperations.map((o) => ({ timestamp: o.timestamp, model: o.type === 'llm' ? o.name : null, usage: o.usage, cost: o.cost }))
      : counts(session)
        ? [{ timestamp: null, model: null, usage: session.usage, cost: session.cost }]
        : [];
  const rows = new Map<string, UsageRow>();
  for (const call of calls) {
    const at = timeOf(call.timestamp) ?? fallbackMs;
    const hourMs = rowStart(at, cutAt);
    const model = call.model ?? sessionModel;
    const id = `${hourMs}\n${model ?? ''}`;
    let row = rows.get(id);
    if (!row) {
      row = { hourMs, model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0, unpriced: 0, calls: 0, firstMs: at, lastMs: at };
      rows.set(id, row);
    }
    row.firstMs = Math.min(row.firstMs, at);
    row.lastMs = Math.max(row.lastMs, at);
    const u = call.usage;
    if (u) {
      row.input += u.input;
      row.output += u.output;
      row.cacheRead += u.cacheRead;
      row.cacheWrite += u.cacheWrite;
      row.reasoning += u.reasoning;
    }
    row.calls++;
    if (call.cost) {
      row.costUsd += call.cost.usd;
      row.unpriced += call.cost.unpricedMessages ?? 0;
    } else if (u && hasTokens(u)) {
      row.unpriced++;
    }
  }
  return [...rows.values()];
}
