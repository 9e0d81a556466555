// The team part of the contract: the app's Team source (a team store on PostgreSQL), its settings, its sessions, and pushing to it.
import { z } from 'zod';
import { BundleFinding } from './bundle-api.ts';
import { SessionSummary } from './session.ts';
import { SnippetPart } from './search-api.ts';

const SessionKey = z.string().min(1).max(4096);

/** A machine label: what every row this machine pushes carries. */
export const MachineLabel = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'up to 63 letters, digits, ".", "_" or "-"');

export const TeamPushSummary = z.object({
  at: z.string(),
  /** Sessions sent, and those the store already had as they are. */
  pushed: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  /** Sessions the store does not have yet, waiting for their review (never pushed automatically). */
  held: z.array(z.string()),
  /** Why the push stopped, said plainly; null when it went through. */
  error: z.string().nullable(),
});
export type TeamPushSummary = z.infer<typeof TeamPushSummary>;

export const TeamStatus = z.object({
  /** The store's URL without its password; null until one is set. */
  store: z.string().nullable(),
  machine: z.string(),
  /** Push sessions that change (and that the store already has) on their own, a little after they change. */
  autoPush: z.boolean(),
  /** A password (the account's token) is kept for the store in a file only this user can read; it is never sent back. */
  hasToken: z.boolean(),
  /** The account signed in as, and its role; null until connected. */
  account: z.string().nullable(),
  role: z.enum(['viewer', 'member', 'admin']).nullable(),
  /** Why the store cannot be reached or used, said plainly; null when it can. */
  error: z.string().nullable(),
  lastPush: TeamPushSummary.nullable(),
  /** This window is `session-vault serve --team`: every session it lists is the store's, so there is no Team source to show. */
  served: z.boolean(),
});
export type TeamStatus = z.infer<typeof TeamStatus>;

export const TeamPushResult = z.object({
  pushed: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** New to the store and not sent: they wait for the review (`confirm: true` sends them). */
  held: z.array(z.string()),
  skipped: z.array(z.object({ key: z.string(), reason: z.string() })),
  /** Every secret found; those not kept were redacted before anything left the machine. */
  findings: z.array(BundleFinding),
  bytes: z.number().nonnegative(),
});
export type TeamPushResult = z.infer<typeof TeamPushResult>;

export const teamApi = {
  getTeamStatus: { input: z.object({}).strict(), output: TeamStatus },
  /** Sets the store (a URL without a password; null forgets it and its token), the token, the machine label, auto-push. */
  setTeamSettings: {
    input: z
      .object({
        store: z.string().min(1).max(2000).nullable().optional(),
        token: z.string().min(1).max(1000).optional(),
        machine: MachineLabel.optional(),
        autoPush: z.boolean().optional(),
      })
      .strict(),
    output: TeamStatus,
  },
  /** The team's sessions with the app's search syntax (plus machine: and user:), each marked with its machine; keys are `<machine>/<key>`. */
  listTeamSessions: {
    input: z
      .object({
        query: z.string().max(2000).default(''),
        limit: z.number().int().positive().max(1000).default(200),
        offset: z.number().int().nonnegative().default(0),
      })
      .strict(),
    output: z.object({
      sessions: z.array(SessionSummary),
      /** Per session, in the same order: where the query matched (its snippet, and its message to open at; null: the title, or filters alone). */
      matches: z.array(z.object({ snippet: z.array(SnippetPart), messageIndex: z.number().int().nonnegative().nullable() })),
      total: z.number().int().nonnegative(),
      /** More match than were counted (a team store counts up to a cap): `total` is a lower bound, shown "200+". */
      totalCapped: z.boolean().optional(),
      problems: z.array(z.string()),
    }),
  },
  /**
   * Pushes sessions of this machine as Share would bundle them (redacted, with their files). Sessions the store does not
   * have yet are held and their findings returned for review unless `confirm`; `keep` leaves false positives in place.
   */
  pushToTeam: {
    input: z
      .object({
        keys: z.array(SessionKey).min(1).max(100_000),
        confirm: z.boolean().default(false),
        keep: z.array(z.string().max(64)).max(100_000).default([]),
      })
      .strict(),
    output: TeamPushResult,
  },
} as const;
