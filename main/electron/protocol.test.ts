// The app:// handler serves the renderer folder with the CSP and never anything outside it.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, createBundleHandler, resolveBundlePath } from './protocol.ts';

let base: string;
let dir: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-protocol-'));
  dir = join(base, 'renderer');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Session Vault</title>');
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(base, 'secret.txt'), 'outside');
  handle = createBundleHandler(dir);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('createBundleHandler', () => {
  it('serves index.html for the root with the CSP and a text/html type', async () => {
    const res = await get('app://bundle/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Session Vault</title>');
  });

  it('serves assets with their script type', async () => {
    const res = await get('app://bundle/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe('console.log(1)');
  });

  it('answers a missing file with 404, still under the CSP', async () => {
    const res = await get('app://bundle/assets/missing.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const url of [
      'app://bundle/../secret.txt',
      'app://bundle/%2e%2e/secret.txt',
      'app://bundle/assets/%2E%2E%2F..%2Fsecret.txt',
      'app://bundle/..%5csecret.txt',
      'app://bundle/%00index.html',
      'app://bundle/%E0%A4%A',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toBe('outside');
    }
  });

  it('refuses other hosts and methods that could change something', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://bundle/index.html', 'POST')).status).toBe(405);
  });

  it('answers HEAD without a body', async () => {
    const res = await get('app://bundle/index.html', 'HEAD');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('resolveBundlePath', () => {
  it('keeps extension-less routes on index.html so a reload shows the app', () => {
    expect(resolveBundlePath('/r', 'app://bundle/sessions/abc')).toBe(join('/r', 'index.html'));
  });

  it('rejects dot segments hidden behind encoded slashes instead of resolving them', () => {
    // The URL parser already folds a bare %2e%2e segment; one glued to %2f reaches us only after decoding.
    expect(resolveBundlePath('/r', 'app://bundle/assets/%2e%2e/index.html')).toBe(join('/r', 'index.html'));
    expect(resolveBundlePath('/r', 'app://bundle/assets/%2e%2e%2findex.html')).toBeNull();
    expect(resolveBundlePath('/r', 'https://bundle/index.html')).toBeNull();
  });
});
