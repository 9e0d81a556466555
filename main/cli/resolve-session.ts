// Resolves what a person types on the command line (a key, an id, or the start of an id) to one session key.
import type { SessionSummary } from '../../shared/session.ts';
import { sanitizeForTerminal } from './terminal-text.ts';

export class SessionNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionNotFound';
  }
}

const MIN_PREFIX = 4;

/** Exact key first, then exact id, then a unique id prefix; ambiguity is an error that lists the candidates. */
export function resolveSessionRef(ref: string, sessions: readonly SessionSummary[]): string {
  const byKey = sessions.find((s) => s.key === ref);
  if (byKey) return byKey.key;
  const pick = (matches: readonly SessionSummary[], how: string): string | null => {
    if (matches.length === 1) return (matches[0] as SessionSummary).key;
    if (matches.length === 0) return null;
    const keys = matches.slice(0, 10).map((s) => `  ${sanitizeForTerminal(s.key)}  ${sanitizeForTerminal(s.title)}`);
    const more = matches.length > 10 ? [`  … and ${matches.length - 10} more`] : [];
    throw new SessionNotFound(`"${ref}" ${how} ${matches.length} sessions; give a key instead:\n${[...keys, ...more].join('\n')}`);
  };
  const exact = pick(
    sessions.filter((s) => s.id === ref),
    'is the id of',
  );
  if (exact) return exact;
  if (ref.length >= MIN_PREFIX) {
    const prefix = pick(
      sessions.filter((s) => s.id.startsWith(ref) || s.key.startsWith(ref)),
      'starts the id of',
    );
    if (prefix) return prefix;
  }
  throw new SessionNotFound(`No session matches "${ref}". Run "session-vault list" to see ids, or pass a key (format:id).`);
}
