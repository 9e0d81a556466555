// `session-vault record start|append|op|close`: record a session from a shell, one process per step.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openSession, resumeHeader, type OpenSessionOptions } from '../recorder/open-session.ts';
import { epilogueText, outcomeV1 } from '../recorder/outcome-report.ts';
import type { OperationInput, RecordingSession } from '../recorder/recording-session.ts';
import { readRepoFacts } from '../recorder/repo-facts.ts';
import { ChatRole, OperationType, OutcomeStatus, type ConfigValue } from '../recorder/session-schema.ts';
import { defaultSessionsDir } from '../recorder/sessions-dir.ts';
import { StoreError } from '../recorder/store-error.ts';
import { CONFIG_FILE_HELP, parseRedactList, parseSessionLogging, type WriterSettingValues } from '../recorder/writer-config.ts';
import { UsageError } from './usage-error.ts';
import { sanitizeForTerminal, sanitizeLines, terminalJson } from './terminal-text.ts';

export const RECORD_HELP = `Usage: session-vault record <step> [options]

Records an assistant session as <sessions dir>/<id>/session.json (the Vizier session format), one step per
run: every checkpoint is written to session.json.tmp, synced, validated and renamed into place.

Steps:
  start                 start a session and print its id (with --session ID: resume an open one)
  append --session ID   add a chat message: --role user|assistant|system|tool --content TEXT|-
  op --session ID       record an operation: --type proposal|gate_open|gate_accept|gate_reject|
                        apply_diff|revert|test_run|config_change [--detail TEXT|- | --detail-json JSON|-]
  close --session ID    close it for good: --status accepted|rejected|aborted [--summary TEXT|-]
                        [--commit-sha SHA]; a closed session is never written again

Options for every step:
  --session ID          the session to resume (required by append, op and close)
  --dir DIR             sessions folder (default: SESSION_VAULT_SESSIONS_DIR, else <repo>/.vizier/sessions
                        inside a git repository, else the vault: <data dir>/vault/recorded/.vizier/sessions)
  --repo DIR            the working folder whose git root, branch and HEAD are recorded (default: .)
  --mode human|protocol protocol prints exactly one JSON line (outcome.v1, with session.path) and no ANSI
  --config FILE         settings file (default: <sessions dir>/session-logging.conf)
  --session-logging on|off, --no-session-logging
                        off records nothing at all (also SESSION_VAULT_SESSION_LOGGING=off)
  --redact LIST         secrets,env | secrets | env | none (also SESSION_VAULT_REDACT)
  -h, --help            show this help

start:
  --workflow TYPE       workflow_type (default chat)      --session-mode MODE   mode (default: --mode)
  --provider NAME  --model NAME  --temperature N  --thinking-level LEVEL
  --system-prompt FILE  record its path and SHA-256 and keep a redacted copy
  --tool-version V      tool_version (default: this app's version)
  --set KEY=VALUE       a config value (repeatable; JSON values allowed)
  Flags are recorded in config_effective with provenance CLI and cannot change on a resume.
append:  --annotations JSON   --attach FILE (repeatable: a text artifact beside session.json)
op:      --added PATH --modified PATH --deleted PATH --renamed OLD=NEW (repeatable)
         --applied-sha SHA  --restored-sha SHA  --attach FILE

"-" reads the text from standard input (never from a terminal); without "-" stdin is never read.
session_logging applies to each run: off means that run writes nothing. Exit codes: 0 done,
1 refused (closed session, another writer, locked config key, a value the schema rejects), 2 usage.

${CONFIG_FILE_HELP}
`;

const STEPS = ['start', 'append', 'op', 'close'] as const;
type Step = (typeof STEPS)[number];

const text = { type: 'string' } as const;
const list = { type: 'string', multiple: true } as const;
const COMMON = {
  session: text,
  dir: text,
  repo: text,
  mode: text,
  config: text,
  'session-logging': text,
  'no-session-logging': { type: 'boolean' },
  redact: text,
  help: { type: 'boolean', short: 'h' },
} as const;
const OPTIONS = {
  start: {
    ...COMMON,
    workflow: text,
    'session-mode': text,
    provider: text,
    model: text,
    temperature: text,
    'thinking-level': text,
    'system-prompt': text,
    'tool-version': text,
    set: list,
  },
  append: { ...COMMON, role: text, content: text, annotations: text, attach: list },
  op: {
    ...COMMON,
    type: text,
    detail: text,
    'detail-json': text,
    added: list,
    modified: list,
    deleted: list,
    renamed: list,
    'applied-sha': text,
    'restored-sha': text,
    attach: list,
  },
  close: { ...COMMON, status: text, summary: text, 'commit-sha': text },
} as const;

type Values = Record<string, string | string[] | boolean | undefined>;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('"-" reads from standard input, which is a terminal here; pipe the text in or pass it as an argument.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function strs(values: Values, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : [];
}

function required(values: Values, name: string, step: Step): string {
  const v = str(values, name);
  if (v === undefined) throw new UsageError(`record ${step} needs --${name}.`);
  return v;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not "${value}".`);
  return value as T;
}

function parseJson(raw: string, flag: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new UsageError(`--${flag} is not valid JSON: ${(err as Error).message}`);
  }
}

function objectJson(raw: string, flag: string): Record<string, unknown> {
  const v = parseJson(raw, flag);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new UsageError(`--${flag} must be a JSON object.`);
  return v as Record<string, unknown>;
}

function settingFlags(values: Values): WriterSettingValues {
  const out: WriterSettingValues = {};
  const logging = str(values, 'session-logging');
  if (values['no-session-logging'] && logging !== undefined) throw new UsageError('Give either --session-logging or --no-session-logging, not both.');
  if (values['no-session-logging']) out.session_logging = 'off';
  if (logging !== undefined) out.session_logging = parseSessionLogging(logging, '--session-logging');
  const redact = str(values, 'redact');
  if (redact !== undefined) out.redact = parseRedactList(redact, '--redact');
  return out;
}

/** start's flags as config entries with provenance CLI: seed 000's "CLI overrides remain immutable". */
function cliConfig(values: Values): { config: Record<string, ConfigValue>; model: OpenSessionOptions['model'] } {
  const config: Record<string, ConfigValue> = {};
  const model: NonNullable<OpenSessionOptions['model']> = {};
  for (const [flag, field] of [
    ['provider', 'provider'],
    ['model', 'name'],
    ['thinking-level', 'thinking_level'],
  ] as const) {
    const v = str(values, flag);
    if (v !== undefined) {
      model[field] = v;
      config[`model.${field}`] = { value: v, provenance: 'CLI' };
    }
  }
  const temperature = str(values, 'temperature');
  if (temperature !== undefined) {
    const t = Number(temperature);
    if (!Number.isFinite(t) || t < 0 || t > 2) throw new UsageError(`--temperature must be a number from 0 to 2, not "${temperature}".`);
    model.temperature = t;
    config['model.temperature'] = { value: t, provenance: 'CLI' };
  }
  for (const pair of strs(values, 'set')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes KEY=VALUE, not "${pair}".`);
    const key = pair.slice(0, eq).trim();
    if (key === 'session_logging' || key === 'redact') throw new UsageError(`Use --${key === 'redact' ? 'redact' : 'session-logging'} to set ${key}.`);
    const raw = pair.slice(eq + 1);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    config[key] = { value, provenance: 'CLI' };
  }
  return { config, model };
}

/** Fills every "-" value from standard input; only one may ask for it. */
async function fromStdin(values: Values): Promise<void> {
  const dashed = ['content', 'detail', 'detail-json', 'summary'].filter((k) => values[k] === '-');
  if (dashed.length > 1) throw new UsageError(`Only one option can read standard input ("-"), not ${dashed.map((k) => `--${k}`).join(' and ')}.`);
  if (dashed[0]) values[dashed[0]] = await readStdin();
}

/** Reads every --attach file up front, so a bad file fails before the session is touched. */
async function readAttachments(files: string[]): Promise<Array<{ name: string; content: string }>> {
  const out: Array<{ name: string; content: string }> = [];
  for (const file of files) {
    try {
      out.push({ name: file, content: new TextDecoder('utf-8', { fatal: true }).decode(await readFile(resolve(file))) });
    } catch (err) {
      const why = err instanceof TypeError ? 'it is not UTF-8 text (only text artifacts are kept, so they can be redacted)' : (err as Error).message;
      throw new UsageError(`Cannot attach ${file}: ${why}.`);
    }
  }
  return out;
}

async function attachAll(session: RecordingSession, files: Array<{ name: string; content: string }>): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const rel = await session.attach(file.name, file.content);
    if (rel) out.push(rel);
  }
  return out;
}

function renames(values: Values): Array<[string, string]> {
  return strs(values, 'renamed').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw new UsageError(`--renamed takes OLD=NEW, not "${pair}".`);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });
}

type Action = (session: RecordingSession) => Promise<void>;

/** Checks the step's own options and returns what to do once the session is open. */
async function prepare(step: Step, values: Values): Promise<Action> {
  if (step === 'start') return async () => undefined;
  if (step === 'append') {
    const role = oneOf(required(values, 'role', step), ChatRole.options, 'role');
    const content = required(values, 'content', step);
    const annotationsRaw = str(values, 'annotations');
    const annotations = annotationsRaw === undefined ? undefined : objectJson(annotationsRaw, 'annotations');
    const files = await readAttachments(strs(values, 'attach'));
    return async (session) => {
      const attached = await attachAll(session, files);
      const notes = attached.length ? { ...annotations, artifacts: attached } : annotations;
      await session.append(notes === undefined ? { role, content } : { role, content, annotations: notes });
    };
  }
  if (step === 'op') {
    const type = oneOf(required(values, 'type', step), OperationType.options, 'type');
    const detailJson = str(values, 'detail-json');
    if (detailJson !== undefined && str(values, 'detail') !== undefined) throw new UsageError('Give either --detail or --detail-json, not both.');
    const detail = detailJson !== undefined ? objectJson(detailJson, 'detail-json') : (str(values, 'detail') ?? '');
    const vcs: NonNullable<OperationInput['vcs']> = {
      staged: { A: strs(values, 'added'), M: strs(values, 'modified'), D: strs(values, 'deleted'), R: renames(values) },
    };
    const applied = str(values, 'applied-sha');
    const restored = str(values, 'restored-sha');
    if (applied !== undefined) vcs.applied_sha = applied;
    if (restored !== undefined) vcs.restored_sha = restored;
    const files = await readAttachments(strs(values, 'attach'));
    return async (session) => {
      await attachAll(session, files);
      await session.recordOperation({ type, detail, vcs });
    };
  }
  const status = oneOf(
    required(values, 'status', step),
    OutcomeStatus.options.filter((s) => s !== 'open'),
    'status',
  );
  const summary = str(values, 'summary');
  const commit = str(values, 'commit-sha');
  return (session) => session.close({ status, ...(summary !== undefined && { summary }), ...(commit !== undefined && { commit_sha: commit }) });
}

/** Ids, branches, summaries and paths can hold what an agent wrote: printed without escape sequences. */
function humanEpilogue(step: Step, session: RecordingSession, header: string | null): void {
  if (header) process.stdout.write(`${sanitizeForTerminal(header)}\n`);
  if (step === 'start' && !session.resumed) {
    // stdout carries only the id, so `ID=$(session-vault record start)` works.
    process.stdout.write(`${sanitizeForTerminal(session.id)}\n`);
    process.stderr.write(session.path ? `Session file: ${sanitizeForTerminal(session.path)}\n` : sanitizeLines(epilogueText(session)));
    return;
  }
  process.stdout.write(sanitizeLines(epilogueText(session)));
}

export async function runRecord(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [stepArg, ...rest] = argv;
  if (!stepArg || stepArg === '-h' || stepArg === '--help') {
    process.stdout.write(RECORD_HELP);
    return;
  }
  if (!(STEPS as readonly string[]).includes(stepArg)) throw new UsageError(`unknown step "${stepArg}" (expected ${STEPS.join(', ')}).\n\n${RECORD_HELP}`);
  const step = stepArg as Step;
  let values: Values;
  try {
    values = parseArgs({ args: rest, options: OPTIONS[step], strict: true, allowPositionals: false }).values as Values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${RECORD_HELP}`);
  }
  if (values.help) {
    process.stdout.write(RECORD_HELP);
    return;
  }
  const protocol = oneOf(str(values, 'mode') ?? 'human', ['human', 'protocol'], 'mode') === 'protocol';
  const id = str(values, 'session');
  try {
    if (step !== 'start' && id === undefined) throw new UsageError(`record ${step} needs --session ID (the id printed by record start).`);
    await fromStdin(values);
    const action = await prepare(step, values);
    const cwd = resolve(str(values, 'repo') ?? '.');
    const needRepo = step === 'start' || str(values, 'dir') === undefined;
    const repo = needRepo ? await readRepoFacts(cwd) : null;
    const dir = str(values, 'dir');
    const sessionsDir = dir !== undefined ? resolve(dir) : defaultSessionsDir(env, repo?.root ?? null);
    const { config, model } = step === 'start' ? cliConfig(values) : { config: {}, model: undefined };
    const systemPrompt = str(values, 'system-prompt');
    const session = await openSession({
      sessionsDir,
      env,
      cwd,
      config,
      model,
      autoCheckpoint: false,
      ...(id !== undefined && { id }),
      ...(repo && { repo }),
      ...(str(values, 'config') !== undefined && { configFile: resolve(str(values, 'config') as string) }),
      overrides: settingFlags(values),
      workflowType: str(values, 'workflow') ?? 'chat',
      mode: str(values, 'session-mode') ?? (protocol ? 'protocol' : 'human'),
      ...(str(values, 'tool-version') !== undefined && { toolVersion: str(values, 'tool-version') }),
      ...(systemPrompt !== undefined && { systemPrompt: { path: systemPrompt } }),
    });
    const before = session.snapshot();
    const header = step === 'start' && session.resumed && before ? resumeHeader(before) : null;
    try {
      await action(session);
      if (step === 'append' || step === 'op') await session.checkpoint();
      if (step !== 'close') await session.release();
    } catch (err) {
      // Leaves the session open and unlocked for the next step; a closed one stays as it was.
      await session.release().catch(() => undefined);
      throw err;
    }
    if (protocol) process.stdout.write(`${terminalJson(outcomeV1(session, `record ${step}`, header), 0)}\n`);
    else humanEpilogue(step, session, header);
  } catch (err) {
    if (protocol) {
      const code = err instanceof StoreError ? err.reason : err instanceof UsageError ? 'usage' : 'error';
      const message = err instanceof Error ? err.message.split('\n\n')[0] : String(err);
      process.stdout.write(
        `${terminalJson({ type: 'error', schema: 'outcome.v1', command: `record ${step}`, code, message, session: { id: id ?? null } }, 0)}\n`,
      );
    }
    throw err;
  }
}
