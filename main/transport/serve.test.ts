// `serve` end to end over real HTTP: every method rejects wrong-typed input before any service (or file) is touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { methodNames } from '../../shared/api.ts';
import { startServer, type RunningServer } from './serve.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
let running: RunningServer;
const serviceCalls: string[] = [];

/** Wrong-typed inputs: not an object, wrong field types, or fields the method does not take (inputs are strict). */
const WRONG_INPUTS: unknown[] = [
  'a string',
  42,
  [],
  { key: 42 },
  { path: false },
  { id: {} },
  { text: 7 },
  { key: 'k', offset: -1 },
  { key: 'k', length: 'all' },
  { unexpected: true },
];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-serve-'));
  const sessions = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(sessions, { recursive: true });
  await writeFile(join(sessions, 'j-1.json'), jidoSession('j-1', 'etl'));
  await mkdir(join(base, 'ui'));
  await writeFile(join(base, 'ui', 'index.html'), '<!doctype html>');
  running = await startServer({ dataDir: join(base, 'data'), roots: [join(base, 'root')], discoverDefaults: false, rendererDir: join(base, 'ui') });
  await running.services.whenScanned();
  // Count every service call from here on: a rejected input must never reach one.
  const methods = running.services.methods as unknown as Record<string, (i: unknown) => Promise<unknown>>;
  for (const name of methodNames) {
    const original = methods[name]!;
    methods[name] = (input) => {
      serviceCalls.push(name);
      return original(input);
    };
  }
});

afterAll(async () => {
  await running.close();
  await rm(base, { recursive: true, force: true });
});

async function post(method: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${running.port}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${running.token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: { code: string; message: string } } };
}

describe('serve', () => {
  it('prints a loopback URL carrying the token', () => {
    expect(running.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${running.port}/\\?token=${running.token}$`));
  });

  it('answers a valid call with the session list', async () => {
    const res = await post('listSessions', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, value: { total: 1 } });
  });

  it.each(methodNames)('%s: every wrong-typed input gets INVALID_INPUT and reaches no service', async (method) => {
    serviceCalls.length = 0;
    for (const input of WRONG_INPUTS) {
      const res = await post(method, input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_INPUT');
      expect(res.body.error?.message).toContain(method);
    }
    expect(serviceCalls).toEqual([]);
  });
});
