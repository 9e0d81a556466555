// The one typed contract between the UI and the services: every method's input/output and every pushed event.
import { z } from 'zod';
import { Message, Session, SessionSummary, SourceFormat, Unreadable } from './session.ts';
import { vaultApi } from './vault-api.ts';
import { summaryApi } from './summary-api.ts';
import { searchApi, searchEvents } from './search-api.ts';
import { usageApi } from './usage-api.ts';
import { bundleApi, bundleEvents } from './bundle-api.ts';
import { teamApi } from './team-api.ts';
import { Comparison } from './compare/comparison.ts';
import { openApi, openEvents } from './open-api.ts';

/** Why files in a root that look like sessions cannot be read: one row per kind of failure, with one file's reason. */
export const UnreadableReason = z.object({
  code: Unreadable.shape.code,
  count: z.number().int().positive(),
  /** One such file's reason, as its list row shows it. */
  example: z.string(),
  /** That file, relative to the root (the first such by name), and its list row's key, to open it from the panel. */
  file: z.string(),
  key: z.string(),
});
export type UnreadableReason = z.infer<typeof UnreadableReason>;

export const Root = z.object({
  id: z.string(),
  path: z.string(),
  /** default: discovered at a tool's standard location; user: added by the user; demo: bundled demo set. */
  kind: z.enum(['default', 'user', 'demo']),
  /** The format a default root belongs to; null for user folders, which may hold several. */
  format: SourceFormat.nullable(),
  exists: z.boolean(),
  sessionCount: z.number().int().nonnegative(),
  unreadableCount: z.number().int().nonnegative(),
  /** The unreadable files' reasons, the most common first (at most 3 kinds). */
  unreadableReasons: z.array(UnreadableReason),
  /** Why the root cannot be watched or scanned, if it cannot. */
  error: z.string().nullable(),
});
export type Root = z.infer<typeof Root>;

export const RawSource = z.object({
  path: z.string(),
  size: z.number().nonnegative(),
  offset: z.number().int().nonnegative(),
  /** Where the next window starts (the window ends on a whole UTF-8 character). */
  nextOffset: z.number().int().nonnegative(),
  /** The requested window of the file, decoded as UTF-8 (gunzipped where the file is gzip). */
  text: z.string(),
  /** true when the file continues past this window. */
  truncated: z.boolean(),
});
export type RawSource = z.infer<typeof RawSource>;

export const RawRecord = z.object({
  path: z.string(),
  /** The record pretty-printed as JSON (or the line as-is when it is not JSON). */
  text: z.string(),
  /** true when the record was larger than the limit and was cut. */
  truncated: z.boolean(),
});
export type RawRecord = z.infer<typeof RawRecord>;

/** An opened session: `messages` holds the first window; `messagesTotal` says how many there are in all. */
export const OpenedSession = Session.extend({ messagesTotal: z.number().int().nonnegative() });
export type OpenedSession = z.infer<typeof OpenedSession>;

/** Messages beyond the first window are fetched as the user scrolls, so a huge session opens at once. */
export const DEFAULT_MESSAGE_WINDOW = 1000;

export const AppInfo = z.object({
  version: z.string(),
  dataDir: z.string(),
  /** electron when running as the desktop app, web when served to a browser. */
  shell: z.enum(['electron', 'web', 'cli']),
  demoRootPath: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** The user's prices file (`<data dir>/pricing.json`): where it is, whether it is used, and the models it prices over the bundled database. */
export const PricingFileInfo = z.object({
  path: z.string(),
  exists: z.boolean(),
  /** Why the file cannot be used as it is now (not JSON, a wrong field); null when it is fine or absent. */
  problem: z.string().nullable(),
  /** Its entries (USD per million tokens), by the model name or `prefix*` they match. */
  entries: z.array(z.object({ model: z.string(), input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() })),
});
export type PricingFileInfo = z.infer<typeof PricingFileInfo>;

const UsdPerMillion = z.number().finite().nonnegative().max(1_000_000);
/**
 * One change to pricing.json, made in Settings: the model's price in USD per million tokens, or null to remove its
 * entry; `replaces` names the entry this one takes the place of (a model renamed while editing).
 */
export const PricingEntryChange = z
  .object({
    model: z.string().trim().min(1, 'name the model').max(200),
    price: z.object({ input: UsdPerMillion, output: UsdPerMillion, cacheRead: UsdPerMillion, cacheWrite: UsdPerMillion }).strict().nullable(),
    replaces: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type PricingEntryChange = z.infer<typeof PricingEntryChange>;

/** How the window looks, kept in the data folder so the desktop app and every browser tab (whatever its port) agree. */
export const UiPreferences = z.object({ theme: z.enum(['system', 'light', 'dark']), fontSize: z.enum(['small', 'medium', 'large', 'larger']) }).strict();
export type UiPreferences = z.infer<typeof UiPreferences>;

const SessionKey = z.string().min(1).max(4096);
const Empty = z.object({}).strict();

export const api = {
  getAppInfo: { input: Empty, output: AppInfo },
  listSessions: {
    input: z
      .object({
        /** Case-insensitive substring over title, project, branch, id and summary. */
        text: z.string().max(1000).optional(),
        format: SourceFormat.optional(),
        limit: z.number().int().positive().max(100_000).optional(),
        /** Rows to skip first, in the list's order (newest first): a window loads a long list page by page. */
        offset: z.number().int().nonnegative().max(100_000_000).optional(),
        /** Sub-agent sessions are shown under their parent; set to list them at top level too. */
        includeChildren: z.boolean().optional(),
        starred: z.boolean().optional(),
        /** Only sessions with (true) or without (false) a copy in the vault. */
        kept: z.boolean().optional(),
        tag: z.string().min(1).max(80).optional(),
        /**
         * Only these sessions (those that pass the other filters), plus the parents they are listed under: what a
         * `sessionsChanged` event touched, so a window updates those rows instead of fetching the whole list again.
         */
        keys: z.array(SessionKey).min(1).max(1000).optional(),
      })
      .strict(),
    output: z.object({ sessions: z.array(SessionSummary), total: z.number().int().nonnegative() }),
  },
  getSession: {
    input: z.object({ key: SessionKey, messageLimit: z.number().int().positive().max(1_000_000).default(DEFAULT_MESSAGE_WINDOW) }).strict(),
    output: OpenedSession,
  },
  getMessages: {
    input: z
      .object({
        key: SessionKey,
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(10_000).default(DEFAULT_MESSAGE_WINDOW),
      })
      .strict(),
    output: z.object({ offset: z.number().int().nonnegative(), messages: z.array(Message), total: z.number().int().nonnegative() }),
  },
  getRawSource: {
    input: z
      .object({
        key: SessionKey,
        /** Index into the session's sourceFiles; 0 is the primary file. */
        fileIndex: z.number().int().nonnegative().default(0),
        offset: z.number().int().nonnegative().default(0),
        length: z
          .number()
          .int()
          .positive()
          .max(4 * 1024 * 1024)
          .default(256 * 1024),
      })
      .strict(),
    output: RawSource,
  },
  /** The source record behind one message or operation (its `origin`), for the raw record view. */
  getRawRecord: {
    input: z
      .object({
        key: SessionKey,
        fileIndex: z.number().int().nonnegative().default(0),
        /** 1-based line for JSONL sources. */
        line: z.number().int().positive().optional(),
        /** RFC 6901 JSON pointer for document sources, e.g. "/chat/3". */
        pointer: z.string().max(1000).optional(),
      })
      .strict()
      .refine((v) => v.line !== undefined || v.pointer !== undefined, { message: 'give a line or a pointer', path: ['line'] }),
    output: RawRecord,
  },
  listRoots: { input: Empty, output: z.array(Root) },
  addRoot: { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: Root },
  removeRoot: { input: z.object({ id: z.string().min(1) }).strict(), output: z.object({ removed: z.boolean() }) },
  openDemo: { input: Empty, output: Root },
  /** Scans one folder (or every folder) again now, for changes made while nothing was watching. */
  rescanRoots: { input: z.object({ id: z.string().min(1).optional() }).strict(), output: z.array(Root) },
  /** What the user's pricing.json holds, read afresh. */
  getPricingFile: { input: Empty, output: PricingFileInfo },
  /** Adds, changes or removes one model's price in pricing.json (refused while the file is not valid); costs follow without a restart. */
  setPricingEntry: { input: PricingEntryChange, output: PricingFileInfo },
  /** null until a theme or text size has been chosen. */
  getUiPreferences: { input: Empty, output: UiPreferences.nullable() },
  setUiPreferences: { input: UiPreferences, output: UiPreferences },
  /** Two sessions side by side (any formats): header deltas, aligned turns, word diffs, files and operations. */
  compareSessions: { input: z.object({ a: SessionKey, b: SessionKey }).strict(), output: Comparison },
  ...vaultApi,
  ...summaryApi,
  ...searchApi,
  ...usageApi,
  ...bundleApi,
  ...openApi,
  ...teamApi,
} as const;

export type Api = typeof api;
export type MethodName = keyof Api;
export type MethodInput<M extends MethodName> = z.input<Api[M]['input']>;
export type MethodOutput<M extends MethodName> = z.infer<Api[M]['output']>;
/** What the services implement: one async function per contract method, on validated input. */
export type ServiceMethods = {
  [M in MethodName]: (input: z.infer<Api[M]['input']>) => Promise<MethodOutput<M>>;
};

export const events = {
  /** Sessions were added, changed or removed on disk (keys of each). */
  sessionsChanged: z.object({
    changed: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  rootsChanged: z.object({ roots: z.array(Root) }),
  ...bundleEvents,
  ...openEvents,
  ...searchEvents,
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.infer<Events[E]>;
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];

export const methodNames = Object.keys(api) as MethodName[];
export const isMethodName = (name: string): name is MethodName => Object.hasOwn(api, name);
