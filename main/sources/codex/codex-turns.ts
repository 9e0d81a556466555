// Codex turn boundaries: task_started / task_complete / turn_aborted, or turn_context alone in writers older than task events.
import type { Operation, TokenUsage } from '../../../shared/session.ts';
import { addUsage, emptyUsage } from '../coerce.ts';

export interface CodexTurn {
  op: Operation;
  turnId: string | null;
  /** Confirmed by task_started: such a turn is expected to end with task_complete or turn_aborted. */
  tracked: boolean;
  ended: boolean;
  tools: Operation[];
}

/** Turn outcomes after which a tool call that never reported back was cut off. */
const CUT_OFF = new Set(['aborted', 'replaced', 'incomplete']);

function detail(turn: CodexTurn): Record<string, unknown> {
  return turn.op.detail as Record<string, unknown>;
}

export class CodexTurns {
  readonly list: CodexTurn[] = [];
  /** True once the writer was seen recording turn starts or ends (task_started / task_complete / turn_aborted). */
  usesTaskEvents = false;

  current(): CodexTurn | null {
    const turn = this.list.at(-1);
    return turn && !turn.ended ? turn : null;
  }

  last(): CodexTurn | null {
    return this.list.at(-1) ?? null;
  }

  #open(line: number, timestamp: string | null, turnId: string | null, tracked: boolean): CodexTurn {
    const n = this.list.length + 1;
    const op: Operation = {
      id: `turn-${n}`,
      type: 'turn',
      name: `Turn ${n}`,
      timestamp,
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: { turnId },
      vcs: null,
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: null,
      origin: { fileIndex: 0, line, pointer: null },
    };
    const turn: CodexTurn = { op, turnId, tracked, ended: false, tools: [] };
    this.list.push(turn);
    return turn;
  }

  /** Ends a turn; tool calls it cut off without an answer are marked cancelled. */
  end(turn: CodexTurn, timestamp: string | null, status: string | null): void {
    turn.ended = true;
    turn.op.endedAt = timestamp;
    turn.op.status = status;
    if (status === null || !CUT_OFF.has(status)) return;
    for (const tool of turn.tools) {
      if (tool.status !== null) continue;
      tool.status = 'cancelled';
      tool.endedAt = timestamp;
    }
  }

  /** A turn_context starts a turn in old writers; newer ones write it just before the task_started of the same turn. */
  context(line: number, timestamp: string | null, turnId: string | null, settings: Record<string, unknown>): CodexTurn {
    const open = this.current();
    const sameTurn = open !== null && (turnId === null ? open.tracked : open.turnId === turnId);
    if (open && sameTurn) {
      Object.assign(detail(open), settings);
      return open;
    }
    // A tracked turn that never finished was superseded by the next one (ai-viewer calls it "replaced").
    if (open) this.end(open, open.tracked ? timestamp : null, open.tracked ? 'replaced' : null);
    const turn = this.#open(line, timestamp, turnId, false);
    Object.assign(detail(turn), settings);
    return turn;
  }

  taskStarted(line: number, timestamp: string | null, turnId: string | null): CodexTurn {
    this.usesTaskEvents = true;
    const open = this.current();
    if (open && !open.tracked && (turnId === null || open.turnId === null || open.turnId === turnId)) {
      open.tracked = true;
      if (turnId !== null && open.turnId === null) {
        open.turnId = turnId;
        detail(open).turnId = turnId;
      }
      return open;
    }
    if (open && open.tracked && turnId !== null && open.turnId === turnId) return open;
    if (open) this.end(open, open.tracked ? timestamp : null, open.tracked ? 'replaced' : null);
    return this.#open(line, timestamp, turnId, true);
  }

  /** task_complete or turn_aborted; returns null when no turn is open (an echo of one already ended). */
  finish(timestamp: string | null, status: string, facts: Record<string, unknown>, durationMs: number | null): CodexTurn | null {
    this.usesTaskEvents = true;
    const open = this.current();
    if (!open) return null;
    open.tracked = true;
    this.end(open, timestamp, status);
    for (const [k, v] of Object.entries(facts)) if (v !== null && v !== undefined) detail(open)[k] = v;
    open.op.latencyMs = durationMs ?? between(open.op.timestamp, timestamp);
    return open;
  }

  /** Usage reported while a turn runs belongs to it; a late report belongs to the turn that just ended. */
  addUsage(usage: TokenUsage): void {
    const turn = this.current() ?? this.last();
    if (!turn) return;
    turn.op.usage ??= emptyUsage();
    addUsage(turn.op.usage, usage);
  }

  /**
   * Settles the turn still open at the end of the file. `open`: the file is fresh, so it may still be running;
   * `crashed`: a turn confirmed by task_started never finished and the file went quiet; `none`: nothing was open.
   */
  close(fresh: boolean, lastTimestamp: string | null): 'open' | 'crashed' | 'none' {
    const open = this.current();
    if (!open) return 'none';
    if (fresh) {
      if (open.tracked) open.op.status = 'running';
      return 'open';
    }
    if (!open.tracked) {
      this.end(open, null, null);
      return 'none';
    }
    this.end(open, lastTimestamp, 'incomplete');
    return 'crashed';
  }
}

/** Milliseconds between two ISO timestamps, when both are known and in order. */
export function between(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
