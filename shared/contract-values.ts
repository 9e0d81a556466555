// The contract's plain value lists (sort orders, facet names, usage periods and breakdowns), without zod: the CLI's read-only fast paths use them and never load the validation library.
import type { Facets } from './search-api.ts';

/** Orders for search results and the list: relevance (bm25), or newest/largest first by one field. `date` is `updated`. */
export const SEARCH_SORTS = ['relevance', 'date', 'updated', 'created', 'size', 'tokens', 'cost'] as const;

/** Values of a field (source … tag), and ranges offered as filters: how recent, how many tokens, how much it cost, whether summarized. */
export const FACET_NAMES = ['source', 'project', 'branch', 'status', 'outcome', 'model', 'tag', 'date', 'tokens', 'cost', 'summary'] as const;

/** Facets with nothing counted in any of them. */
export const emptyFacets = (): Facets => Object.fromEntries(FACET_NAMES.map((name) => [name, []])) as unknown as Facets;

/** `session-vault usage` reports, and what a report's rows can be broken down by. */
export const USAGE_PERIODS = ['daily', 'weekly', 'monthly', 'session'] as const;
export const USAGE_BREAKDOWNS = ['model', 'project', 'source', 'branch'] as const;

/** `value` when it is one of `values`. */
export function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return (values as readonly string[]).includes(value as string) ? (value as T) : undefined;
}
