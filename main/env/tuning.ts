// Every memory and speed knob of the app in one place, each with the measurement that set it (2 cores, 24 GB).
import { availableParallelism } from 'node:os';

// Worker threads

/**
 * The young generation a read worker gets (V8 sizes it from the machine's memory, up to ~100 MB per thread, and
 * keeps it once grown). Parsing a 54 MB transcript in a worker: default 1,182 ms and 352 MB peak RSS; 48 MB
 * young: 765 ms, 251 MB (fewer survivors copied). A cold index of 10,000 sessions peaked 506-520 MB with the
 * default, 430-447 MB with 48 MB, in the same time.
 */
export const WORKER_YOUNG_MB = 48; // used in main/workers/read-pool.ts, main/search-index/index-writer.ts

/**
 * The young generation's semi-space every worker thread starts with, and keeps (young generation: about three times this).
 * 8 MB suited one large transcript (idle-memory.ts), but a scan's thousands of small files then spend an eighth of their
 * worker's time collecting: cold `list --json` of the realistic 1 GB corpus, 6 interleaved runs each, median wall
 * 8.68 -> 7.71 s and CPU 16.3 -> 14.6 s at 16 MB (24 and 32 MB: no better), peak RSS 488 -> 515 MB. An OpenCode store's
 * first scan (10,000 sessions) gains nothing and peaks 60-75 MB higher; `serve` at rest is unchanged (94-95 MB).
 */
export const WORKER_SEMI_SPACE_MB = 16; // used in main/env/idle-memory.ts

/** The scan workers' heap cap: parsing a file of SCAN_LARGE_BYTES takes a fraction of it. */
export const SCAN_HEAP_MB = 96; // used in main/library/library-sync.ts

/** Batches are bounded by the index's backlog limit (tens of MB of text), well inside this. */
export const WRITER_HEAP_MB = 160; // used in main/search-index/index-writer.ts

// Scans

/**
 * Scan workers: one per core, up to 4. While a scan lists, the writer thread writes the list's rows only (the text
 * waits for the catch-up, pending-text.ts), so parsing is the work and every core can do it. One worker on 2 cores
 * (the default pool's size, cores - 1) left the other core idle but for the writer's few hundred ms.
 */
export const scanWorkers = (): number => Math.max(1, Math.min(4, availableParallelism())); // used in main/library/library-sync.ts

/**
 * Files above this are listed by the session worker, which keeps them parsed for opening (one that appears while the
 * app runs); a scan parses each in a fresh worker, and while it does, the scan pool runs one worker fewer (memory).
 */
export const LARGE_FILE_BYTES = 32 * 1024 * 1024; // used in main/library/library-sync.ts

/**
 * A scan reads files above this one at a time, in the live pool's worker (no heap cap): the app's scan as it finds
 * them (those over LARGE_FILE_BYTES after all the others), a command that only lists in a lane beside the others,
 * the largest first (library-sync.ts says why).
 */
export const SCAN_LARGE_BYTES = 8 * 1024 * 1024; // used in main/library/library-sync.ts

/**
 * How many times its size on disk a zstd session file is taken to come to when decompressed: for where a scan reads
 * it (SCAN_LARGE_BYTES, LARGE_FILE_BYTES) and what the session worker counts it as (OPENED_MAX_SOURCE_BYTES). Codex
 * (0.137+) compresses each rollout idle for 7 days at zstd level 3, about 10 times (a 200 MB rollout to ~20 MB; the
 * samples' one rollout over 20 KB, 146 KB, to 7 KB). Not measured on a corpus of real rollouts: one that comes to more
 * and outgrows a scan worker's capped heap is read again without the cap.
 */
export const ZSTD_EXPANSION = 10; // used in main/sources/compressed.ts

/**
 * A scan has the main thread's heap collected after this many files. Each file's summary lives until the index
 * has it (about half a second), long enough to reach the old generation, and V8 let that garbage pile up to 2-3
 * times the live heap: 133-145 MB of main-thread heap near the end of a 100,000-session cold index, 54 MB live.
 * Collected every 4,000 files: 45-77 MB, and peak RSS over 3 interleaved runs 365-401 -> 360-365 MB (the peak is
 * then a large file's parse), in the same time (107-112 s) for about 1% more CPU.
 */
export const COLLECT_EVERY_FILES = 4000; // used in main/library/library-sync.ts

/**
 * Scan tasks a worker holds: the one it runs and one queued behind it, so it starts the next file as soon as it
 * posts a result instead of waiting a round trip through the main thread's event loop for it. With one (nothing
 * queued), one scan worker on the 10,000-session corpus sat idle 3.8 s of 16.3 s between files. Only background
 * summaries are queued so: an interactive read still waits for at most one file.
 */
export const SCAN_PIPELINE = 2; // used in main/workers/read-pool.ts

/**
 * Files a scan has handed to the workers and not heard back from, at most, before its folder walk waits for one:
 * four per worker at the most workers (scanWorkers), so none waits for work while the walk stats the next files;
 * each holds only its path and a promise until a worker takes it. Set by that reasoning, not by a measurement.
 */
export const SCAN_READS_IN_FLIGHT = 16; // used in main/catalogue/scan-root.ts

// Watching

/**
 * How long the watcher waits after a change for more before it reports the batch (at most four times this while
 * a file keeps changing, so a live transcript still shows its new turns). A tool writing a turn touches its files
 * several times within a few milliseconds; 120 ms gathers them into one rescan while a new turn still shows within
 * about a tenth of a second. Set by that reasoning, not by a measurement.
 */
export const WATCH_DEBOUNCE_MS = 120; // used in main/watch/root-watcher.ts

// Opened sessions

/** Bytes of source the kept sessions may stand for, so huge ones do not pile up in memory. */
export const OPENED_MAX_SOURCE_BYTES = 400 * 1024 * 1024; // used in main/workers/read-file.ts

// The search index

/**
 * The page size of a new index file (an existing file keeps its own; SQLite fixes it at the first write). A cold
 * build writes a quarter of the WAL frames and B-tree pages of 4 KB pages (SQLite's default): the writer's COMMIT
 * took half the time, and a cold index of 10,000 sessions 26.0 / 29.0 s -> 20.1 / 18.9 s (interleaved runs).
 * 64 KB pages were no faster again.
 */
export const INDEX_PAGE_BYTES = 16384; // used in main/search-index/open-database.ts

/**
 * FTS5 gathers a transaction's tokens in memory and writes them out as a new segment whenever that buffer
 * passes 'hashsize' (1 MB by default), so a batch of 10 MB of text became ten small segments to merge again.
 * 16 MB makes one segment per batch. (The -22% first measured for it came while every statement savepoint still
 * flushed a segment per session, see IndexWrites.apply; since that fix, 4 MB measured slower than 16 MB.)
 */
export const FTS_HASH_BYTES = 16 * 1024 * 1024; // used in main/search-index/schema.ts

/**
 * Steady merge mode (merge-mode.ts): FTS5 merges once this many segments of one size pile up ('automerge').
 * FTS5's default of 4 merged more often: each merge rewrites its segments, so fewer, larger merges write less (the
 * writer thread's work for the 10,000-session bench corpus, replayed alone, 10.2 -> 9.2 s; queries no slower).
 */
export const STEADY_AUTOMERGE = 8; // used in main/search-index/merge-mode.ts

/** Steady merge mode: segments of one size merged at once past this many ('crisismerge', FTS5's default). */
export const STEADY_CRISISMERGE = 16; // used in main/search-index/merge-mode.ts

/**
 * Bulk merge mode (a scan's writes): never merge while writing, unless this many segments of one size pile up
 * (16 GB of text at one segment per 16 MB batch; FTS5 allows at most 2,000 segments in a table). With merges, a
 * cold index of 100,000 sessions took 134.8 s, the writer thread spending about a third of its time merging;
 * without, 90.3 s (the tidy pass after the scan merges every byte once).
 */
export const BULK_CRISISMERGE = 1000; // used in main/search-index/merge-mode.ts

/**
 * Bytes of words one catch-up step puts into the full-text tables (index-writer-thread.ts), in one transaction: about
 * one FTS5 segment (FTS_HASH_BYTES), so the catch-up adds few segments for the tidy pass to merge, and a batch of
 * the list's rows that comes meanwhile waits one step at most (the word tables take ~60 MB of text per second of
 * CPU on the realistic corpus: ~0.3 s).
 */
export const CATCH_UP_STEP_BYTES = 16 * 1024 * 1024; // used in main/search-index/index-writer-thread.ts

/**
 * Bytes of identifiers one catch-up step indexes for substring search (trigrams: 3-4 MB per second of CPU on the
 * realistic corpus, a twentieth of the words' rate), so a batch that comes meanwhile waits about as long as behind a
 * step of words.
 */
export const CATCH_UP_IDENT_BYTES = 1024 * 1024; // used in main/search-index/index-writer-thread.ts

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

/** A full merge also needs the text new since the last one to be at least 1/TIDY_SHARE of all the text (see above). */
export const TIDY_SHARE = 5; // used in main/search-index/index-tidy.ts

/**
 * Pages one tidy step writes ('merge' with a negative count merges across sizes, like 'optimize', but stops after
 * this many pages): one step takes ~40 ms, so a batch of new writes never waits longer behind it.
 */
export const TIDY_STEP_PAGES = 500; // used in main/search-index/index-tidy.ts

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

/**
 * The largest output chunk a whole entry's deflate uses (zlib's default is 16 KB; an entry gets a quarter of its
 * size, between the two). Node's zlib.deflateRaw deflates on libuv's thread pool one output chunk at a time, and
 * each next chunk is started from a callback on the main thread: with 16 KB chunks about every 4 ms of deflating,
 * so while that thread reads or scans a file for a tenth of a second every deflate in flight waits for it. 2 MB
 * deflates a transcript in one or two steps, and a few deflates in flight hold a few megabytes of output space.
 * Twelve 16 MB transcripts deflated two at a time beside 150 ms of work per file on the main thread: 6.8 s ->
 * 5.1 s; a 1 GB CLI export, 48-51 s -> 43-45 s.
 */
export const DEFLATE_CHUNK_MAX_BYTES = 2 * 1024 * 1024; // used in main/bundle/zip-writer.ts

/**
 * An export parses files up to EXPORT_CAPPED_FILE_MAX in a worker whose heap is capped: without a cap V8 lets a
 * parsing worker's heap grow to several times what it holds before it collects (16 transcripts of 16 MB: +325 MB of
 * RSS uncapped, +190 MB capped). A reader needs two to three times a file's size while it parses (a 16 MB
 * transcript fails under 32 MB of old generation and fits in 48). A small young generation is what keeps the peak
 * down; a tighter old generation saves little more and costs CPU in collections (64 MB: +20% CPU for the parse,
 * for 15 MB less). Larger files, and any that still run out, parse in a worker without a cap.
 */
export const EXPORT_CAPPED_FILE_MAX = 32 * 1024 * 1024; // used in main/bundle/worker-loader.ts
export const EXPORT_CAPPED_HEAP_MB = 128; // used in main/bundle/worker-loader.ts
export const EXPORT_CAPPED_YOUNG_MB = 16; // used in main/bundle/worker-loader.ts
