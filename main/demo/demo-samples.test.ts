// The demo set holds a readable session of every format the app reads, from the committed samples, and the packaged app carries those files.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SOURCE_FORMATS } from '../../shared/source-formats.ts';
import { createServices, type Services } from '../app/services.ts';
import { DEMO_SAMPLE_FILES, demoSamplesDir } from './demo-samples.ts';

const repo = resolve(import.meta.dirname, '..', '..');
let base: string;
let services: Services | null = null;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-demo-samples-'));
});
afterEach(async () => {
  await services?.close();
  services = null;
  await rm(base, { recursive: true, force: true });
});

describe('the demo set', () => {
  it('opens with a readable session of every format the app reads, each with messages', async () => {
    services = createServices({ dataDir: join(base, 'data'), shell: 'web', discoverDefaults: false });
    await services.start();
    await services.whenScanned();
    const root = await services.client.openDemo({});
    expect(root.kind).toBe('demo');
    const { sessions } = await services.client.listSessions({ includeChildren: true });
    expect(sessions.filter((s) => s.unreadable).map((s) => s.primaryPath)).toEqual([]);
    // Every format but the vault's own store (a kept copy is read by its original format's reader).
    const formats = new Set(sessions.map((s) => s.format));
    expect([...formats].sort()).toEqual(SOURCE_FORMATS.filter((f) => f !== 'vault').sort());
    for (const format of formats) {
      const opened = await Promise.all(sessions.filter((s) => s.format === format).map((s) => services!.client.getSession({ key: s.key })));
      expect(Math.max(...opened.map((o) => o.messagesTotal)), `${format} has a session with messages`).toBeGreaterThan(0);
    }
  });

  it('finds the samples in the checkout, or beside the packaged app', async () => {
    expect(demoSamplesDir(undefined)).toBe(join(repo, 'samples'));
    const resources = join(base, 'resources');
    const first = join(resources, 'demo-samples', ...(DEMO_SAMPLE_FILES[0] as string).split('/'));
    await mkdir(join(first, '..'), { recursive: true });
    await writeFile(first, '');
    expect(demoSamplesDir(resources)).toBe(join(resources, 'demo-samples'));
  });
});

describe('packaging', () => {
  it('ships exactly the demo samples (and the corpus provenance) as extra resources', async () => {
    const config = parse(await readFile(join(repo, 'build', 'electron-builder.yml'), 'utf8')) as {
      extraResources: Array<{ from: string; to: string; filter?: string[] }>;
    };
    const demo = config.extraResources.find((r) => r.to === 'demo-samples');
    expect(demo?.from).toBe('samples');
    expect(demo?.filter).toEqual(['MANIFEST.md', 'README.md', ...DEMO_SAMPLE_FILES]);
  });
});
