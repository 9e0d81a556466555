// The CLI's in-process client: the services' answers as values, their refusals as ClientErrors with the contract's code and message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
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
