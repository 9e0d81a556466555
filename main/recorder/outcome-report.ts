// The Outcome a run reports: outcome.v1 JSON for protocol mode and the human epilogue, both naming session.json.
import type { RecordingSession } from './recording-session.ts';

/** One JSON object (print it as one NDJSON line); `session.path` is null when session logging is off. */
export function outcomeV1(session: RecordingSession, command: string, message: string | null = null): Record<string, unknown> {
  const doc = session.snapshot();
  return {
    type: 'outcome',
    schema: 'outcome.v1',
    command,
    status: doc?.outcome.status ?? null,
    summary: doc?.outcome.summary ?? null,
    commit_sha: doc?.outcome.commit_sha ?? null,
    ...(message !== null && { message }),
    session: {
      id: session.id,
      path: session.path,
      branch: doc?.repo.current_branch ?? null,
      resumed: session.resumed,
      logging: session.enabled ? 'on' : 'off',
      messages: doc?.chat.length ?? 0,
      operations: doc?.operations.length ?? 0,
    },
  };
}

/** `Outcome: accepted — summary (commit abc)` and `Session file: <path>`, plain text with no colour codes. */
export function epilogueText(session: RecordingSession): string {
  const doc = session.snapshot();
  if (!doc || !session.path) return 'Session logging is off: nothing was recorded.\n';
  const o = doc.outcome;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const counts = o.status === 'open' ? ` (${plural(doc.chat.length, 'message')}, ${plural(doc.operations.length, 'operation')})` : '';
  const extra = `${o.summary ? ` — ${o.summary}` : ''}${o.commit_sha ? ` (commit ${o.commit_sha.slice(0, 12)})` : ''}`;
  return `Outcome: ${o.status}${counts}${extra}\nSession file: ${session.path}\n`;
}
