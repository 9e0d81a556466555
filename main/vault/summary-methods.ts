// The summaries' contract methods: the vault's summary of a session wins, else the one its own file carries (ProjectHub's summary_json).
import type { ServiceMethods } from '../../shared/api.ts';
import type { SessionSummaryText } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import type { SummaryFields, SummaryRecord, SummaryState } from '../../shared/summary-api.ts';
import type { StoredSummary, SummaryStore } from './summary-store.ts';

export interface SummaryDeps {
  /** True when the key names a session the app lists (kept copies and sessions whose source is gone included). */
  known(key: string): boolean;
  /** Which of these sessions' own files carry a summary (the index knows, without reading them). */
  ownSummaries?(keys: readonly string[]): Set<string>;
  /** The session without its messages: where its own summary is read from. */
  sessionHead?(key: string): Promise<Session>;
}

export type SummaryMethodNames = 'getSummary' | 'setSummary' | 'summaryStates';

const fromVault = (s: StoredSummary): SummaryRecord => ({ ...s.summary, source: 'vault', author: s.author, updatedAt: s.updatedAt });

/**
 * A session's own summary as shown: by its tool, as of the session's last update. A tool that records only how the
 * session ended (an outcome's summary) gives the overview alone, as the Markdown export and `has:summary` count it.
 */
export function ownSummaryRecord(session: Session): SummaryRecord | null {
  const own =
    session.summary ?? (session.outcome?.summary ? { overview: session.outcome.summary, decisions: [], outcomes: [], openItems: [], tags: [] } : null);
  if (!own) return null;
  return { ...own, source: 'session', author: FORMAT_LABELS[session.format] ?? session.format, updatedAt: session.updatedAt ?? session.closedAt };
}

export class SessionSummaries {
  readonly store: SummaryStore;
  private readonly deps: SummaryDeps;

  constructor(store: SummaryStore, deps: SummaryDeps) {
    this.store = store;
    this.deps = deps;
  }

  private assertKnown(key: string): void {
    if (!this.deps.known(key)) throw new AppError('NOT_FOUND', `No session with key "${key}" is known. It may have been deleted.`, 'key');
  }

  /** The vault's summary, else the session's own; the session is opened only when the index says its file has one. */
  async get(key: string): Promise<SummaryRecord | null> {
    const stored = this.store.get(key);
    if (stored) return fromVault(stored);
    this.assertKnown(key);
    if (!this.deps.sessionHead || !this.deps.ownSummaries?.([key]).has(key)) return null;
    return ownSummaryRecord(await this.deps.sessionHead(key));
  }

  async set(key: string, summary: SummaryFields | null, author: string): Promise<SummaryRecord | null> {
    this.assertKnown(key);
    if (summary === null) {
      await this.store.remove(key);
      return this.get(key);
    }
    // Tags as a set, in the order given: a repeated tag is one tag.
    const tags = [...new Map(summary.tags.map((t) => [t.toLowerCase(), t])).values()];
    return fromVault(await this.store.set(key, { ...summary, tags }, author));
  }

  states(keys: readonly string[]): SummaryState[] {
    const own = this.deps.ownSummaries?.(keys.filter((k) => !this.store.get(k))) ?? new Set<string>();
    return keys.map((key): SummaryState => {
      const stored = this.store.get(key);
      if (stored) return { key, source: 'vault', author: stored.author, updatedAt: stored.updatedAt };
      return own.has(key) ? { key, source: 'session', author: null, updatedAt: null } : { key, source: null, author: null, updatedAt: null };
    });
  }

  /** The vault's summary of a session, in the session model's shape, or null when the vault has none. */
  vaultSummaryOf(key: string): SessionSummaryText | null {
    const stored = this.store.get(key);
    return stored ? { ...stored.summary } : null;
  }

  /** The session with the vault's summary in place of its own, if the vault has one: what Markdown and HTML exports render. */
  withVaultSummary(session: Session): Session {
    const stored = this.store.get(session.key);
    return stored ? { ...session, summary: { ...stored.summary } } : session;
  }

  methods(): Pick<ServiceMethods, SummaryMethodNames> {
    return {
      getSummary: async ({ key }) => ({ summary: await this.get(key) }),
      setSummary: async ({ key, summary, author }) => ({ summary: await this.set(key, summary, author) }),
      summaryStates: async ({ keys }) => ({ states: this.states(keys) }),
    };
  }
}
