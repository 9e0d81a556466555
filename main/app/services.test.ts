// The services end to end in plain Node: scanning roots, opening sessions, unreadable files, live updates.
import { waitFor, waitUntil } from '../test-support/wait-for.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from './services.ts';
import type { AppEvent } from '../../shared/api.ts';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';
import { readProjectHubFile } from '../sources/projecthub/projecthub.ts';

let base: string;
let root: string;
let services: Services;
let events: AppEvent[];

const jidoDir = () => join(root, '.jido_code', 'sessions');

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-services-'));
  root = join(base, 'root');
  await mkdir(jidoDir(), { recursive: true });
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(join(jidoDir(), 'j-1.json'), jidoSession('j-1', 'etl'));
  await writeFile(join(jidoDir(), 'j-broken.json'), '{"version":1,"id":"j-broken","name":"cut');
  await writeFile(join(jidoDir(), 'j-2.json.tmp'), '{"partial'); // a write in progress: ignored
  await writeFile(join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'), vizierSession('v-1'));
  events = [];
  services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false });
  services.subscribe((e) => events.push(e));
  await services.start();
  await services.whenScanned();
});

afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('services', () => {
  it('lists every session under a root, newest first, and marks the corrupt file unreadable with its reason', async () => {
    const { sessions, total } = await services.client.listSessions({});
    expect(total).toBe(3);
    const byKey = new Map(sessions.map((s) => [s.key, s]));
    expect(byKey.get('vizier:v-1')).toMatchObject({ title: 'Make merge deterministic', branch: 'fix/tiebreak', outcomeStatus: 'accepted', messageCount: 2 });
    expect(byKey.get('jido-code:j-1')).toMatchObject({ title: 'etl', messageCount: 2, unreadable: null });
    const broken = byKey.get('jido-code:j-broken');
    expect(broken?.unreadable?.code).toBe('invalid_json');
    expect(broken?.unreadable?.message).toMatch(/cut off|Unterminated/);
    expect(sessions.map((s) => s.key).indexOf('vizier:v-1')).toBeLessThan(sessions.map((s) => s.key).indexOf('jido-code:j-1'));
  });

  it('filters the list by text and format', async () => {
    expect((await services.client.listSessions({ text: 'TIEBREAK' })).sessions.map((s) => s.key)).toEqual(['vizier:v-1']);
    expect((await services.client.listSessions({ format: 'jido-code' })).total).toBe(2);
  });

  it('opens a session in full, and explains unknown and unreadable keys', async () => {
    const session = await services.client.getSession({ key: 'jido-code:j-1', messageLimit: 1000 });
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(session.todos).toHaveLength(1);
    const unknown = await services.dispatch('getSession', { key: 'vizier:nope' });
    expect(unknown.ok || unknown.error.code).toBe('NOT_FOUND');
    const broken = await services.dispatch('getSession', { key: 'jido-code:j-broken' });
    expect(broken.ok || broken.error.code).toBe('UNREADABLE');
  });

  it('says a session whose file went since it was listed is gone, in words, before any watcher has said so', async () => {
    await services.close();
    services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false });
    await services.start();
    await services.whenScanned();
    await rm(join(jidoDir(), 'j-1.json'));
    const gone = await services.dispatch('getSession', { key: 'jido-code:j-1' });
    expect(gone).toEqual({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: `The session's file no longer exists: ${join(jidoDir(), 'j-1.json')}. It was moved or deleted after it was listed.`,
      },
    });
  });

  it('opens a session in windows: the first messages at once, the rest on request', async () => {
    const first = await services.client.getSession({ key: 'jido-code:j-1', messageLimit: 1 });
    expect({ n: first.messages.length, total: first.messagesTotal }).toEqual({ n: 1, total: 2 });
    const rest = await services.client.getMessages({ key: 'jido-code:j-1', offset: 1, limit: 100 });
    expect(rest.messages.map((m) => m.role)).toEqual(['assistant']);
    expect(rest.total).toBe(2);
  });

  it('serves the raw source of a session, including an unreadable one', async () => {
    const raw = await services.client.getRawSource({ key: 'jido-code:j-broken', fileIndex: 0, offset: 0, length: 1024 });
    expect(raw.text).toBe('{"version":1,"id":"j-broken","name":"cut');
    expect(raw.truncated).toBe(false);
  });

  it('shows a new file, an atomic replacement and a deletion live, each as an event', async () => {
    const file = join(jidoDir(), 'j-3.json');
    await writeFile(file, jidoSession('j-3', 'fresh'));
    await waitFor(() => events.find((e) => e.name === 'sessionsChanged' && e.payload.changed.includes('jido-code:j-3')));
    expect((await services.client.getSession({ key: 'jido-code:j-3', messageLimit: 1000 })).title).toBe('fresh');

    events = [];
    await writeFile(`${file}.tmp`, jidoSession('j-3', 'renamed-project', '2026-02-01T00:00:00.000000Z'));
    await rename(`${file}.tmp`, file);
    await waitFor(() => events.find((e) => e.name === 'sessionsChanged' && e.payload.changed.includes('jido-code:j-3')));
    expect((await services.client.getSession({ key: 'jido-code:j-3', messageLimit: 1000 })).title).toBe('renamed-project');

    events = [];
    await rm(file);
    await waitFor(() => events.find((e) => e.name === 'sessionsChanged' && e.payload.removed.includes('jido-code:j-3')));
    expect((await services.client.listSessions({})).sessions.some((s) => s.key === 'jido-code:j-3')).toBe(false);
  });

  it('forgets the sessions of a deleted session folder', async () => {
    await rm(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
    await waitFor(() => events.find((e) => e.name === 'sessionsChanged' && e.payload.removed.includes('vizier:v-1')));
  });

  it('adds and removes roots, emitting rootsChanged, and keeps the list in step', async () => {
    const other = join(base, 'other', '.jido_code', 'sessions');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'k-1.json'), jidoSession('k-1', 'other'));
    const added = await services.client.addRoot({ path: join(base, 'other') });
    expect(added).toMatchObject({ kind: 'user', sessionCount: 1, unreadableCount: 0, exists: true });
    expect(events.some((e) => e.name === 'rootsChanged')).toBe(true);
    expect((await services.client.listSessions({})).total).toBe(4);
    await services.client.removeRoot({ id: added.id });
    expect((await services.client.listSessions({})).total).toBe(3);
    const missing = await services.dispatch('addRoot', { path: join(base, 'does-not-exist') });
    expect(missing.ok || missing.error.code).toBe('NOT_FOUND');
  });

  it('gives two files with the same session id distinct keys', async () => {
    const copy = join(base, 'copy', '.jido_code', 'sessions');
    await mkdir(copy, { recursive: true });
    await writeFile(join(copy, 'j-1.json'), jidoSession('j-1', 'copy-of-etl'));
    await services.client.addRoot({ path: join(base, 'copy') });
    const keys = (await services.client.listSessions({ text: 'etl' })).sessions.map((s) => s.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys) expect((await services.client.getSession({ key, messageLimit: 1000 })).key).toBe(key);
  });
});

describe('services with a file over 10 MB', () => {
  it('lists it with its real message count and size, and the session beside it opens normally', async () => {
    const big = JSON.parse(jidoSession('j-big', 'huge-history')) as { conversation: unknown[] };
    const filler = 'x'.repeat(600);
    big.conversation = Array.from({ length: 20_000 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? 'assistant' : 'user',
      content: `message ${i} ${filler}`,
      timestamp: '2026-01-02T09:00:01.000000Z',
    }));
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    await writeFile(join(jidoDir(), 'j-big.json'), text);
    await writeFile(join(jidoDir(), 'j-small.json'), jidoSession('j-small', 'small-one'));
    const small = await waitFor(async () => {
      const r = await services.dispatch('getSession', { key: 'jido-code:j-small' });
      return r.ok ? r.value : undefined;
    });
    expect((small as { title: string }).title).toBe('small-one');
    const listed = await waitFor(
      async () => (await services.client.listSessions({ text: 'huge-history' })).sessions.find((s) => s.key === 'jido-code:j-big'),
      10_000,
    );
    expect(listed.messageCount).toBe(20_000);
    expect(listed.size).toBe(text.length);
  });
});

describe('services with companion files', () => {
  it('re-reads a ProjectHub session when only its transcript changes', async () => {
    const { cp, appendFile } = await import('node:fs/promises');
    const vault = join(root, 'tide', 'vault');
    await cp(join(import.meta.dirname, '..', 'sources', 'projecthub', 'fixtures', 'tide-tables', 'vault'), vault, { recursive: true });
    const key = 'projecthub:4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d';
    const total = () =>
      services.client.getSession({ key, messageLimit: 1000 }).then(
        (s) => s.messagesTotal,
        () => undefined,
      );
    // The copy settles first (listed with its whole transcript, as the reader reads it), so it cannot be mistaken for the change below.
    const before = (await readProjectHubFile(join(vault, 'sessions', '2026-03-04_4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d.md'))).messages.length;
    await waitUntil(async () => (await total()) === before, 5000, 'the copied session with its whole transcript');
    events = [];
    const transcript = join(vault, '.projecthub', 'transcripts', '4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d.jsonl');
    const line = JSON.stringify({
      type: 'user',
      uuid: 'added-1',
      parentUuid: null,
      sessionId: '4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d',
      timestamp: '2026-03-04T12:00:00.000Z',
      cwd: '/home/dev/tide-tables',
      message: { role: 'user', content: 'one more question' },
    });
    await appendFile(transcript, `${line}\n`);
    await waitUntil(async () => (await total()) === before + 1, 5000, 'the session re-read with the added line');
    await waitFor(() => events.find((e) => e.name === 'sessionsChanged' && e.payload.changed.includes(key)), 5000, 'the change announced');
  });
});
