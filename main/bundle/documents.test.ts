// Markdown in ProjectHub's vault style and a self-contained HTML transcript, as a reader (or ProjectHub) sees them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../recorder/fixtures/planted-secrets.ts';
import { findReader } from '../sources/registry.ts';
import { exportDocument, renderDocument } from './export-document.ts';
import { escapeHtml, sessionHtml } from './html-export.ts';
import { markdownFileName, sessionMarkdown, yamlString } from './markdown-export.ts';
import { testSession } from './test-zip.ts';

const phDir = resolve('main/sources/fixtures/projecthub/tide-tables/vault/sessions');
const phFile = join(phDir, '2026-03-04_4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d.md');

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-docs-'));
});
afterEach(async () => rm(base, { recursive: true, force: true }));

function chat(key: string): Session {
  const s = testSession(key, '/home/dev/.jido_code/sessions/x.json');
  const msg = (id: string, role: 'user' | 'assistant', parts: Session['messages'][number]['parts']) => ({
    id,
    role,
    timestamp: '2026-01-02T09:00:01.000Z',
    model: null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: null,
  });
  s.messages = [
    msg('1', 'user', [{ type: 'text', text: 'Why does <script>alert("x")</script> run?\n## not a heading' }]),
    msg('2', 'assistant', [
      { type: 'tool_call', callId: 'c1', name: 'Grep', input: { pattern: 'innerHTML' } },
      { type: 'tool_result', callId: 'c1', output: '<img src="https://tracker.example/x.png">', isError: false },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', url: null },
      { type: 'image', mediaType: null, data: null, url: 'https://example.com/cat.png' },
      { type: 'text', text: 'Because it is assigned with innerHTML & "quotes".' },
    ]),
  ];
  return s;
}

describe('yamlString', () => {
  it('writes plain values as ProjectHub does and escapes everything else so YAML reads it back exactly', () => {
    expect(yamlString('4f6a8b2c-1d3e')).toBe('"4f6a8b2c-1d3e"');
    expect(yamlString('/home/dev/proj')).toBe('"/home/dev/proj"');
    expect(yamlString('D:\\work\\tide')).toBe("'D:\\work\\tide'");
    expect(yamlString('say "hi" it\'s')).toBe("'say \"hi\" it''s'");
    expect(yamlString('two\nlines\t"q" \\')).toBe('"two\\nlines\\t\\"q\\" \\\\"');
    expect(yamlString('bell\u0007 and \u2028')).toBe('"bell\\u0007 and \\u2028"');
  });
});

describe('Markdown export', () => {
  it('writes the ProjectHub fixture back byte-for-byte from what the reader made of it', async () => {
    const session = await findReader(phFile)!.read(phFile);
    expect(sessionMarkdown(session)).toBe(await readFile(phFile, 'utf8'));
    expect(markdownFileName(session)).toBe('2026-03-04_4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d.md');
  });

  it("any session becomes a file ProjectHub's reader takes: id, Windows path, turns, status, search footprint", async () => {
    const s = chat('jido-code:abc');
    s.project.path = 'D:\\work\\it\'s "here"';
    s.status = 'closed';
    s.closedAt = '2026-01-02T10:00:00.000Z';
    const dir = join(base, 'vault', 'sessions');
    await mkdir(dir, { recursive: true });
    const file = join(dir, markdownFileName(s));
    await writeFile(file, sessionMarkdown(s));
    const back = await findReader(file)!.read(file);
    expect(back).toMatchObject({ id: 'abc', format: 'projecthub', status: 'closed', project: { path: 'D:\\work\\it\'s "here"' } });
    expect(back.extra).toMatchObject({ turnCount: 1, searchFootprint: ['innerHTML'], decisions: [] });
    expect(back.warnings.filter((w) => w.code === 'invalid_yaml')).toEqual([]);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('**User**: Why does <script>alert("x")</script> run? ## not a heading');
    expect(text).not.toMatch(/^## not a heading/m);
  });

  it('redacts planted secrets and lists them; a kept finding stays', async () => {
    const s = chat('jido-code:abc');
    s.messages[0]!.parts = [{ type: 'text', text: PLANTED_TEXT }];
    const { text, findings } = await renderDocument(s, 'md', { env: PLANTED_ENV });
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(findings.map((f) => f.file)).toEqual(findings.map(() => 'session.md'));
    const github = findings.find((f) => f.rule === 'github')!;
    const kept = await exportDocument(s, 'md', join(base, 'out.md'), { env: PLANTED_ENV, keep: [github.id] });
    expect(kept.findings.find((f) => f.id === github.id)?.redacted).toBe(false);
    expect(await readFile(join(base, 'out.md'), 'utf8')).toContain(SECRETS.github);
  });
});

describe('HTML export', () => {
  it('is one file that can make no request: a policy that forbids it, no script, no link, images only inline', () => {
    const html = sessionHtml(chat('jido-code:abc'), 'Session Vault test');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;`);
    expect(html).not.toMatch(/<script|<link|<iframe|@import|url\(/i);
    expect([...html.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1])).toEqual(['data:image/png;base64,iVBORw0KGgo=']);
    expect(html).not.toMatch(/href=/);
  });

  it('escapes every text, so a transcript cannot inject markup', () => {
    const html = sessionHtml(chat('jido-code:abc'), 'Session Vault test');
    expect(html).toContain('Why does &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; run?');
    expect(html).toContain('&lt;img src=&quot;https://tracker.example/x.png&quot;&gt;');
    expect(html).toContain('innerHTML &amp; &quot;quotes&quot;.');
    expect(html).toContain('[image: https://example.com/cat.png]');
    expect(escapeHtml(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('redacts inside the text without touching the markup around it', async () => {
    const s = chat('jido-code:abc');
    s.messages[0]!.parts = [{ type: 'text', text: PLANTED_TEXT }];
    const { text } = await renderDocument(s, 'html', { env: PLANTED_ENV });
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).toContain('export GITHUB_TOKEN=[REDACTED:github]');
    expect(text.match(/<section /g)?.length).toBe(2);
    expect(text.match(/<\/section>/g)?.length).toBe(2);
  });
});
