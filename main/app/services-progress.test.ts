// Indexing progress from the running services: a scan of a folder reports its files and ends idle.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/api.ts';
import type { IndexProgress } from '../../shared/search-api.ts';
import { createServices, type Services } from './services.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
let services: Services | null = null;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-progress-'));
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < 12; i++) await writeFile(join(dir, `j-${i}.json`), jidoSession(`j-${i}`, `topic${i}`));
});

afterEach(async () => {
  await services?.close();
  services = null;
  await rm(base, { recursive: true, force: true });
});

const start = async (): Promise<{ s: Services; seen: IndexProgress[] }> => {
  const s = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [join(base, 'root')], discoverDefaults: false, watch: false });
  services = s;
  const seen: IndexProgress[] = [];
  s.subscribe((e) => {
    if (e.name === 'indexProgress') seen.push(e.payload);
  });
  await s.start();
  await s.whenScanned();
  return { s, seen };
};

describe('indexing progress', () => {
  it('announces every session a scan read before it says the index is idle (a page loaded then has missed no change)', async () => {
    const s = createServices({ dataDir: join(base, 'data'), shell: 'web', extraRoots: [join(base, 'root')], discoverDefaults: false });
    services = s;
    const events: AppEvent[] = [];
    s.subscribe((e) => void events.push(e));
    await s.start();
    await s.whenScanned();
    await new Promise((r) => setTimeout(r, 300));
    const idle = events.findIndex((e) => e.name === 'indexProgress' && e.payload.phase === 'idle');
    expect(idle).toBeGreaterThan(0);
    const changed = (list: AppEvent[]) => list.flatMap((e) => (e.name === 'sessionsChanged' ? e.payload.changed : []));
    expect(new Set(changed(events.slice(0, idle))).size).toBe(12);
    expect(changed(events.slice(idle))).toEqual([]);
  });

  it('reports a scan as it reads the files and ends idle with every file done', async () => {
    const { s, seen } = await start();
    expect(seen[0]?.phase).toBe('scanning');
    const last = seen.at(-1);
    expect(last?.phase).toBe('idle');
    expect(last?.filesTotal).toBe(12);
    expect(last?.filesDone).toBe(last?.filesTotal);
    expect(last?.bytesDone).toBe(last?.bytesTotal);
    expect(seen.filter((p) => p.phase === 'idle')).toHaveLength(1);
    expect(await s.client.getIndexProgress({})).toEqual(last);
  });

  it('is not idle while a start restores the list (a server answers meanwhile), only once the first scan is over', async () => {
    await start();
    await services?.close();
    const s = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [join(base, 'root')], discoverDefaults: false, watch: false });
    services = s;
    const seen: IndexProgress[] = [];
    s.subscribe((e) => {
      if (e.name === 'indexProgress') seen.push(e.payload);
    });
    // A request that arrives as the start begins (the server listens before the catalogue is restored).
    const starting = s.start();
    const asked = await s.client.getIndexProgress({});
    expect(asked.phase).toBe('scanning');
    await starting;
    await s.whenScanned();
    expect(seen.filter((p) => p.phase === 'idle')).toHaveLength(1);
    expect(seen.at(-1)?.phase).toBe('idle');
  });

  it('counts unchanged files as done at once after a restart', async () => {
    await start();
    await services?.close();
    const { seen } = await start();
    expect(seen.at(-1)).toMatchObject({ phase: 'idle', filesDone: 12, filesTotal: 12 });
  });
});
