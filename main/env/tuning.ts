// Every memory and speed knob of the app in one place, each with the measurement that set it (2 cores, 24 GB).

// Worker threads

/**
 * The young generation a read worker gets (V8 sizes it from the machine's memory, up to ~100 MB per thread, and
 * keeps it once grown). Parsing a 54 MB transcript in a worker: default 1,182 ms and 352 MB peak RSS; 48 MB
 * young: 765 ms, 251 MB (fewer survivors copied). A cold index of 10,000 sessions peaked 506-520 MB with the
 * default, 430-447 MB with 48 MB, in the same time.
 */
export const WORKER_YOUNG_MB = 48; // used in main/workers/read-pool.ts

/** The young generation's semi-space every worker thread starts with, and keeps (young generation: about three times this). */
export const WORKER_SEMI_SPACE_MB = 8; // used in main/env/idle-memory.ts

/** The scan workers' heap cap: parsing a file of SCAN_LARGE_BYTES takes a fraction of it. */
export const SCAN_HEAP_MB = 96; // used in main/library/library-sync.ts

/** Batches are bounded by the index's backlog limit (tens of MB of text), well inside this. */
export const WRITER_HEAP_MB = 160; // used in main/search-index/index-writer.ts

// Scans

/** Files above this are listed by the session worker, which keeps them parsed for opening. */
export const LARGE_FILE_BYTES = 32 * 1024 * 1024; // used in main/library/library-sync.ts

/** A scan reads files above this after the others, one at a time, in a worker without a heap cap. */
export const SCAN_LARGE_BYTES = 8 * 1024 * 1024; // used in main/library/library-sync.ts

/**
 * A scan has the main thread's heap collected after this many files. Each file's summary lives until the index
 * has it (about half a second), long enough to reach the old generation, and V8 let that garbage pile up to 2-3
 * times the live heap: 133-145 MB of main-thread heap near the end of a 100,000-session cold index, 54 MB live.
 * Collected every 4,000 files: 45-77 MB, and peak RSS over 3 interleaved runs 365-401 -> 360-365 MB (the peak is
 * then a large file's parse), in the same time (107-112 s) for about 1% more CPU.
 */
export const COLLECT_EVERY_FILES = 4000; // used in main/library/library-sync.ts

// Opened sessions

/** Bytes of source the kept sessions may stand for, so huge ones do not pile up in memory. */
export const OPENED_MAX_SOURCE_BYTES = 400 * 1024 * 1024; // used in main/workers/read-file.ts

// The search index

/** Bytes of text per batch handed to the writer. */
export const SEND_BYTES = 4 * 1024 * 1024; // used in main/search-index/index-store.ts

/** Bytes of text read but not yet indexed before scans wait: bounds memory while the writer catches up. */
export const MAX_BACKLOG = 24 * 1024 * 1024; // used in main/search-index/index-store.ts

/**
 * Why: a scan writes in bulk merge mode (merge-mode.ts), so it ends with each table spread over one segment per
 * batch (10,000 sessions: 48; 100,000: 585), and a lookup reads every one of them (the bench's 50 queries at
 * 100,000 sessions: p95 772 ms, against 139 ms merged). Merged into one, even a steady-mode build's few dozen
 * segments: p50 7.6 -> 6.3 ms, p95 18.0 -> 16.6 ms at 10,000 sessions. A full merge rewrites the tables once
 * (10,000 sessions: 1.5-1.9 s of the writer thread), so it is worth it only after much new text: at least
 * TIDY_MIN_BYTES, and at least a fifth of all the text indexed (one session edited in a 5 GB index must not
 * rewrite it). Otherwise a pass only merges segments of the same size (what a bulk scan left).
 */
export const TIDY_MIN_BYTES = 32 * 1024 * 1024; // used in main/search-index/index-tidy.ts

// Exports

/**
 * Sources up to this size are read whole and deflated beside the others (several files at once on libuv's
 * thread pool, which is how an export uses more than one core); larger ones stream, a megabyte at a time.
 * 256 MB of 16 MB transcripts, 2 cores: 8 MB (every file streamed) 1.41× zip -r -6's time, 32 MB 1.06×.
 */
export const WHOLE_MAX = 32 * 1024 * 1024; // used in main/bundle/export-bundle.ts

/**
 * Whole sources waiting, at most: raw until deflated, then compressed until written (a 16 MB transcript waits
 * as about 6 MB once deflated). One over it goes when none wait. 1 GB of 16 MB transcripts, CLI, built: 64 MB
 * (when sources counted raw until written) peaked at 338-342 MB; counted compressed once deflated, 48 MB peaks
 * at 287-291 MB in the same time (0.92-0.99x zip's, 56 MB: 305 MB); 32 MB takes a quarter longer.
 */
export const WAITING_BUDGET = 48 * 1024 * 1024; // used in main/bundle/export-bundle.ts
