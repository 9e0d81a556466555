// openSession: start a new session folder or resume an open one, under its lock, with the effective config.
import { mkdir, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { appVersion } from '../env/app-version.ts';
import { acquireLock, type SessionLock } from './lock.ts';
import { DisabledSession, DEFAULT_LIMITS, type RecordingSession, type WriterLimits } from './recording-session.ts';
import { Redactor, redactRulesOf } from './redact.ts';
import { readRepoFacts } from './repo-facts.ts';
import { isClosed, type ConfigValue, type Model, type Repo, type SessionDocument } from './session-schema.ts';
import { checkSessionId, loadSession, sessionPaths } from './session-files.ts';
import { SessionWriter } from './session-writer.ts';
import { StoreError } from './store-error.ts';
import { MonotonicClock } from './timestamps.ts';
import { resolveWriterSettings, type WriterSettingValues } from './writer-config.ts';

export interface OpenSessionOptions {
  /** The folder that holds one sub-folder per session. */
  sessionsDir: string;
  /** Resume this open session; omitted, a new session with a fresh UUID v7 starts. */
  id?: string;
  /** For SESSION_VAULT_* settings and `redact: env`. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Default: `<sessionsDir>/session-logging.conf` when it exists. */
  configFile?: string;
  /** Command-line flags for session_logging / redact (provenance CLI). */
  overrides?: WriterSettingValues;
  /**
   * The tool's own resolved settings, each with its provenance (e.g. `model.name` from a CLI flag).
   * On a resume only these and CLI flags can change the recorded config; CLI-provenance keys are locked.
   */
  config?: Record<string, ConfigValue>;
  // The rest describe a new session and are ignored on a resume (the recorded values stay).
  /** The folder whose git repository is recorded (default: process.cwd()); `repo` skips git entirely. */
  cwd?: string;
  repo?: Repo;
  toolVersion?: string;
  workflowType?: string;
  mode?: string;
  model?: Partial<Model>;
  /** Recorded as path + SHA-256; a redacted copy is kept as an artifact. `text` saves reading the file. */
  systemPrompt?: { path: string; text?: string };
  /** Checkpoint after every append, operation and attachment (default true); otherwise call checkpoint(). */
  autoCheckpoint?: boolean;
  limits?: Partial<WriterLimits>;
  staleLockMs?: number;
  /** Milliseconds since the epoch; tests pin it. */
  now?: () => number;
}

/** `Resumed session <id> (branch: X, outcome: Y)` — seed 000's resume header. */
export function resumeHeader(doc: Pick<SessionDocument, 'id' | 'repo' | 'outcome'>): string {
  return `Resumed session ${doc.id} (branch: ${doc.repo.current_branch ?? 'none'}, outcome: ${doc.outcome.status})`;
}

function closedError(doc: SessionDocument, path: string): StoreError {
  return new StoreError(
    'session_closed',
    `Session ${doc.id} is closed (outcome: ${doc.outcome.status}) and closed sessions are write-once; ${path} was not changed. Start a new session instead.`,
  );
}

async function systemPromptFacts(prompt: { path: string; text?: string }, repoRoot: string | null, cwd: string) {
  const absolute = resolve(cwd, prompt.path);
  let text = prompt.text;
  if (text === undefined) {
    try {
      text = await readFile(absolute, 'utf8');
    } catch (err) {
      throw new StoreError('invalid_input', `Cannot read the system prompt ${absolute}: ${(err as Error).message}`, 'systemPrompt');
    }
  }
  const inRepo = repoRoot !== null && isAbsolute(absolute) && !relative(repoRoot, absolute).startsWith('..');
  return {
    path: inRepo ? relative(repoRoot, absolute) : absolute,
    hash: createHash('sha256').update(text).digest('hex'),
    text,
    ext: extname(absolute) || '.txt',
  };
}

function newDocument(id: string, now: string, options: OpenSessionOptions, repo: Repo, config: Record<string, ConfigValue>): SessionDocument {
  const model: Model = { provider: null, name: null, temperature: null, thinking_level: null, ...options.model };
  return {
    id,
    created_at: now,
    updated_at: now,
    tool_version: options.toolVersion ?? appVersion,
    workflow_type: options.workflowType ?? 'chat',
    mode: options.mode ?? 'human',
    repo,
    config_effective: config,
    system_prompt_path: null,
    system_prompt_hash: null,
    model,
    chat: [],
    operations: [],
    artifacts: [],
    outcome: { status: 'open' },
  };
}

/**
 * Opens a session for recording. With session_logging off it returns a session that writes
 * nothing. A closed id, a locked id or a change to a CLI-locked config key fails with a StoreError.
 */
export async function openSession(options: OpenSessionOptions): Promise<RecordingSession> {
  const env = options.env ?? process.env;
  const settings = await resolveWriterSettings({ sessionsDir: options.sessionsDir, configFile: options.configFile, env, overrides: options.overrides });
  if (options.id !== undefined) checkSessionId(options.id);
  if (!settings.sessionLogging) return new DisabledSession(options.id ?? uuidv7(), options.id !== undefined);

  const clock = new MonotonicClock(options.now);
  const limits: WriterLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const autoCheckpoint = options.autoCheckpoint ?? true;

  if (options.id !== undefined) {
    const id = options.id;
    const paths = sessionPaths(options.sessionsDir, id);
    // Refuse a closed session before touching anything, then re-read under the lock: that copy is authoritative.
    const first = await loadSession(options.sessionsDir, id);
    if (isClosed(first)) throw closedError(first, paths.file);
    const lock = await acquireLock(paths.dir, id, { staleMs: options.staleLockMs });
    try {
      const doc = await loadSession(options.sessionsDir, id);
      if (isClosed(doc)) throw closedError(doc, paths.file);
      const redactor = new Redactor(redactRulesOf(doc.config_effective.redact?.value), env);
      const writer = new SessionWriter({ doc, paths, lock, clock, redactor, env, resumed: true, autoCheckpoint, limits });
      await writer.adoptDisk();
      const explicit = { ...settings.entries, ...options.config };
      if (await writer.applyConfig(explicit, true)) await writer.checkpoint();
      return writer;
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  const id = uuidv7();
  const paths = sessionPaths(options.sessionsDir, id);
  await mkdir(options.sessionsDir, { recursive: true });
  await mkdir(paths.dir);
  let lock: SessionLock | null = null;
  try {
    lock = await acquireLock(paths.dir, id, { staleMs: options.staleLockMs });
    const cwd = options.cwd ?? process.cwd();
    const repo = options.repo ?? (await readRepoFacts(cwd));
    const redactor = new Redactor(settings.redact, env);
    const config: Record<string, ConfigValue> = {};
    for (const [key, entry] of Object.entries({ ...settings.entries, ...options.config })) {
      config[key] = { value: await redactor.value(entry.value), provenance: entry.provenance };
    }
    const doc = newDocument(id, clock.next(), options, repo, config);
    const writer = new SessionWriter({ doc, paths, lock, clock, redactor, env, resumed: false, autoCheckpoint: false, limits });
    if (options.systemPrompt) {
      const prompt = await systemPromptFacts(options.systemPrompt, repo.root, cwd);
      doc.system_prompt_path = prompt.path;
      doc.system_prompt_hash = prompt.hash;
      await writer.attach(`system-prompt${prompt.ext}`, prompt.text);
    }
    await writer.checkpoint();
    writer.setAutoCheckpoint(autoCheckpoint);
    return writer;
  } catch (err) {
    await lock?.release();
    throw err;
  }
}
