// Every planted secret stays out of every exported byte: JSON escapes, nested JSON, base64 bodies, titles, the manifest, Markdown and HTML.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { writeRedactionCorpus } from '../bench/redaction-corpus.ts';
import { measureRecall } from '../bench/redaction-recall.ts';
import { Redactor } from '../recorder/redact.ts';
import { findReader } from '../sources/registry.ts';
import { samplesDir } from '../test-support/samples.ts';
import { renderDocument } from './export-document.ts';
import { exportBundle } from './export-bundle.ts';
import { prefilterFor } from './secret-prefilter.ts';
import { SecretScanStream, type ScanContext } from './secret-scan.ts';
import { testSession, unzipAll } from './test-zip.ts';

/** Built from pieces so no key-shaped string sits in the repository. */
const KEYS = {
  github: `ghp_${'Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5'}`,
  awsId: `AKIA${'QWERTYUIOPASDFGH'}`,
  google: `AIza${'SyD4-k9Xq2Lm7Np0Rs5Tu8Vw1Yz3Ab6Cd9E'}`,
  slack: `xoxb-${'2401938475-7719203847561-Qw3Er5Ty7Ui9Op1As3Df5Gh7'}`,
  anthropic: `sk-ant-api03-${'x7Yq2Lm9Np4Rs6Tu8Vw1Yz3Ab5Cd7Ef9Gh2Jk4Lm6Np8Qr0St2Uv4Wx6Yz8Ab1Cd3Ef5Gh7Jk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0G'}AA`,
  awsSecretEndingInSlash: `wJalrXUtnFEMI/K7MDENG/bPxRfiCYz${'Q1w2E3r4/'}`,
  openaiEndingInDash: `sk-proj-${'a'.repeat(30)}${'B1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R7s8T9u0V1w2X3'}T3BlbkFJ${'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0F9e8D7c6B5a4Z3y2X1w0V9u8T7s6R5-'}`,
};

function context(keep: string[] = []): ScanContext {
  return { redactor: new Redactor(['secrets', 'env'], {}), literals: new Map(), keep: new Set(keep), prefilter: prefilterFor({}) };
}

async function scan(text: string, clip: 'json' | 'text' | 'html' = 'json', keep: string[] = []) {
  const s = new SecretScanStream(context(keep), { file: 'f.jsonl', clip, emit: true });
  const out: Buffer[] = [];
  for await (const piece of Readable.from([Buffer.from(text)], { objectMode: false }).pipe(s)) out.push(piece as Buffer);
  return { out: Buffer.concat(out).toString('utf8'), findings: s.findings };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('redaction recall', () => {
  it(
    'lets none of a planted corpus out: every secret type, in every place, in every format, through bundle, Markdown and HTML',
    { timeout: 120_000 },
    async () => {
      const base = await mkdtemp(join(tmpdir(), 'sv-recall-'));
      dirs.push(base);
      const { plants, files } = await writeRedactionCorpus(join(base, 'root'), 20261126);
      const result = await measureRecall(files, plants, join(base, 'out.zip'));
      expect(plants.length).toBeGreaterThan(400);
      expect(new Set(plants.map((p) => p.format)).size).toBe(8);
      expect(result.leaked.map((l) => `${l.plant.type} in ${l.plant.place} (${l.plant.format}) -> ${l.where}`)).toEqual([]);
    },
  );

  it('finds a secret glued to a JSON escape (\\n, \\t, \\"), and one inside JSON inside a JSON string', async () => {
    const lines = [
      JSON.stringify({ text: `first line\n${KEYS.github}\nlast` }),
      JSON.stringify({ text: `col\t${KEYS.awsId}` }),
      JSON.stringify({ arguments: JSON.stringify({ command: `echo\n${KEYS.google}` }) }),
    ].join('\n');
    const { out, findings } = await scan(`${lines}\n`);
    for (const key of [KEYS.github, KEYS.awsId, KEYS.google]) expect(out).not.toContain(key);
    expect(findings.map((f) => f.rule).sort()).toEqual(['aws', 'github', 'google-api-key']);
    // Still valid JSON Lines, the escapes around each secret kept.
    expect(
      out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown)[0],
    ).toEqual({ text: 'first line\n[REDACTED:github]\nlast' });
  });

  it('redacts .env assignments and connection-URL passwords, leaving names, placeholders and hosts', async () => {
    const text = [
      'DB_PASSWORD=Tr0ub4dor-and-3',
      'export STRIPE_WEBHOOK_SECRET="whsec_9f8e7d6c5b4a"',
      'API_KEY=${API_KEY}',
      'PASSWORD=changeme',
      'queue: amqp://svc:S3cretRabbit99@mq.internal:5672/vhost',
      'cache: redis://:n0tAPlaceholder@cache:6379',
      'docs: smtp://mailer:<password>@mail.example.com',
    ].join('\n');
    const { out } = await scan(text, 'text');
    expect(out).toContain('DB_PASSWORD=[REDACTED:env-assignment]');
    expect(out).toContain('export STRIPE_WEBHOOK_SECRET="[REDACTED:env-assignment]"');
    expect(out).toContain('API_KEY=${API_KEY}');
    expect(out).toContain('PASSWORD=changeme');
    expect(out).toContain('amqp://svc:[REDACTED:connection-url-password]@mq.internal:5672/vhost');
    expect(out).toContain('redis://:[REDACTED:connection-url-password]@cache:6379');
    expect(out).toContain('smtp://mailer:<password>@mail.example.com');
  });

  it('finds a key glued to a preceding underscore (keys_AKIA…, token_ghp_…, google_AIza…), in JSON and in text', async () => {
    const glued = [`keys_${KEYS.awsId}`, `token_${KEYS.github}`, `google_${KEYS.google}`];
    const json = await scan(`${JSON.stringify({ path: `/srv/${glued[0]}.txt`, env: glued.slice(1).join(' ') })}\n`);
    const text = await scan(`${glued.join('\n')}\n`, 'text');
    for (const { out } of [json, text]) for (const key of [KEYS.awsId, KEYS.github, KEYS.google]) expect(out).not.toContain(key);
    // The word before the key stays; only the key goes.
    expect(text.out).toContain('keys_[REDACTED:aws]');
  });

  it('catches AWS secret keys and OpenAI keys whose last character is not a letter or digit', async () => {
    const { out } = await scan(`aws_secret_access_key = ${KEYS.awsSecretEndingInSlash}\nkey: ${KEYS.openaiEndingInDash}\n`, 'text');
    expect(out).not.toContain(KEYS.awsSecretEndingInSlash);
    expect(out).not.toContain(KEYS.openaiEndingInDash);
  });

  it('decodes a base64 body, finds its secret, and re-encodes the body without it (a kept finding stays)', async () => {
    const http = `HTTP/1.1 200 OK\r\n\r\n${JSON.stringify({ content: `token:\n${KEYS.github}` })}`;
    const line = `${JSON.stringify({ llmResponsePayload: { format: 'http', body: Buffer.from(http).toString('base64') } })}\n`;
    const { out, findings } = await scan(line);
    expect(findings.map((f) => f.rule)).toEqual(['github']);
    expect(findings[0]?.preview).not.toContain(KEYS.github);
    const body = (JSON.parse(out) as { llmResponsePayload: { body: string } }).llmResponsePayload.body;
    const decoded = Buffer.from(body, 'base64').toString('utf8');
    expect(decoded).not.toContain(KEYS.github);
    expect(decoded).toContain('[REDACTED:github]');
    expect(decoded.startsWith('HTTP/1.1 200 OK')).toBe(true);
    const kept = await scan(line, 'json', [findings[0]!.id]);
    expect(kept.out).toBe(line);
  });

  it('redacts the head of a key a text was cut through (`…`), and leaves placeholders and words that merely look alike', async () => {
    const heads = [KEYS.anthropic.slice(0, 30), KEYS.github.slice(0, 12), KEYS.awsId.slice(0, 10), KEYS.google.slice(0, 14), KEYS.slack.slice(0, 15)];
    const text = [...heads.map((h) => `tail of a cut line: ${h}…`), 'export KEY=sk-ant-…', 'prefix AKIA… and ghp_…', 'a task-management-framework-for…'].join(
      '\n',
    );
    const { out, findings } = await scan(`${text}\n`, 'text');
    for (const head of heads) expect(out).not.toContain(head);
    expect(findings.map((f) => f.rule)).toEqual(heads.map(() => 'cut-key'));
    expect(out).toContain('export KEY=sk-ant-…\nprefix AKIA… and ghp_…\na task-management-framework-for…');
  });

  it('never shows a secret in a preview, neighbouring ones included', async () => {
    const { findings } = await scan(`${JSON.stringify({ text: `${KEYS.awsId} and\n${KEYS.github}\t${KEYS.google}` })}\n`);
    expect(findings).toHaveLength(3);
    for (const f of findings) for (const key of [KEYS.awsId, KEYS.github, KEYS.google]) expect(f.preview).not.toContain(key.slice(6));
  });

  it("keeps a key out of a title cut from the format's own facts, not a message (an ai-agent v3 ledger titled by its agent id)", async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-title-extra-'));
    dirs.push(base);
    const agentId = `Set up ${KEYS.anthropic} for the deploy`;
    const session: Session = {
      ...testSession('ai-agent:t-2', join(base, 'none.jsonl')),
      sourceFiles: [],
      messages: [],
      title: `${agentId.slice(0, 79)}…`,
      extra: { agentId },
    };
    const out = join(base, 'b.zip');
    await exportBundle([session.key], async () => session, out, { env: {} });
    const head = KEYS.anthropic.slice(0, 40);
    for (const [name, bytes] of await unzipAll(out)) expect(bytes.toString('utf8'), name).not.toContain(head);
    for (const format of ['md', 'html'] as const) expect((await renderDocument(session, format, { env: {} })).text).not.toContain(head);
  });

  it("keeps the head of a key out when a reader cut the text it sits in (ai-agent's 160-character payload previews)", async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-cut-'));
    dirs.push(base);
    const sample = join(samplesDir, 'ai-agent/sessions/6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47.json.gz');
    const snapshot = JSON.parse(gunzipSync(await readFile(sample)).toString('utf8')) as unknown;
    // Each tool response gets a key that starts before the preview's cut and ends after it.
    const keys = [KEYS.anthropic, KEYS.github, KEYS.google, KEYS.slack];
    let planted = 0;
    const plant = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      const response = (value as { response?: { payload?: unknown } }).response;
      if (response && typeof response.payload === 'string' && planted < keys.length) {
        response.payload = `${'Retention: samples are kept for 15 days by default. '.repeat(3).slice(0, 130)}\n${keys[planted++]} and the rest of the page`;
      }
      for (const v of Object.values(value)) plant(v);
    };
    plant(snapshot);
    expect(planted).toBe(keys.length);
    await mkdir(join(base, 'sessions'));
    const file = join(base, 'sessions', '6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47.json.gz');
    await writeFile(file, gzipSync(JSON.stringify(snapshot)));
    const session = await findReader(file)!.read(file);
    // The reader's session does hold the cut heads (what this test is about), ending in its ellipsis.
    expect(JSON.stringify(session)).toContain(`${KEYS.github.slice(0, 20)}`);
    const out = join(base, 'b.zip');
    await exportBundle([session.key], async () => session, out, { env: {} });
    const outputs = [...(await unzipAll(out))].map(([name, bytes]) => [name, bytes[0] === 0x1f ? gunzipSync(bytes) : bytes] as const);
    for (const format of ['md', 'html'] as const) outputs.push([format, Buffer.from((await renderDocument(session, format, { env: {} })).text)]);
    for (const [name, bytes] of outputs) for (const key of keys) expect(bytes.toString('utf8'), `${name}: ${key.slice(0, 6)}`).not.toContain(key.slice(0, 16));
  });

  it("names every rule the scan used in the manifest's redaction report, the gap rules included", async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-rules-'));
    dirs.push(base);
    const session = { ...testSession('jido-code:r-1', join(base, 'none.json')), sourceFiles: [] };
    const out = join(base, 'b.zip');
    await exportBundle([session.key], async () => session, out, { env: {} });
    const manifest = JSON.parse((await unzipAll(out)).get('manifest.json')!.toString('utf8')) as { redaction: { rules: string[] } };
    expect(manifest.redaction.rules).toEqual([
      'secretlint preset-recommend',
      'private-key',
      'jwt',
      'openai',
      'aws',
      'google-api-key',
      'cut-key',
      'env-assignment',
      'connection-url-password',
      'environment values',
    ]);
  });

  it('keeps a key out of the manifest, session.json, Markdown and HTML when the title holds it, even cut to 80 characters', async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-title-'));
    dirs.push(base);
    const prompt = `Deploy with ${KEYS.anthropic} and ${KEYS.awsId}`;
    const session: Session = {
      ...testSession('jido-code:t-1', join(base, 'none.json')),
      sourceFiles: [],
      title: `${prompt.slice(0, 79)}…`,
      messages: [{ id: 'm1', role: 'user', timestamp: null, parts: [{ type: 'text', text: prompt }] } as Session['messages'][number]],
    };
    const out = join(base, 'b.zip');
    await exportBundle([session.key], async () => session, out, { env: {} });
    const head = KEYS.anthropic.slice(0, 40);
    for (const [name, bytes] of await unzipAll(out)) expect(bytes.toString('utf8'), name).not.toContain(head);
    for (const format of ['md', 'html'] as const) {
      const { text } = await renderDocument({ ...session, title: `Quick note\n${KEYS.github}` }, format, { env: {} });
      expect(text).not.toContain(KEYS.github);
      expect((await renderDocument(session, format, { env: {} })).text).not.toContain(head);
    }
  });
});
