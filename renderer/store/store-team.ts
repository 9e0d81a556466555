// Store slice for the Team source: the team store's settings and status, its sessions for the search box's query (debounced, stale answers dropped), and pushing with the review before a first push.
import type { BundleFinding } from '../../shared/bundle-api.ts';
import type { SessionSummary } from '../../shared/session.ts';
import type { SnippetPart } from '../../shared/search-api.ts';
import type { TeamStatus } from '../../shared/team-api.ts';
import { highlightTerms } from '../search-query.ts';
import type { SearchFocus } from './store-search.ts';
import { describeError, type AppClient } from '../transport/client.ts';
import { plural } from '../format.ts';

export interface TeamReview {
  /** Every session the push was asked for. */
  keys: string[];
  /** Those new to the store, waiting for this review. */
  held: string[];
  findings: BundleFinding[];
  /** Finding ids the user marked as false positives (left in place). */
  keep: string[];
}

export interface TeamView {
  status: TeamStatus | null;
  statusError: string | null;
  query: string;
  sessions: SessionSummary[];
  /** Per session, in the same order: where the query matched. */
  matches: Array<{ snippet: SnippetPart[]; messageIndex: number | null }>;
  total: number;
  /** More sessions match than the store counted: `total` is a lower bound ("200+"). */
  totalCapped: boolean;
  problems: string[];
  loading: boolean;
  error: string | null;
  review: TeamReview | null;
  pushing: boolean;
  /** What the last push did, in a sentence. */
  pushMessage: string | null;
}

export interface TeamSettingsInput {
  store?: string | null;
  token?: string;
  machine?: string;
  autoPush?: boolean;
}

export interface TeamSlice {
  team: TeamView;
  /** Reads the status and, when a store is set, the first page of its sessions. */
  loadTeam(): Promise<void>;
  setTeamQuery(query: string): void;
  /** Opens a team session, at the message the team query matched when it matched one. */
  openTeamSession(key: string): Promise<void>;
  saveTeamSettings(input: TeamSettingsInput): Promise<boolean>;
  /** Pushes sessions of this machine; those new to the store open the review instead of going. */
  pushToTeam(keys: string[]): Promise<void>;
  toggleTeamKeep(id: string): void;
  /** Sends the reviewed sessions, leaving the kept findings in place. */
  confirmTeamPush(): Promise<void>;
  cancelTeamPush(): void;
}

export const TEAM_DEBOUNCE_MS = 250;

const initial: TeamView = {
  status: null,
  statusError: null,
  query: '',
  sessions: [],
  matches: [],
  total: 0,
  totalCapped: false,
  problems: [],
  loading: false,
  error: null,
  review: null,
  pushing: false,
  pushMessage: null,
};

function said(pushed: number, unchanged: number, held: number): string {
  const parts = [`${plural(pushed, 'session')} pushed`];
  if (unchanged) parts.push(`${unchanged} unchanged`);
  if (held) parts.push(`${held} waiting for review`);
  return `${parts.join(', ')}.`;
}

/** What the slice needs of the rest of the store: opening a session (at a message). */
type Host = TeamSlice & { openSession(key: string, focus?: SearchFocus | null): Promise<void> };

export function createTeamSlice(client: AppClient, set: (partial: Partial<TeamSlice>) => void, get: () => Host, debounceMs = TEAM_DEBOUNCE_MS): TeamSlice {
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const patch = (p: Partial<TeamView>) => set({ team: { ...get().team, ...p } });

  const fetchSessions = async () => {
    const mine = ++seq;
    patch({ loading: true, error: null });
    try {
      const answer = await client.listTeamSessions({ query: get().team.query, limit: 200, offset: 0 });
      if (mine === seq)
        patch({
          sessions: answer.sessions,
          matches: answer.matches,
          total: answer.total,
          totalCapped: answer.totalCapped === true,
          problems: answer.problems,
          loading: false,
        });
    } catch (err) {
      if (mine === seq) patch({ sessions: [], matches: [], total: 0, totalCapped: false, loading: false, error: describeError(err) });
    }
  };

  const push = async (keys: string[], confirm: boolean, keep: string[]) => {
    patch({ pushing: true, pushMessage: null });
    try {
      const result = await client.pushToTeam({ keys, confirm, keep });
      const review = result.held.length && !confirm ? { keys, held: result.held, findings: result.findings, keep: [] } : null;
      patch({ pushing: false, review, pushMessage: said(result.pushed.length, result.unchanged.length, result.held.length) });
      if (result.pushed.length) await fetchSessions();
    } catch (err) {
      patch({ pushing: false, pushMessage: describeError(err) });
    }
  };

  return {
    team: initial,

    async loadTeam() {
      try {
        const status = await client.getTeamStatus({});
        patch({ status, statusError: null });
        if (status.store && !status.error && !status.served) await fetchSessions();
      } catch (err) {
        patch({ statusError: describeError(err) });
      }
    },

    async openTeamSession(key) {
      const { sessions, matches, query } = get().team;
      const match = matches[sessions.findIndex((s) => s.key === key)];
      const focus =
        match && match.messageIndex !== null && query.trim() ? { messageIndex: match.messageIndex, terms: highlightTerms(query, match.snippet) } : null;
      await get().openSession(key, focus);
    },

    setTeamQuery(query) {
      patch({ query });
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void fetchSessions();
      }, debounceMs);
    },

    async saveTeamSettings(input) {
      try {
        const status = await client.setTeamSettings(input);
        patch({ status, statusError: null });
        if (status.store && !status.error) await fetchSessions();
        else patch({ sessions: [], total: 0, totalCapped: false });
        return true;
      } catch (err) {
        patch({ statusError: describeError(err) });
        return false;
      }
    },

    pushToTeam: (keys) => push(keys, false, []),

    toggleTeamKeep(id) {
      const review = get().team.review;
      if (!review) return;
      const keep = review.keep.includes(id) ? review.keep.filter((k) => k !== id) : [...review.keep, id];
      patch({ review: { ...review, keep } });
    },

    async confirmTeamPush() {
      const review = get().team.review;
      if (!review) return;
      await push(review.held, true, review.keep);
    },

    cancelTeamPush() {
      patch({ review: null });
    },
  };
}
