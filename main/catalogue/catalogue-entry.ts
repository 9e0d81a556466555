// A catalogue entry: a session file's key, parent and facts in memory, holding its summary or loading it back on demand.
import type { SessionSummary } from '../../shared/session.ts';
import { containedRef } from './contained-sessions.ts';

/** What every entry keeps in memory: enough to key, group, count and sweep sessions without their summaries. */
export interface EntryFacts {
  key: string;
  parentKey: string | null;
  unreadable: boolean;
  /** The session says it is over (status closed): the vault may keep it at once. */
  closed: boolean;
}

/** What a list row needs from a stored entry to be rebuilt without reading the file: see `summaryOf`. */
export interface CatalogueEntry extends EntryFacts {
  /** The session's file; for a session inside a store, `<store>#<id>` (contained-sessions.ts). */
  path: string;
  /** Bytes; for a contained session, its version stamp (the store's size says nothing about one session). */
  size: number;
  /** For a contained session, its store's mtime when it was read (-1: read it again). */
  mtimeMs: number;
  /** The store a contained session lives in; null for a session file of its own. */
  readonly store: string | null;
  /** The full list row; an indexed catalogue may load it from the index on demand rather than hold it. */
  readonly summary: SessionSummary;
  /** The summary while it is held in memory (null once the index has it and the entry let go of it). */
  readonly held: SessionSummary | null;
  /** Other files the session was read from; a change to one of them re-reads this entry. */
  companions: string[];
  /** When it was written, in the catalogue's own count of writes (see `writes`). */
  written: number;
}

/** An entry holds its summary until `held` is dropped; then `load` brings it back (from the index). */
export class Entry implements CatalogueEntry {
  path: string;
  size: number;
  mtimeMs: number;
  companions: string[];
  written: number;
  key: string;
  parentKey: string | null;
  unreadable: boolean;
  closed: boolean;
  held: SessionSummary | null;
  /** The store a contained session lives in (contained-sessions.ts); null for a session file of its own. */
  readonly store: string | null;
  private readonly load: (entry: Entry) => SessionSummary;

  constructor(
    path: string,
    size: number,
    mtimeMs: number,
    facts: EntryFacts,
    companions: string[],
    written: number,
    held: SessionSummary | null,
    load: (entry: Entry) => SessionSummary,
  ) {
    this.path = path;
    this.store = path.includes('#') ? (containedRef(path)?.store ?? null) : null;
    this.size = size;
    this.mtimeMs = mtimeMs;
    this.companions = companions;
    this.written = written;
    this.key = facts.key;
    this.parentKey = facts.parentKey;
    this.unreadable = facts.unreadable;
    this.closed = facts.closed;
    this.held = held;
    this.load = load;
  }

  get summary(): SessionSummary {
    return this.held ?? this.load(this);
  }
}

export const factsOf = (summary: SessionSummary): EntryFacts => ({
  key: summary.key,
  parentKey: summary.parentKey,
  unreadable: summary.unreadable !== null,
  closed: summary.status === 'closed',
});
