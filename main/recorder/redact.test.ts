// Redaction: planted keys, private keys, JWTs and environment values never reach any file the writer writes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession } from './open-session.ts';
import { envSecrets, Redactor } from './redact.ts';
import { PEM_KEY, PLANTED_ENV, PLANTED_TEXT, SECRETS, secretsOnDisk } from '../test-support/planted-secrets.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-redact-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function expectNoSecretOnDisk(root: string): Promise<void> {
  const { files, found } = await secretsOnDisk(root);
  expect(files).toBeGreaterThan(0);
  expect(found).toEqual([]);
}

describe('Redactor', () => {
  it('leaves nothing behind in the process per text scanned (secretlint marks every rule and file with performance.mark by default)', async () => {
    const r = new Redactor(['secrets'], {});
    await r.text('warm up');
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 50; i++) await r.text(`text ${i} with ghp_${'a1B2'.repeat(9)}`);
    // A long-running app or serve scanning for hours kept every mark (a million after a 10,000-session team push).
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });

  it('replaces each planted secret with a marker naming the rule that caught it', async () => {
    const out = await new Redactor(['secrets', 'env'], PLANTED_ENV).text(PLANTED_TEXT);
    for (const secret of Object.values(SECRETS)) expect(out).not.toContain(secret);
    for (const label of ['aws', 'github', 'openai', 'anthropic', 'privatekey', 'jwt', 'ENV:DB_PASSWORD_FOR_TESTS']) {
      expect(out).toContain(`[REDACTED:${label}]`);
    }
    // The words around the secrets survive.
    expect(out).toContain('Here is my AWS key [REDACTED:aws]');
    expect(out).toContain('Authorization: Bearer [REDACTED:jwt]');
  });

  it('catches what the preset misses: a short private key block and a key cut off before its END line', async () => {
    const r = new Redactor(['secrets'], {});
    const short = '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkq\n-----END PRIVATE KEY-----';
    expect(await r.text(`key:\n${short}\nafter`)).toBe('key:\n[REDACTED:private-key]\nafter');
    expect(await r.text(`cut: ${PEM_KEY.slice(0, 80)}`)).toBe('cut: [REDACTED:private-key]');
  });

  it('redacts inside structured values, including secrets that are only recognisable next to their key', async () => {
    const r = new Redactor(['secrets'], {});
    const out = await r.value({ creds: { aws_secret_access_key: SECRETS.awsSecretKey }, tokens: [SECRETS.github], n: 3, ok: true });
    expect(out).toEqual({ creds: { aws_secret_access_key: '[REDACTED:aws]' }, tokens: ['[REDACTED:github]'], n: 3, ok: true });
  });

  it('does nothing when redaction is off', async () => {
    expect(await new Redactor([], PLANTED_ENV).text(PLANTED_TEXT)).toBe(PLANTED_TEXT);
  });
});

describe('envSecrets: which environment values count', () => {
  it('skips short values, numbers, paths, plain words and well-known variables, but never a secret-named one', () => {
    const picked = envSecrets({
      HOME: '/home/dev',
      PATH: '/usr/bin:/bin',
      SHLVL: '1',
      CI: 'true',
      NODE_ENV: 'production',
      PORT: '51234567',
      EDITOR_THEME: 'solarized',
      BUILD_ID: 'ci-2026-02-03-x7',
      GH_TOKEN: 'abcd',
      SHORT_SECRET: 'xyz',
      LANG: 'en_US.UTF-8',
      DATABASE_URL: 'postgres://app:pa55@db/app',
    }).map((e) => e.name);
    expect(picked.sort()).toEqual(['BUILD_ID', 'DATABASE_URL', 'GH_TOKEN']);
  });

  it('skips the variables npm sets for a script (an export under `npm start` kept "session-vault" out of its own manifest), not npm\'s auth token', () => {
    const picked = envSecrets({
      npm_package_name: 'session-vault',
      npm_package_version: '0.1.0-beta',
      npm_config_registry: 'https://registry.example/',
      npm_lifecycle_event: 'start-server',
      npm_config__authToken: 'npm_abcdefghijklmnop',
    }).map((e) => e.name);
    expect(picked).toEqual(['npm_config__authToken']);
  });
});

describe('nothing planted reaches disk', () => {
  it('through every field the library writes: chat, annotations, details, config, summary, artifacts, spilled payloads', async () => {
    const s = await openSession({
      sessionsDir: dir,
      env: PLANTED_ENV,
      repo: { root: null, current_branch: null, head_sha: null },
      config: { 'provider.key': { value: SECRETS.anthropic, provenance: 'CLI' } },
      systemPrompt: { path: 'system.md', text: `You may use ${SECRETS.openai}` },
    });
    await s.append({ role: 'user', content: PLANTED_TEXT });
    await s.append({ role: 'tool', content: `${'log line\n'.repeat(40_000)}${PLANTED_TEXT}` });
    await s.append({ role: 'assistant', content: 'noted', annotations: { env: { AWS_SECRET_ACCESS_KEY: SECRETS.awsSecretKey }, jwt: SECRETS.jwt } });
    await s.recordOperation({ type: 'test_run', detail: PLANTED_TEXT });
    await s.recordOperation({ type: 'proposal', detail: { aws_secret_access_key: SECRETS.awsSecretKey, note: SECRETS.envValue } });
    await s.attach('leak.log', PLANTED_TEXT);
    await s.setConfig('api.token', SECRETS.github);
    await s.close({ status: 'aborted', summary: `stopped; key was ${SECRETS.github}` });

    await expectNoSecretOnDisk(dir);
    const doc = JSON.parse(await readFile(s.path as string, 'utf8'));
    expect(doc.chat[1].annotations.content_artifact).toBe('artifacts/chat-0001.txt');
    expect(await readFile(join(dir, s.id, 'artifacts/chat-0001.txt'), 'utf8')).toContain('[REDACTED:anthropic]');
  });
});
