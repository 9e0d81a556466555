// How a window loads a long list: its first page at once, the rest in pages (the store uses them; the bench measures them).

/** The list's first page: a library up to this size arrives in one answer. */
export const LIST_FIRST_PAGE = 2000;
/**
 * A longer list's other rows follow in pages of this many, so a library of 100,000 sessions shows its newest in well
 * under a second instead of after one answer of ~60 MB (seconds of the server's time, every other call waiting behind it).
 */
export const LIST_PAGE = 10_000;
