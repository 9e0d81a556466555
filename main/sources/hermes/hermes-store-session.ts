// Reads one session out of an open state.db: its row, its messages, and its links to parent, sub-agents and continuations.
import { WarningList } from '../coerce.ts';
import { UnreadableError } from '../types.ts';
import { NO_LINKS, type HermesLinks, type HermesPieces } from './hermes-session.ts';
import { continues, storeFacts, type StoreFacts } from './hermes-store-facts.ts';
import { storeMessages } from './hermes-store-messages.ts';
import type { HermesStore } from './hermes-store.ts';

/** Links are worked out from other rows, whose own faults belong to their own sessions. */
function factsOf(store: HermesStore, id: string): StoreFacts | null {
  const row = store.session(id);
  return row ? storeFacts(row, new WarningList()) : null;
}

function linksOf(store: HermesStore, facts: StoreFacts): HermesLinks {
  const links: HermesLinks = { ...NO_LINKS, childKeys: [], continuedIn: [] };
  if (facts.parentId) {
    const parent = factsOf(store, facts.parentId);
    // A parent the store no longer holds cannot tell a continuation from a sub-agent: it is kept as the parent.
    if (parent && continues(facts, parent)) links.continues = `hermes:${parent.id}`;
    else links.parentKey = `hermes:${facts.parentId}`;
  }
  for (const row of store.children(facts.id)) {
    const child = storeFacts(row, new WarningList());
    if (continues(child, facts)) links.continuedIn.push(`hermes:${child.id}`);
    else links.childKeys.push(`hermes:${child.id}`);
  }
  return links;
}

/** The store's part of a session, or null when the store has no such row. `raw`: the session is the store's own (see storeMessages). */
export function storePart(store: HermesStore, id: string, raw: boolean, warnings: WarningList): HermesPieces['store'] {
  const row = store.session(id);
  if (!row) return null;
  const facts = storeFacts(row, warnings);
  return { facts, messages: storeMessages(store.messages(id), raw, warnings), links: linksOf(store, facts) };
}

export function requireStorePart(store: HermesStore, id: string, warnings: WarningList): NonNullable<HermesPieces['store']> {
  const part = storePart(store, id, true, warnings);
  if (!part) throw new UnreadableError('wrong_shape', `The Hermes store holds no session "${id}" (it may have been deleted since it was listed).`);
  return part;
}
