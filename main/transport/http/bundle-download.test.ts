// Dragging a row out of the browser downloads GET /download/bundle: a valid bundle of that session, secrets redacted, token required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateBundle } from '../../bundle/validate-bundle.ts';
import { startServer, type RunningServer } from '../serve.ts';
import { SECRETS } from '../../test-support/planted-secrets.ts';
import { jidoSession } from '../../test-support/session-files.ts';

let base: string;
let running: RunningServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-download-'));
  const sessions = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(sessions, { recursive: true });
  const doc = JSON.parse(jidoSession('j-1', 'etl')) as { conversation: Array<{ content: string }> };
  doc.conversation[0]!.content = `deploy with ${SECRETS.github}`;
  await writeFile(join(sessions, 'j-1.json'), JSON.stringify(doc));
  await mkdir(join(base, 'ui'));
  await writeFile(join(base, 'ui', 'index.html'), '<!doctype html>');
  running = await startServer({ dataDir: join(base, 'data'), roots: [join(base, 'root')], discoverDefaults: false, rendererDir: join(base, 'ui') });
  await running.services.whenScanned();
});

afterAll(async () => {
  await running.close();
  await rm(base, { recursive: true, force: true });
});

const url = (query: string) => `http://127.0.0.1:${running.port}/download/bundle?${query}`;

describe('GET /download/bundle', () => {
  it('sends the session as a bundle file with its secrets redacted', async () => {
    const res = await fetch(url(`key=${encodeURIComponent('jido-code:j-1')}&token=${running.token}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.zip"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.includes(SECRETS.github)).toBe(false);
    const file = join(base, 'dragged.zip');
    await writeFile(file, bytes);
    const bundle = await validateBundle(file);
    bundle.zip.close();
    expect(bundle.manifest.sessions.map((s) => s.key)).toEqual(['jido-code:j-1']);
    // Found in the source file and in session.json, and with no review step every finding is redacted.
    const { enabled, findings, redacted, kept } = bundle.manifest.redaction;
    expect({ enabled, kept }).toEqual({ enabled: true, kept: [] });
    expect(findings).toBeGreaterThan(0);
    expect(redacted).toBe(findings);
    expect(bundle.manifest.files.some((f) => f.kind === 'source' && f.redacted)).toBe(true);
  });

  it('needs the token, and says what is wrong with a missing or unknown key', async () => {
    expect((await fetch(url('key=jido-code%3Aj-1'))).status).toBe(401);
    expect((await fetch(url(`key=jido-code%3Aj-1&token=${'0'.repeat(running.token.length)}`))).status).toBe(403);
    const missing = await fetch(url(`token=${running.token}`));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe('Name the session to download with ?key=.');
    const unknown = await fetch(url(`key=nope&token=${running.token}`));
    expect(unknown.status).toBe(404);
  });
});
