// The CLI's in-process client: the services' answers as values, their refusals as ClientErrors with the contract's code and message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientError } from '../../shared/api-client.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { withOneShotServices } from './one-shot.ts';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-one-shot-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

const env = () => ({ SESSION_VAULT_HOME: join(base, 'data'), HOME: join(base, 'home') });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

describe('one-shot commands and the full-text index', () => {
  it('a command that only lists (list, export, diff, resume) never waits for the text; the next that searches catches up', async () => {
    const large = join(base, 'large');
    await mkdir(join(large, '.jido_code', 'sessions'), { recursive: true });
    // Half a megabyte each: the scan's batches go to the index's writer thread, which leaves the text for later.
    for (let i = 0; i < 3; i++) {
      const doc = JSON.parse(jidoSession(`w${i}`, `walrus ${i}`)) as { conversation: Array<Record<string, unknown>> };
      doc.conversation.push({
        id: 'a9',
        role: 'assistant',
        content: `${'a long build log line\n'.repeat(25_000)} tusked${i}`,
        timestamp: '2026-01-02T09:00:10.000000Z',
      });
      await writeFile(join(large, '.jido_code', 'sessions', `w${i}.json`), JSON.stringify(doc));
    }
    const data = { SESSION_VAULT_HOME: join(base, 'data-large'), HOME: join(base, 'home') };
    await withOneShotServices({ roots: [large], noDefaults: true, needs: 'list' }, data, async (services) => {
      expect((await services.client.listSessions({})).total).toBe(3);
      expect((await services.client.searchSessions({ query: 'tusked1' })).total).toBe(0);
    });
    await withOneShotServices({ roots: [large], noDefaults: true }, data, async (services) => {
      expect((await services.client.searchSessions({ query: 'tusked1' })).results.map((r) => r.summary.key)).toEqual(['jido-code:w1']);
    });
  });

  it('a command that only lists reads no text; the next that searches reads those files again, and a list-only one does not', async () => {
    const dir = join(base, 'unread');
    const file = join(dir, '.jido_code', 'sessions', 'u-1.json');
    await mkdir(join(dir, '.jido_code', 'sessions'), { recursive: true });
    // A whole second, so the time set again below is exactly the same.
    const time = 1_767_340_800;
    await writeFile(file, jidoSession('u-1', 'walrus-0'));
    await utimes(file, time, time);
    const data = { SESSION_VAULT_HOME: join(base, 'data-unread'), HOME: join(base, 'home') };
    const titleAndHits = (needs: 'list' | 'search') =>
      withOneShotServices({ roots: [dir], noDefaults: true, needs }, data, async (services) => ({
        title: (await services.client.listSessions({})).sessions.map((s) => s.title),
        hits: (await services.client.searchSessions({ query: 'build' })).total,
      }));
    expect(await titleAndHits('list')).toEqual({ title: ['walrus-0'], hits: 0 });
    // The same size and time, other words: a file is read again only when it changed, or when its text is wanted.
    await writeFile(file, jidoSession('u-1', 'seal---0'));
    await utimes(file, time, time);
    expect(await titleAndHits('list')).toEqual({ title: ['walrus-0'], hits: 0 });
    expect(await titleAndHits('search')).toEqual({ title: ['seal---0'], hits: 1 });
  });
});

describe('the one-shot services client', () => {
  it('answers with values and refuses with ClientErrors carrying the contract code, message and field', async () => {
    await withOneShotServices({ roots: [root], noDefaults: true }, env(), async (services) => {
      expect((await services.client.listSessions({})).sessions.map((s) => s.key)).toEqual(['jido-code:j-1']);
      expect((await services.client.getSession({ key: 'jido-code:j-1' })).messagesTotal).toBeGreaterThan(0);

      const missing = await refusal(services.client.getSession({ key: 'jido-code:nope' }));
      expect(missing).toBeInstanceOf(ClientError);
      expect(missing).toMatchObject({ code: 'NOT_FOUND', field: 'key', message: 'No session with key "jido-code:nope" is known. It may have been deleted.' });

      const invalid = await refusal(services.client.clearVault({ confirm: 'yes' as 'CLEAR' }));
      expect(invalid).toBeInstanceOf(ClientError);
      expect(invalid).toMatchObject({ code: 'INVALID_INPUT', field: 'confirm' });
      expect((invalid as ClientError).message).toMatch(/^Invalid input for clearVault: confirm: /);
    });
  });
});
