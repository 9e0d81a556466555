// Schema 8's usage tables: each call's first and last time per hour, tools, turns and rate limits, and the parent lookup sub-agent totals use.

/** The eight sums every usage table keeps per row, in their stored column order (the writer's and the readers' SQL lists them so). */
export const USAGE_SUMS = ['input', 'output', 'cache_read', 'cache_write', 'reasoning', 'cost', 'unpriced', 'calls'] as const;

/**
 * Added to version 7's `usage` table and beside it (schema.ts runs this after creating it, and to migrate 7 -> 8):
 * - `first_ms`/`last_ms`: the hour's first and last call, so 5-hour blocks start, end and burn as ccusage's do;
 * - per file: `usage_tools` (calls and failures per tool), `usage_sessions` (its source, project, turns, length
 *   bucket, whether it is a top-level session and has usage), `usage_limits` (the latest rate-limit state it recorded);
 * - totals over every file, kept by the writer as files come and go (usage-write.ts), so the dashboard with no filter
 *   or only `source:` reads a few thousand rows instead of every file's (100,000 sessions: 2.2 million usage rows):
 *   `usage_hours` per hour, model and source; `usage_days` the same per day in the writer's time zone (the
 *   machine's: a dashboard in it reads a row per day, not 24); `usage_models` per model and source; `usage_projects` per project and source; `usage_tool_totals`;
 *   `usage_session_totals` per source, top-level or not, length and turns bucket;
 * - `files_parent`: sub-agents by parent, for the totals that include them (the `tokens>` and `cost>` filters).
 */
export const USAGE_V8 = `
ALTER TABLE usage ADD COLUMN first_ms INTEGER;
ALTER TABLE usage ADD COLUMN last_ms INTEGER;
CREATE TABLE usage_tools (file_id INTEGER NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL, failures INTEGER NOT NULL);
CREATE INDEX usage_tools_file ON usage_tools(file_id);
CREATE TABLE usage_sessions (
  file_id INTEGER PRIMARY KEY,
  format TEXT NOT NULL,
  zone TEXT NOT NULL,
  project TEXT NOT NULL,
  turns INTEGER NOT NULL,
  length_bucket INTEGER NOT NULL,
  top_level INTEGER NOT NULL,
  with_usage INTEGER NOT NULL
);
CREATE TABLE usage_limits (
  file_id INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  limit_id TEXT,
  plan TEXT,
  window_name TEXT NOT NULL,
  window_minutes REAL,
  used_percent REAL NOT NULL,
  resets_at_ms INTEGER
);
CREATE INDEX usage_limits_file ON usage_limits(file_id);
CREATE INDEX usage_limits_at ON usage_limits(at_ms);
CREATE TABLE usage_hours (
  hour_ms INTEGER NOT NULL, model TEXT NOT NULL, format TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (hour_ms, model, format)
) WITHOUT ROWID;
CREATE TABLE usage_days (
  zone TEXT NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL, format TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (zone, day, model, format)
) WITHOUT ROWID;
CREATE TABLE usage_models (
  model TEXT NOT NULL, format TEXT NOT NULL, tokens REAL NOT NULL, cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (model, format)
) WITHOUT ROWID;
CREATE TABLE usage_projects (
  project TEXT NOT NULL, format TEXT NOT NULL, tokens REAL NOT NULL, cost REAL NOT NULL, with_usage INTEGER NOT NULL,
  PRIMARY KEY (project, format)
) WITHOUT ROWID;
CREATE TABLE usage_tool_totals (format TEXT NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL, failures INTEGER NOT NULL, PRIMARY KEY (format, name)) WITHOUT ROWID;
CREATE TABLE usage_session_totals (
  format TEXT NOT NULL, top_level INTEGER NOT NULL, length_bucket INTEGER NOT NULL, turn_bucket INTEGER NOT NULL,
  sessions INTEGER NOT NULL, with_usage INTEGER NOT NULL,
  PRIMARY KEY (format, top_level, length_bucket, turn_bucket)
) WITHOUT ROWID;
CREATE INDEX files_parent ON files(parent_key) WHERE parent_key IS NOT NULL;`;

/** Takes out what USAGE_V8 added (for tests that make an older index). */
export const DROP_USAGE_V8 = `DROP TABLE usage_tools; DROP TABLE usage_sessions; DROP TABLE usage_limits; DROP TABLE usage_hours; DROP TABLE usage_days; DROP TABLE usage_models; DROP TABLE usage_projects;
DROP TABLE usage_tool_totals; DROP TABLE usage_session_totals; DROP INDEX files_parent; ALTER TABLE usage DROP COLUMN first_ms; ALTER TABLE usage DROP COLUMN last_ms;`;

/**
 * Schema 10: each file's usage per local day (in its zone, usage_sessions.zone) and model, with that day's hours as
 * JSON (`[[local hour, calls, tokens], ...]`, what the heatmap draws), and each file's
 * tool calls as JSON in usage_sessions (`[[name, calls, failures], ...]`). A dashboard query that narrows the files
 * reads a few of these rows per file, next to each other (usage-file-days.ts), where the hourly rows were ~20 per file
 * in as many places: 100,000 sessions, `after:30d` 3.1 s -> well under 150 ms.
 */
export const CREATE_FILE_DAYS = `CREATE TABLE IF NOT EXISTS usage_file_days (
  file_id INTEGER NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL, hours TEXT NOT NULL,
  PRIMARY KEY (file_id, day, model)
) WITHOUT ROWID;`;
/** Schema 10: the totals per local day, project (its name) and source, so days stacked by project need no file's rows either. */
export const CREATE_PROJECT_DAYS = `CREATE TABLE IF NOT EXISTS usage_project_days (
  zone TEXT NOT NULL, day TEXT NOT NULL, project TEXT NOT NULL, format TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (zone, day, project, format)
) WITHOUT ROWID;`;
export const USAGE_V10 = `${CREATE_FILE_DAYS}
${CREATE_PROJECT_DAYS}
ALTER TABLE usage_sessions ADD COLUMN tools TEXT;`;

/**
 * Schema 11: a narrow copy of usage_sessions (an index: SQLite keeps it), in file order, with what the dashboard's
 * scans of every file read (its source, project, turns, length bucket and whether it is top-level) and without the
 * tools JSON that makes the table's rows wide: the totals-less-the-others path walks every file's row (100,000
 * sessions: 117,937 rows) to find the others.
 */
export const CREATE_NARROW_SESSIONS = `CREATE INDEX IF NOT EXISTS usage_sessions_narrow ON usage_sessions(file_id, top_level, length_bucket, turns, format, project);`;

/**
 * Schema 13: the day rows by day (each row's day and file), so a dashboard query with dates finds the files with usage
 * on those days without reading every file's rows: the files it does not count among them are the few whose figures
 * are taken off the writer's totals for the days (usage-dated-totals.ts).
 */
export const CREATE_FILE_DAYS_BY_DAY = `CREATE INDEX IF NOT EXISTS usage_file_days_day ON usage_file_days(day, file_id);`;

/**
 * Schema 14: each file's dashboard facts (its source, project, buckets, tools and day rows) packed into one compact
 * value (usage-file-pack.ts), written with its session row, so the totals-less-the-others path reads one value per
 * other file instead of its day rows and then its session row (100,000 sessions, a word in 89%: the others' 11,152
 * files, 29,561 day rows).
 */
export const CREATE_FILE_PACKS = `CREATE TABLE IF NOT EXISTS usage_file_packs (file_id INTEGER PRIMARY KEY, pack BLOB NOT NULL);`;

/**
 * Schema 15: the totals per local day and project (its name) over every source, so days stacked by project with no
 * `source:` read one row per day and project instead of grouping usage_project_days' row per source (100,000
 * sessions: 36,351 rows grouped into 14,634); usage_project_days stays for `source:` queries.
 */
export const CREATE_PROJECT_DAY_TOTALS = `CREATE TABLE IF NOT EXISTS usage_project_day_totals (
  zone TEXT NOT NULL, day TEXT NOT NULL, project TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (zone, day, project)
) WITHOUT ROWID;`;
/** Schema 14 -> 15: CREATE_PROJECT_DAY_TOTALS filled from the totals per source already stored. */
export const ADD_PROJECT_DAY_TOTALS = `${CREATE_PROJECT_DAY_TOTALS}
DELETE FROM usage_project_day_totals;
INSERT INTO usage_project_day_totals (zone, day, project, input, output, cache_read, cache_write, reasoning, cost, unpriced, calls)
  SELECT zone, day, project, sum(input), sum(output), sum(cache_read), sum(cache_write), sum(reasoning), sum(cost), sum(unpriced), sum(calls)
  FROM usage_project_days GROUP BY zone, day, project;`;
