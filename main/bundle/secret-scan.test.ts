// The streaming scanner: every planted secret found and redacted, whatever the window cuts, and JSON stays valid.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { Redactor } from '../recorder/redact.ts';
import { PEM_KEY, PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { PRESET_RULES, prefilterFor } from './secret-prefilter.ts';
import { SecretScanStream, type ScanContext, type ScanOptions } from './secret-scan.ts';
import { clipToJsonString } from './span-clipping.ts';

function context(keep: string[] = [], prefilter = true): ScanContext {
  return {
    redactor: new Redactor(['secrets', 'env'], PLANTED_ENV),
    literals: new Map(),
    keep: new Set(keep),
    ...(prefilter ? { prefilter: prefilterFor(PLANTED_ENV) } : {}),
  };
}

async function run(input: Buffer, options: Partial<ScanOptions> & { file?: string } = {}, ctx = context(), chunk = 997) {
  const scan = new SecretScanStream(ctx, { file: 'f.txt', clip: 'text', emit: true, ...options });
  const parts: Buffer[] = [];
  for (let i = 0; i < input.length || i === 0; i += chunk) parts.push(input.subarray(i, i + chunk));
  const out: Buffer[] = [];
  for await (const piece of Readable.from(parts, { objectMode: false }).pipe(scan)) out.push(piece as Buffer);
  return { out: Buffer.concat(out), findings: scan.findings };
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}: nothing to see here, just ordinary build output ✓`).join('\n');

describe('SecretScanStream', () => {
  it('finds and redacts every planted secret once, naming rule, line and a masked preview', async () => {
    const text = `${filler(3)}\n${PLANTED_TEXT}\n${filler(2)}`;
    const { out, findings } = await run(Buffer.from(text));
    const written = out.toString('utf8');
    for (const secret of Object.values(SECRETS)) expect(written).not.toContain(secret);
    expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(['aws', 'github', 'openai', 'anthropic', 'private-key', 'jwt', 'ENV:DB_PASSWORD_FOR_TESTS']));
    const github = findings.filter((f) => f.rule === 'github');
    expect(github.map((f) => f.line)).toEqual([6, 17]);
    expect(github[0]?.preview).toBe('export GITHUB_TOKEN=ghp_************');
    for (const f of findings) for (const secret of Object.values(SECRETS)) expect(f.preview).not.toContain(secret);
    expect(written).toContain('export GITHUB_TOKEN=[REDACTED:github]');
    expect(written.startsWith(filler(3))).toBe(true);
    expect(written.endsWith(filler(2))).toBe(true);
  });

  it('gives the same findings and output however the file is cut into windows and chunks', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `${filler(i * 7)}\n${PLANTED_TEXT}`).join('\n');
    const whole = await run(Buffer.from(text), { window: 8 * 1024 * 1024, overlap: 4096, context: 256 });
    for (const [window, chunk] of [
      [9000, 1],
      [12_000, 4096],
      [20_000, 333],
    ] as const) {
      const cut = await run(Buffer.from(text), { window, overlap: 4096, context: 256 }, context(), chunk);
      expect(cut.out.toString()).toBe(whole.out.toString());
      expect(cut.findings.map((f) => [f.id, f.line, f.rule])).toEqual(whole.findings.map((f) => [f.id, f.line, f.rule]));
    }
    expect(whole.findings.length).toBeGreaterThan(12 * 8);
  });

  it('keeps JSON Lines valid: a redaction never crosses a string quote, and escaped keys are caught', async () => {
    const lines = [
      { type: 'user', text: PLANTED_TEXT },
      { type: 'tool', output: `export AWS_SECRET_ACCESS_KEY="${SECRETS.awsSecretKey}"\n${PEM_KEY.slice(0, 90)}` },
      { type: 'assistant', env: { DB_PASSWORD_FOR_TESTS: SECRETS.envValue }, note: 'quote " and \\ stay' },
    ];
    const jsonl = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const { out, findings } = await run(Buffer.from(jsonl), { clip: 'json', file: 'a.jsonl' });
    const back = out
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(back).toHaveLength(3);
    for (const secret of Object.values(SECRETS)) expect(out.toString()).not.toContain(secret);
    expect(back[2]).toMatchObject({ type: 'assistant', env: { DB_PASSWORD_FOR_TESTS: '[REDACTED:ENV:DB_PASSWORD_FOR_TESTS]' }, note: 'quote " and \\ stay' });
    expect(String(back[1]?.output)).toContain('[REDACTED:private-key]');
    expect(findings.every((f) => f.file === 'a.jsonl')).toBe(true);
  });

  it('leaves a finding the user kept, and reports it as not redacted', async () => {
    const text = `token ${SECRETS.github}\nother ${SECRETS.anthropic}\n`;
    const first = await run(Buffer.from(text));
    const github = first.findings.find((f) => f.rule === 'github');
    const second = await run(Buffer.from(text), {}, context([github!.id]));
    expect(second.out.toString()).toContain(`token ${SECRETS.github}`);
    expect(second.out.toString()).not.toContain(SECRETS.anthropic);
    expect(second.findings.find((f) => f.id === github!.id)?.redacted).toBe(false);
  });

  it('masks a secret in a binary file with as many bytes, so the file keeps its structure', async () => {
    const bin = Buffer.concat([Buffer.from([0, 1, 2, 3, 0]), Buffer.from(`key=${SECRETS.github};`), Buffer.alloc(50, 0)]);
    const { out, findings } = await run(bin);
    expect(out.length).toBe(bin.length);
    expect(out.toString('latin1')).toContain(`key=${'*'.repeat(SECRETS.github.length)};`);
    expect(findings.map((f) => f.rule)).toEqual(['github']);
  });

  it('passes bytes through unchanged when nothing is found, invalid UTF-8 included', async () => {
    const odd = Buffer.concat([Buffer.from('héllo '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' wörld\n')]);
    const { out, findings } = await run(odd);
    expect(out).toEqual(odd);
    expect(findings).toEqual([]);
  });

  it('a secret seen once is redacted wherever it appears after, even without the words that gave it away', async () => {
    const ctx = context();
    await run(Buffer.from(`aws_secret_access_key = ${SECRETS.awsSecretKey}\n`), {}, ctx);
    const later = await run(Buffer.from(`bare: ${SECRETS.awsSecretKey}\n`), { file: 'later.txt' }, ctx);
    expect(later.out.toString()).toBe('bare: [REDACTED:aws]\n');
  });

  it('scans a whole buffer (scanWhole, as session.json is scanned) with the findings and output of streaming it', async () => {
    const jsonl = `${[PLANTED_TEXT, filler(40), `key=${SECRETS.github}`].map((output, i) => JSON.stringify({ i, output })).join('\n')}\n`;
    const binary = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(`key=${SECRETS.github};`), Buffer.alloc(20, 0)]);
    for (const [input, clip, window] of [
      [Buffer.from(`${filler(30)}\n${PLANTED_TEXT}\n${filler(900)}`), 'text', 9000],
      [Buffer.from(jsonl), 'json', 1 << 20],
      [binary, 'text', 1 << 20],
      [Buffer.alloc(0), 'json', 1 << 20],
    ] as const) {
      const options = { clip, window, overlap: 2048, context: 256, file: 'whole.txt' };
      const streamed = await run(input, options, context(), 1 << 20);
      const scan = new SecretScanStream(context(), { emit: true, ...options });
      const pieces: Buffer[] = [];
      await scan.scanWhole(input, (piece) => pieces.push(piece));
      expect(Buffer.concat(pieces).equals(streamed.out), clip).toBe(true);
      expect(scan.findings).toEqual(streamed.findings);
    }
  });
});

describe('the line prefilter', () => {
  const PEM_FREE = PLANTED_TEXT.split('\n')
    .filter((l) => !/PRIVATE KEY|^[A-Za-z0-9]{64}$|^MII/.test(l))
    .join('\n');

  it('finds exactly what the full rule set finds, in text and in JSON Lines, with the secrets far apart in big windows', async () => {
    const text = Array.from({ length: 6 }, (_, i) => `${filler(900 + i * 37)}\n${PEM_FREE}`).join('\n');
    const jsonl = `${text
      .split('\n')
      .map((line, i) => JSON.stringify({ type: 'tool', i, output: line }))
      .join('\n')}\n`;
    for (const [input, clip] of [
      [text, 'text'],
      [jsonl, 'json'],
    ] as const) {
      const options = { clip, window: 256 * 1024, overlap: 8 * 1024, context: 1024 };
      const full = await run(Buffer.from(input), options, context([], false), 65_536);
      const filtered = await run(Buffer.from(input), options, context(), 65_536);
      expect(filtered.out.toString()).toBe(full.out.toString());
      expect(filtered.findings).toEqual(full.findings);
      for (const secret of Object.values(SECRETS)) if (PEM_FREE.includes(secret)) expect(filtered.out.toString()).not.toContain(secret);
      expect(new Set(filtered.findings.map((f) => f.rule))).toEqual(new Set(['aws', 'github', 'openai', 'anthropic', 'jwt', 'ENV:DB_PASSWORD_FOR_TESTS']));
    }
  });

  it('finds environment values (ASCII or not) in big windows that are not UTF-8, as the full rule set does', async () => {
    const env = { DB_PASSWORD_FOR_TESTS: SECRETS.envValue, PASSPHRASE_FOR_TESTS: 'pässwörd-Ünïcode-42' };
    const ctx = (prefilter: boolean): ScanContext => ({
      redactor: new Redactor(['secrets', 'env'], env),
      literals: new Map(),
      keep: new Set(),
      ...(prefilter ? { prefilter: prefilterFor(env) } : {}),
    });
    const body = (latin1: boolean) =>
      Buffer.concat([
        Buffer.from(filler(3000)),
        Buffer.from(`\nx=${SECRETS.envValue}\n`),
        Buffer.from('\nlatin1 bytes: '),
        Buffer.from([0xe9, 0xff, 0x80, 0x0a]), // not UTF-8 when latin1 is asked for
        Buffer.from(`pass=${env.PASSPHRASE_FOR_TESTS}\n`, latin1 ? 'latin1' : 'utf8'),
        Buffer.from(filler(3000)),
      ]);
    for (const latin1 of [true, false]) {
      const input = latin1
        ? body(true)
        : Buffer.from(
            body(false)
              .toString('utf8')
              .replace(/\uFFFD/g, '?'),
          );
      const options = { window: 256 * 1024, overlap: 8 * 1024, context: 1024 };
      const full = await run(input, options, ctx(false), 65_536);
      const filtered = await run(input, options, ctx(true), 65_536);
      expect(filtered.findings).toEqual(full.findings);
      expect(filtered.out.equals(full.out)).toBe(true);
      expect(filtered.findings.map((f) => f.rule).sort(), `latin1 ${latin1}`).toEqual(['ENV:DB_PASSWORD_FOR_TESTS', 'ENV:PASSPHRASE_FOR_TESTS']);
    }
  });

  it("filters small windows too: the full rule set's findings, and a window with no candidate line never reaches the rules", async () => {
    const small = [
      PLANTED_TEXT,
      PEM_FREE,
      `${filler(20)}\nexport GITHUB_TOKEN=${SECRETS.github}\n${filler(20)}`,
      `url: postgres://app:${SECRETS.envValue}@db:5432/x`,
    ];
    for (const text of small) {
      const jsonl = `${text
        .split('\n')
        .map((line, i) => JSON.stringify({ i, output: line }))
        .join('\n')}\n`;
      for (const [input, clip] of [
        [text, 'text'],
        [jsonl, 'json'],
      ] as const) {
        const full = await run(Buffer.from(input), { clip }, context([], false));
        const filtered = await run(Buffer.from(input), { clip }, context());
        expect(filtered.out.toString()).toBe(full.out.toString());
        expect(filtered.findings).toEqual(full.findings);
        expect(filtered.findings.length).toBeGreaterThan(0);
      }
    }
    // Words that hold a rule's first letters (shopify's 'shp' in 'pushpin', 'cashpoint') but no anchor whole: nothing for the rule set to read.
    const ctx = context();
    let ruled = 0;
    const findSpans = ctx.redactor.findSpans.bind(ctx.redactor);
    ctx.redactor.findSpans = (...args) => {
      ruled++;
      return findSpans(...args);
    };
    const clean = await run(Buffer.from(`${filler(50)}\nthe pushpin on the cashpoint map\n`), {}, ctx);
    expect(clean.findings).toEqual([]);
    expect(ruled).toBe(0);
  });

  it('still sends a private key block (which spans lines) through whole', async () => {
    const text = `${filler(2000)}\n${PLANTED_TEXT}\n${filler(2000)}`;
    const { out, findings } = await run(Buffer.from(text), { window: 512 * 1024, overlap: 8 * 1024, context: 1024 });
    expect(out.toString()).not.toContain(SECRETS.pemBody);
    expect(findings.some((f) => f.rule === 'private-key')).toBe(true);
  });

  it("was written against every rule in secretlint's recommended preset (a new rule needs its anchor added)", async () => {
    const preset = await import('@secretlint/secretlint-rule-preset-recommend');
    const ids = (preset.rules as unknown as Array<{ meta: { id: string } }>).map((r) => r.meta.id.replace('@secretlint/secretlint-rule-', ''));
    expect(ids.sort()).toEqual([...PRESET_RULES].sort());
  });
});

describe('a PEM block whose lines are separate JSON strings (a store rows document: one row per line)', () => {
  const rows = (pem: string, after = 'and the deploy went on') =>
    `${JSON.stringify({ rows: { lines: Object.fromEntries([...pem.split('\n'), after].map((text, i) => [String(i + 1), { line: i + 1, text }])) } }, null, 2)}\n`;

  it('redacts every line of the key, keeps the keys and the JSON around them, and reports it once', async () => {
    const doc = rows(PEM_KEY);
    const { out, findings } = await run(Buffer.from(doc), { clip: 'json', file: 'x.session-rows.json' });
    const written = out.toString('utf8');
    for (const line of PEM_KEY.split('\n').slice(1, -1)) expect(written).not.toContain(line);
    expect(findings.map((f) => f.rule)).toEqual(['private-key']);
    const parsed = JSON.parse(written) as { rows: { lines: Record<string, { line: number; text: string }> } };
    expect(Object.values(parsed.rows.lines).map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parsed.rows.lines['6']?.text).toBe('and the deploy went on');
    // Kept as a false positive, the whole block stays as it was.
    const kept = await run(Buffer.from(doc), { clip: 'json', file: 'x.session-rows.json' }, context([findings[0]!.id]));
    expect(kept.out.toString('utf8')).toBe(doc);
  });

  it('gives the same output however the windows cut the key, its first line settled well before the others', async () => {
    const prose = Array.from({ length: 30 }, (_, i) => `row ${i}: the build went on as before`).join('\n');
    const doc = Buffer.from(rows(`${prose}\n${PEM_KEY}`));
    const whole = await run(doc, { clip: 'json', window: 1024 * 1024, overlap: 1024, context: 64 });
    for (const line of PEM_KEY.split('\n').slice(1, -1)) expect(whole.out.toString('utf8')).not.toContain(line);
    for (const window of [1200, 1500, 1800, 2500, 3100]) {
      const cut = await run(doc, { clip: 'json', window, overlap: 1024, context: 64 }, context(), 101);
      expect(cut.out.toString('utf8'), `window ${window}`).toBe(whole.out.toString('utf8'));
      expect(cut.findings.map((f) => f.id)).toEqual(whole.findings.map((f) => f.id));
    }
  });

  it('leaves the strings between alone when they are not key lines (a BEGIN, prose, and an END far apart)', async () => {
    const doc = rows(['-----BEGIN RSA PRIVATE KEY-----', 'this is not a key line, it is a sentence', '-----END RSA PRIVATE KEY-----'].join('\n'));
    const { out } = await run(Buffer.from(doc), { clip: 'json', file: 'x.json' });
    expect(out.toString('utf8')).toContain('this is not a key line, it is a sentence');
  });
});

describe('clipToJsonString', () => {
  it('stops at the closing quote and a line break, and never splits an escape', () => {
    const text = '{"a":"ab\\ncd","b":"x"}';
    expect(clipToJsonString(text, { start: 6, end: 20 })).toEqual({ start: 6, end: 12 });
    expect(clipToJsonString(text, { start: 9, end: 11 })).toEqual({ start: 8, end: 11 });
    expect(clipToJsonString('"\\u00e9xyz"', { start: 1, end: 4 })).toEqual({ start: 1, end: 7 });
    // Only a `\uXXXX` the span starts inside moves its start; one further back (or an escaped backslash before a u) does not.
    const far = `"\\u00e9${'x'.repeat(5000)}abcdef"`;
    expect(clipToJsonString(far, { start: 5005, end: 5009 })).toEqual({ start: 5005, end: 5009 });
    expect(clipToJsonString('"\\\\u00e9"', { start: 3, end: 6 })).toEqual({ start: 3, end: 6 });
    expect(clipToJsonString(`${'a'.repeat(9000)}\\u00e9"`, { start: 9004, end: 9007 })).toEqual({ start: 9000, end: 9006 });
    expect(clipToJsonString('"a"\n"b"', { start: 3, end: 6 })).toBeNull();
  });
});
