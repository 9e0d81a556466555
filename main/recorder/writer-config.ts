// The writer's two settings (session_logging, redact) from defaults, a config file, the environment and flags.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REDACT_RULES, type RedactRule } from './redact.ts';
import type { ConfigValue } from './session-schema.ts';
import { StoreError } from './store-error.ts';

/** Read from the sessions folder unless `--config` / SESSION_VAULT_WRITER_CONFIG names another file. */
export const CONFIG_FILE_NAME = 'session-logging.conf';

export const CONFIG_FILE_HELP = `The config file holds "key: value" lines; # starts a comment:
  session_logging: on            # on | off (default on)
  redact: [secrets, env]         # any of secrets, env; [] or none for no redaction (default both)`;

export interface WriterSettingValues {
  session_logging?: 'on' | 'off';
  redact?: RedactRule[];
}

export interface WriterSettings {
  sessionLogging: boolean;
  redact: RedactRule[];
  /** config_effective entries for both settings, with where each value came from. */
  entries: Record<string, ConfigValue>;
}

export function parseSessionLogging(text: string, where: string): 'on' | 'off' {
  const v = text.trim().toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(v)) return 'on';
  if (['off', 'false', 'no', '0'].includes(v)) return 'off';
  throw new StoreError('invalid_input', `${where}: session_logging must be on or off, not ${JSON.stringify(text.trim())}.`, 'session_logging');
}

/** `[secrets, env]`, `secrets,env`, `secrets env`, `[]` or `none`. */
export function parseRedactList(text: string, where: string): RedactRule[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  if (inner === '' || inner.toLowerCase() === 'none') return [];
  const out: RedactRule[] = [];
  for (const raw of inner.split(/[\s,]+/)) {
    const item = raw.replace(/^["']|["']$/g, '').toLowerCase();
    if (!item) continue;
    if (!(REDACT_RULES as readonly string[]).includes(item)) {
      throw new StoreError('invalid_input', `${where}: redact accepts ${REDACT_RULES.join(', ')} or none, not ${JSON.stringify(raw)}.`, 'redact');
    }
    if (!out.includes(item as RedactRule)) out.push(item as RedactRule);
  }
  return out;
}

/** Parses the config file's text; unknown keys are errors so a typo never silently logs secrets. */
export function parseConfigText(text: string, file: string): WriterSettingValues {
  const values: WriterSettingValues = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const body = line
      .replace(/\s+#.*$/, '')
      .replace(/^#.*$/, '')
      .trim();
    if (!body) return;
    const where = `${file}:${i + 1}`;
    const m = /^([A-Za-z_][\w.-]*)\s*[:=]\s*(.*)$/.exec(body);
    if (!m) throw new StoreError('invalid_input', `${where}: expected "key: value", found ${JSON.stringify(body)}.`);
    const [, key, value = ''] = m;
    if (key === 'session_logging') values.session_logging = parseSessionLogging(value, where);
    else if (key === 'redact') values.redact = parseRedactList(value, where);
    else throw new StoreError('invalid_input', `${where}: unknown setting ${JSON.stringify(key)} (known: session_logging, redact).`);
  });
  return values;
}

export interface ResolveOptions {
  sessionsDir: string;
  /** An explicit config file; it must exist. Default: `<sessionsDir>/session-logging.conf` when present. */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line flags: they win and are recorded with provenance CLI. */
  overrides?: WriterSettingValues;
}

async function readConfigFile(path: string, required: boolean): Promise<WriterSettingValues> {
  try {
    return parseConfigText(await readFile(path, 'utf8'), path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !required) return {};
    if (err instanceof StoreError) throw err;
    throw new StoreError('invalid_input', `Cannot read the config file ${path}: ${(err as Error).message}`);
  }
}

/** Precedence: default < config file < SESSION_VAULT_SESSION_LOGGING / SESSION_VAULT_REDACT < flags. */
export async function resolveWriterSettings(options: ResolveOptions): Promise<WriterSettings> {
  const env = options.env ?? process.env;
  const explicitFile = options.configFile ?? env.SESSION_VAULT_WRITER_CONFIG?.trim() ?? null;
  const file = await readConfigFile(explicitFile || join(options.sessionsDir, CONFIG_FILE_NAME), Boolean(explicitFile));

  const entries: Record<string, ConfigValue> = {
    session_logging: { value: 'on', provenance: 'default' },
    redact: { value: [...REDACT_RULES], provenance: 'default' },
  };
  // The config file and the environment are the user's standing profile; flags are this command line.
  if (file.session_logging) entries.session_logging = { value: file.session_logging, provenance: 'profile' };
  if (file.redact) entries.redact = { value: file.redact, provenance: 'profile' };
  const envLogging = env.SESSION_VAULT_SESSION_LOGGING?.trim();
  if (envLogging) entries.session_logging = { value: parseSessionLogging(envLogging, 'SESSION_VAULT_SESSION_LOGGING'), provenance: 'profile' };
  const envRedact = env.SESSION_VAULT_REDACT;
  if (envRedact !== undefined) entries.redact = { value: parseRedactList(envRedact, 'SESSION_VAULT_REDACT'), provenance: 'profile' };
  const flags = options.overrides ?? {};
  if (flags.session_logging) entries.session_logging = { value: flags.session_logging, provenance: 'CLI' };
  if (flags.redact) entries.redact = { value: flags.redact, provenance: 'CLI' };

  return {
    sessionLogging: entries.session_logging?.value === 'on',
    redact: entries.redact?.value as RedactRule[],
    entries,
  };
}
