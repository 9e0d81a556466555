// The writer's settings: the config file format, and default < file < environment < flag, each with its provenance.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_FILE_NAME, parseConfigText, resolveWriterSettings } from './writer-config.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-config-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('parseConfigText', () => {
  it("reads the seed's own syntax, with comments and blank lines", () => {
    expect(parseConfigText('# vault\nsession_logging: off\n\nredact: [secrets, env]  # both\n', 'c')).toEqual({
      session_logging: 'off',
      redact: ['secrets', 'env'],
    });
    expect(parseConfigText('redact: []\n', 'c')).toEqual({ redact: [] });
    expect(parseConfigText('redact = none\nsession_logging = yes\n', 'c')).toEqual({ redact: [], session_logging: 'on' });
  });

  it('rejects typos with the file and line, so a misspelt key never silently keeps secrets', () => {
    expect(() => parseConfigText('session_logging: on\nredcat: [secrets]\n', '/x/session-logging.conf')).toThrow(
      '/x/session-logging.conf:2: unknown setting "redcat" (known: session_logging, redact).',
    );
    expect(() => parseConfigText('redact: [secrets, passwords]', 'c')).toThrow('c:1: redact accepts secrets, env or none, not "passwords".');
    expect(() => parseConfigText('session_logging: maybe', 'c')).toThrow('session_logging must be on or off');
    expect(() => parseConfigText('just words', 'c')).toThrow('c:1: expected "key: value"');
  });
});

describe('resolveWriterSettings', () => {
  it('defaults to logging on with both redactions', async () => {
    const s = await resolveWriterSettings({ sessionsDir: dir, env: {} });
    expect(s).toEqual({
      sessionLogging: true,
      redact: ['secrets', 'env'],
      entries: { session_logging: { value: 'on', provenance: 'default' }, redact: { value: ['secrets', 'env'], provenance: 'default' } },
    });
  });

  it("layers the sessions folder's config file, then the environment, then flags (provenance CLI)", async () => {
    await writeFile(join(dir, CONFIG_FILE_NAME), 'session_logging: off\nredact: [env]\n');
    const fromFile = await resolveWriterSettings({ sessionsDir: dir, env: {} });
    expect(fromFile.sessionLogging).toBe(false);
    expect(fromFile.entries.redact).toEqual({ value: ['env'], provenance: 'profile' });

    const fromEnv = await resolveWriterSettings({ sessionsDir: dir, env: { SESSION_VAULT_SESSION_LOGGING: 'on', SESSION_VAULT_REDACT: 'secrets' } });
    expect(fromEnv.sessionLogging).toBe(true);
    expect(fromEnv.redact).toEqual(['secrets']);

    const fromFlags = await resolveWriterSettings({
      sessionsDir: dir,
      env: { SESSION_VAULT_SESSION_LOGGING: 'on' },
      overrides: { session_logging: 'off', redact: [] },
    });
    expect(fromFlags.entries).toEqual({ session_logging: { value: 'off', provenance: 'CLI' }, redact: { value: [], provenance: 'CLI' } });
  });

  it('requires a config file that was named explicitly, by option or SESSION_VAULT_WRITER_CONFIG', async () => {
    const missing = join(dir, 'nope.conf');
    await expect(resolveWriterSettings({ sessionsDir: dir, env: {}, configFile: missing })).rejects.toThrow(`Cannot read the config file ${missing}`);
    await writeFile(join(dir, 'team.conf'), 'redact: [secrets]\n');
    const s = await resolveWriterSettings({ sessionsDir: join(dir, 'elsewhere'), env: { SESSION_VAULT_WRITER_CONFIG: join(dir, 'team.conf') } });
    expect(s.redact).toEqual(['secrets']);
  });
});
