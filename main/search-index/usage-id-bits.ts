// File ids as a byte each, marked from SQLite's comma-separated lists of them: sets of tens of thousands of ids tested in memory instead of one lookup each.
import type { SQLInputValue } from 'node:sqlite';
import { withClause } from './search.ts';
import type { UsageSource } from './usage-match.ts';

/**
 * The ids a SELECT of one column `id` gives (after the CTEs `ctes`), as one comma-separated text: one value crosses
 * into JavaScript, not a row per id (105,066 ids in ~7 ms CPU).
 */
export const idList = (source: Pick<UsageSource, 'index'>, ctes: string[], select: string, params: SQLInputValue[]): string | null =>
  (source.index.prepared(`${withClause(ctes)}SELECT group_concat(id) AS ids FROM (${select})`).get(...params) as { ids: string | null }).ids;

/** Calls `visit` with each whole number of a comma-separated list (SQLite's group_concat of ids), read without splitting the text. */
export function eachId(list: string | null, visit: (id: number) => void): void {
  if (!list) return;
  let id = 0;
  for (let i = 0; i <= list.length; i++) {
    const c = i < list.length ? list.charCodeAt(i) : 44;
    if (c !== 44) id = id * 10 + (c - 48);
    else {
      visit(id);
      id = 0;
    }
  }
}

/** Flags (bits of a byte) by file id, grown when an id is past the end. */
export class IdBits {
  bits: Uint8Array;

  constructor(size = 0) {
    this.bits = new Uint8Array(size + 1);
  }

  /** Makes room for `id`. */
  reach(id: number): void {
    if (id < this.bits.length) return;
    const grown = new Uint8Array(Math.max(id + 1, this.bits.length * 2));
    grown.set(this.bits);
    this.bits = grown;
  }

  /** Sets `flag` on every id of a comma-separated list; returns how many did not have it. */
  markList(list: string | null, flag: number): number {
    let added = 0;
    eachId(list, (id) => {
      this.reach(id);
      if (!(this.bits[id]! & flag)) added++;
      this.bits[id]! |= flag;
    });
    return added;
  }

  /** Whether `id` has `flag`. */
  has(id: number, flag: number): boolean {
    return ((this.bits[id] ?? 0) & flag) !== 0;
  }
}
