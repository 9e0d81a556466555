// Session summaries through the running services: saved in the vault, found by search, shown for ProjectHub's own, exported, surviving deletion.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../app/services.ts';
import { ClientError } from '../../shared/api-client.ts';
import { exportBundle } from '../bundle/export-bundle.ts';
import { sessionMarkdown } from '../bundle/markdown-export.ts';
import { waitFor } from '../test-support/wait-for.ts';
import { samplesDir } from '../test-support/samples.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { testTempDir } from '../test-support/temp-dir.ts';

let services: Services | null = null;

async function start(dataDir: string, roots: string[]): Promise<Services> {
  services = createServices({ dataDir, shell: 'cli', extraRoots: roots, discoverDefaults: false, watch: false });
  await services.start();
  await services.whenScanned();
  return services;
}

afterEach(async () => {
  await services?.close();
  services = null;
});

async function jidoRoot(base: string): Promise<string> {
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'j-1.json'), jidoSession('j-1', 'etlpipeline'));
  await writeFile(join(dir, 'j-2.json'), jidoSession('j-2', 'frontend'));
  return join(base, 'root');
}

const found = async (s: Services, query: string) => (await s.client.searchSessions({ query, limit: 50 })).results.map((r) => r.summary.key).sort();

const SUMMARY = {
  overview: 'Rebuilt the nightly zanzibar pipeline.',
  decisions: ['Batch writes per hour'],
  outcomes: ['Pipeline green'],
  openItems: ['Alerting for late batches'],
  tags: ['etl', 'reliability'],
};

describe('session summaries in the services', () => {
  it('saves a summary with its author, and search finds it by has:summary, -has:summary, its words and its tags', async () => {
    const base = testTempDir('sv-summary-');
    const s = await start(join(base, 'data'), [await jidoRoot(base)]);
    expect((await s.client.getSummary({ key: 'jido-code:j-1' })).summary).toBeNull();
    expect(await found(s, 'has:summary')).toEqual([]);

    const { summary } = await s.client.setSummary({ key: 'jido-code:j-1', summary: SUMMARY, author: 'cli' });
    expect(summary).toMatchObject({ ...SUMMARY, source: 'vault', author: 'cli' });
    expect(Date.parse(summary?.updatedAt ?? '')).not.toBeNaN();

    expect(await found(s, 'has:summary')).toEqual(['jido-code:j-1']);
    expect(await found(s, '-has:summary')).toEqual(['jido-code:j-2']);
    // The Refine panel's count agrees with the filter it offers.
    expect((await s.client.searchSessions({ query: '', facets: true })).facets?.summary).toEqual([{ value: 'Has a summary', filter: 'has:summary', count: 1 }]);
    expect(await found(s, 'zanzibar')).toEqual(['jido-code:j-1']);
    expect(await found(s, 'reliability')).toEqual(['jido-code:j-1']);
    expect(await found(s, '"late batches"')).toEqual(['jido-code:j-1']);
    // A word of the transcript and a word of the summary: the session holds both only through its summary.
    expect(await found(s, 'zanzibar -etlpipeline')).toEqual([]);
    const hit = (await s.client.searchSessions({ query: 'zanzibar', limit: 5 })).results[0];
    expect(hit?.snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['zanzibar']);
    expect(hit?.snippet[0]?.text).toBe('Summary: ');

    expect((await s.client.summaryStates({ keys: ['jido-code:j-1', 'jido-code:j-2'] })).states).toEqual([
      { key: 'jido-code:j-1', source: 'vault', author: 'cli', updatedAt: summary?.updatedAt },
      { key: 'jido-code:j-2', source: null, author: null, updatedAt: null },
    ]);

    // Removing it: nothing is shown and search forgets it.
    expect((await s.client.setSummary({ key: 'jido-code:j-1', summary: null, author: 'you' })).summary).toBeNull();
    expect(await found(s, 'zanzibar')).toEqual([]);
  });

  // Each word may be in either place: the summary, or the session's indexed text (it failed when both had to hold all).
  it('finds a session by a word of its vault summary together with a word of its transcript', async () => {
    const base = testTempDir('sv-summary-');
    const s = await start(join(base, 'data'), [await jidoRoot(base)]);
    await s.client.setSummary({ key: 'jido-code:j-1', summary: SUMMARY, author: 'cli' });
    // "zanzibar" is only in j-1's summary, "etlpipeline" only in its transcript: the session holds both words.
    expect(await found(s, 'etlpipeline')).toEqual(['jido-code:j-1']);
    expect(await found(s, 'zanzibar')).toEqual(['jido-code:j-1']);
    expect(await found(s, 'zanzibar etlpipeline')).toEqual(['jido-code:j-1']);
    // A word neither holds still leaves it out, and so does an excluded word of its transcript.
    expect(await found(s, 'zanzibar nowhereword')).toEqual([]);
    expect(await found(s, 'zanzibar -etlpipeline')).toEqual([]);
  });

  it('refuses an invalid summary naming the field, and an unknown session', async () => {
    const base = testTempDir('sv-summary-');
    const s = await start(join(base, 'data'), [await jidoRoot(base)]);
    const refused = await s.client.setSummary({ key: 'jido-code:j-1', summary: { ...SUMMARY, overview: '  ' }, author: 'cli' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClientError);
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', field: 'summary.overview' });
    const unknown = await s.client.setSummary({ key: 'jido-code:nope', summary: SUMMARY, author: 'cli' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', field: 'key' });
    expect((await s.client.getSummary({ key: 'jido-code:j-1' })).summary).toBeNull();
  });

  it('keeps the summary when the source changes, after a restart, and once the source is deleted (the kept copy shows it)', async () => {
    const base = testTempDir('sv-summary-');
    const root = await jidoRoot(base);
    let s = await start(join(base, 'data'), [root]);
    await s.client.setSummary({ key: 'jido-code:j-1', summary: SUMMARY, author: 'mcp: test' });
    await s.close();
    // The session goes on in its tool: its file is rewritten, with a later update and more to say.
    await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'etlpipeline-rerun', '2026-01-05T10:00:00.000000Z'));
    s = await start(join(base, 'data'), [root]);
    expect((await s.client.listSessions({})).sessions.find((x) => x.key === 'jido-code:j-1')?.title).toContain('etlpipeline-rerun');
    expect((await s.client.getSummary({ key: 'jido-code:j-1' })).summary).toMatchObject({ overview: SUMMARY.overview, author: 'mcp: test' });
    expect(await found(s, 'zanzibar')).toEqual(['jido-code:j-1']);
    await s.client.keepSession({ key: 'jido-code:j-1' });
    await s.close();
    await rm(join(root, '.jido_code', 'sessions', 'j-1.json'));
    s = await start(join(base, 'data'), [root]);
    const listed = await s.client.listSessions({});
    expect(listed.sessions.find((x) => x.key === 'jido-code:j-1')?.sourceGone).toBe(true);
    expect((await s.client.getSummary({ key: 'jido-code:j-1' })).summary).toMatchObject({ overview: SUMMARY.overview, author: 'mcp: test' });
    expect(await found(s, 'zanzibar')).toEqual(['jido-code:j-1']);
  });

  it("shows a ProjectHub session's own summary_json, which the vault's summary then overrides, in the Markdown export too", async () => {
    const base = testTempDir('sv-summary-');
    const s = await start(join(base, 'data'), [join(samplesDir, 'projecthub')]);
    const own = await found(s, 'has:summary');
    expect(own).toHaveLength(1);
    const key = own[0] as string;
    const shown = (await s.client.getSummary({ key })).summary;
    expect(shown).toMatchObject({ source: 'session', author: 'ProjectHub' });
    expect(shown?.overview).toBeTruthy();
    expect((await s.client.summaryStates({ keys: [key] })).states[0]).toMatchObject({ source: 'session' });
    expect(sessionMarkdown(await s.bundles.load(key))).toContain(`### Overview\n${shown?.overview}`);

    await s.client.setSummary({ key, summary: SUMMARY, author: 'you' });
    expect((await s.client.getSummary({ key })).summary).toMatchObject({ source: 'vault', author: 'you', overview: SUMMARY.overview });
    const markdown = sessionMarkdown(await s.bundles.load(key));
    // ProjectHub's vault style: the Summary section's five parts, in order.
    expect(markdown).toContain(
      [
        '## Summary',
        `### Overview\n${SUMMARY.overview}`,
        '### Key Decisions\n- Batch writes per hour',
        '### Outcomes\n- Pipeline green',
        '### Open Items\n- [ ] Alerting for late batches',
        '### Tags\n`etl` `reliability`',
        '## Rolling Summary',
      ].join('\n\n'),
    );
    // Back to its own once the vault's is removed.
    expect((await s.client.setSummary({ key, summary: null, author: 'you' })).summary).toMatchObject({ source: 'session' });
  });
});

describe('a summary in a bundle', () => {
  it('travels in the exported session.json, and the importing vault shows it for the session', async () => {
    const base = testTempDir('sv-summary-bundle-');
    const from = await start(join(base, 'data-a'), [await jidoRoot(base)]);
    await from.client.setSummary({ key: 'jido-code:j-1', summary: SUMMARY, author: 'cli' });
    const zip = join(base, 'share.zip');
    const loader = from.bundles.openLoader();
    try {
      await exportBundle(['jido-code:j-1'], loader, zip, { redact: false });
    } finally {
      await loader.close();
    }
    await from.close();
    services = null;

    const into = await start(join(base, 'data-b'), []);
    const bytes = await readFile(zip);
    const { uploadId } = await into.client.beginUpload({ size: bytes.length });
    await into.client.uploadChunk({ uploadId, offset: 0, data: bytes.toString('base64') });
    expect((await into.client.importBundle({ uploadId })).imported.map((s) => s.key)).toEqual(['jido-code:j-1']);
    const shown = await waitFor(async () => (await into.client.getSummary({ key: 'jido-code:j-1' })).summary ?? undefined);
    expect(shown).toMatchObject({
      overview: SUMMARY.overview,
      decisions: SUMMARY.decisions,
      tags: SUMMARY.tags,
      source: 'vault',
      author: 'imported with a bundle',
    });
  });
});
