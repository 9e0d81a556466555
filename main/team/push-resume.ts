// A push that survives a dropped connection: it connects again and resumes where the store's committed batches end.
import { pushSessions, PushInterrupted, type PushOptions, type PushReport } from './push.ts';
import type { TeamConnection } from './team-connection.ts';

export interface ResumeOptions {
  /** Opens a fresh connection to the same store as the same account. */
  connect(): Promise<TeamConnection>;
  /** How many times to connect again after a dropped connection (default 3). */
  attempts?: number;
  /** Milliseconds before the first retry, doubled each time (default 1,000). */
  delayMs?: number;
  /** Told before each retry: which one, and why the last attempt stopped. */
  onRetry?(attempt: number, reason: string): void;
}

/** Two reports of one push, the second resuming the first: sessions counted once, by what finally happened to them. */
function merge(first: PushReport, next: PushReport): PushReport {
  const pushed = new Set([...first.pushed, ...next.pushed]);
  return {
    ...next,
    pushed: [...pushed],
    unchanged: next.unchanged.filter((k) => !pushed.has(k)),
    bytes: first.bytes + next.bytes,
    sourceBytes: first.sourceBytes + next.sourceBytes,
    chunks: { sent: first.chunks.sent + next.chunks.sent, kept: first.chunks.kept + next.chunks.kept },
    batches: first.batches + next.batches,
    findings: next.findings,
  };
}

/**
 * Runs `pushSessions` on a connection of its own; when the connection or the server fails mid-push (each batch is
 * one transaction, so the store holds whole batches only), connects again and pushes the same sessions once more:
 * what was committed is found unchanged and not sent again, and the rest goes. A refusal (access, a bad label)
 * is not retried. The report of the last attempt, with what the earlier ones sent counted in.
 */
export async function pushResuming(options: Omit<PushOptions, 'client'>, resume: ResumeOptions): Promise<PushReport> {
  const attempts = resume.attempts ?? 3;
  let delay = resume.delayMs ?? 1000;
  let sent: PushReport | null = null;
  for (let attempt = 0; ; attempt++) {
    const conn = await resume.connect();
    try {
      const report = await pushSessions({ ...options, client: conn.client });
      return sent ? merge(sent, report) : report;
    } catch (err) {
      if (!(err instanceof PushInterrupted) || attempt >= attempts) throw err;
      const partial = (err as PushInterrupted & { report?: PushReport }).report;
      if (partial) sent = sent ? merge(sent, partial) : partial;
      resume.onRetry?.(attempt + 1, err.message);
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    } finally {
      await conn.close();
    }
  }
}
