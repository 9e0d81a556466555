// A session file opened on its own: listed and readable (raw view, keep) without its folder becoming a source; a file that is no session says so.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../app/services.ts';
import { samplesDir } from '../test-support/samples.ts';
import { safeFileName } from './opened-files.ts';

let base: string;
let services: Services;
const LOOSE = join(samplesDir, 'loose');

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-opened-'));
  services = createServices({ dataDir: join(base, 'data'), shell: 'web', discoverDefaults: false });
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

async function upload(bytes: Buffer): Promise<string> {
  const { uploadId } = await services.client.beginUpload({ size: bytes.length });
  await services.client.uploadChunk({ uploadId, offset: 0, data: bytes.toString('base64') });
  return uploadId;
}

describe('opening one session file', () => {
  it('lists a file from outside every source, readable in full, its raw file shown and keepable, with no source added', async () => {
    const file = join(base, 'Downloads', 'claude chat.jsonl');
    await mkdir(join(base, 'Downloads'));
    const { readdir } = await import('node:fs/promises');
    const claude = (await readdir(LOOSE)).find((n) => /claude/i.test(n))!;
    await writeFile(file, await readFile(join(LOOSE, claude)));

    expect(await services.openSessionFile(file)).toBeNull();
    const [opened] = await services.client.takeOpenedSessions({});
    expect(opened?.key).toMatch(/^claude-code:/);
    expect(await services.client.takeOpenedSessions({})).toEqual([]); // each is handed over once
    const session = await services.client.getSession({ key: opened!.key });
    expect(session.messages.length).toBeGreaterThan(0);
    const raw = await services.client.getRawSource({ key: opened!.key, fileIndex: 0, offset: 0, length: 1000 });
    expect(raw.text.length).toBeGreaterThan(0);
    await services.client.keepSession({ key: opened!.key });
    expect((await services.client.getVaultStatus({ key: opened!.key })).keptPath).not.toBeNull();
    expect(await services.client.listRoots({})).toEqual([]);
  });

  it('opens an uploaded file (the browser has no paths) and refuses one that is no session, saying so', async () => {
    const { readdir } = await import('node:fs/promises');
    const codex = (await readdir(LOOSE)).find((n) => /codex|rollout/i.test(n))!;
    const opened = await services.client.openUploadedSession({
      uploadId: await upload(await readFile(join(LOOSE, codex))),
      fileName: '../../sneaky/rollout.jsonl',
    });
    expect(opened.key).toMatch(/^codex:/);
    expect(opened.path.startsWith(join(base, 'data', 'opened'))).toBe(true);
    expect(opened.path.endsWith('/rollout.jsonl')).toBe(true);

    const refused = await services.dispatch('openUploadedSession', {
      uploadId: await upload(Buffer.from('{"name":"not-a-session"}\n')),
      fileName: 'package.json',
    });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'INVALID_INPUT', message: 'package.json is not a session file any reader recognises (by its place or its first records).' },
    });
  });
});

describe('safeFileName', () => {
  it("keeps a file's own name and nothing that could climb out of its folder", () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\chat.jsonl')).toBe('chat.jsonl');
    expect(safeFileName('..')).toBe('session');
    expect(safeFileName('a\u0000b.json')).toBe('a_b.json');
  });
});
