// `serve --team --host`: HTTPS with a certificate made here by openssl, the API answered over it (and refused over plain HTTP); a non-loopback address without TLS refused before anything listens.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSession } from '../search-index/test-sessions.ts';
import { describeWithPostgres } from '../team/postgres-suite.ts';
import { pushSessions } from '../team/push.ts';
import { accountConnection, connectUrl, memoryLoader } from '../team/test-team.ts';
import { startTeamServer, type RunningTeamServer } from './serve-team.ts';
import { readServeTls } from './serve-tls.ts';

/** A self-signed certificate for team.test and 127.0.0.1, and its key, made by openssl in `dir`. */
function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=team.test',
      '-addext',
      'subjectAltName=DNS:team.test,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

interface Answer {
  status: number;
  body: string;
}

/** POSTs `/api/<method>` over HTTPS to 127.0.0.1:port, trusting `ca` only, with the Host header `host`. */
function post(port: number, ca: Buffer, host: string, method: string, token: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/api/${method}`,
        method: 'POST',
        ca,
        servername: 'team.test',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describeWithPostgres('serve --team over TLS', (pgs) => {
  let dir: string;
  let tls: { cert: string; key: string };
  let viewerUrl: string;
  let running: RunningTeamServer | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sv-team-tls-'));
    tls = selfSigned(dir, 'team');
    const ownerUrl = await pgs.freshDatabase();
    const owner = await connectUrl(ownerUrl);
    const session = makeSession('over-tls', { title: 'Rotate the staging certificates', sourceFiles: [] });
    const pushed = await pushSessions({
      client: owner.client,
      machine: 'owner-box',
      keys: [session.key],
      loader: memoryLoader([session]),
      env: {},
      sources: false,
    });
    expect(pushed.pushed).toEqual([session.key]);
    const vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    viewerUrl = vera.url;
    await vera.conn.close();
    await owner.close();
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API over HTTPS with the given certificate, for the names it carries, and not over plain HTTP', async () => {
    running = await startTeamServer({
      team: viewerUrl.replace(/:[^:@/]*@/, '@'),
      env: { PGPASSWORD: new URL(viewerUrl).password },
      dataDir: dir,
      rendererDir: dir,
      host: '127.0.0.1',
      tls,
    });
    expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const ca = (await readServeTls(tls)).cert;
    const listed = await post(running.port, ca, `team.test:${running.port}`, 'searchSessions', running.token, { query: 'certificates' });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).value.results.map((r: { summary: { title: string } }) => r.summary.title)).toEqual(['Rotate the staging certificates']);
    // A name the certificate does not carry is refused (DNS rebinding), as is a wrong token.
    expect((await post(running.port, ca, `evil.example:${running.port}`, 'searchSessions', running.token, { query: '' })).status).toBe(403);
    expect((await post(running.port, ca, `127.0.0.1:${running.port}`, 'searchSessions', 'wrong', { query: '' })).status).toBe(403);
    // Plain HTTP gets no answer from a TLS server.
    const plain = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port: running?.port, path: '/api/getAppInfo', method: 'POST' }, (res) =>
        resolve(`status ${res.statusCode}`),
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      req.end('{}');
    });
    expect(plain).not.toBe('status 200');
  });

  it("refuses a non-loopback address without TLS unless --insecure-http, and a key that is not the certificate's", async () => {
    const base = { team: viewerUrl, env: {}, dataDir: dir, rendererDir: dir };
    await expect(startTeamServer({ ...base, host: '0.0.0.0' })).rejects.toThrow(
      /would send the team's sessions and the access token over the network unencrypted/,
    );
    const other = selfSigned(dir, 'other');
    await expect(startTeamServer({ ...base, host: '0.0.0.0', tls: { cert: tls.cert, key: other.key } })).rejects.toThrow(
      `The key ${other.key} is not the key of the certificate ${tls.cert}.`,
    );
    writeFileSync(join(dir, 'not.pem'), 'hello');
    await expect(startTeamServer({ ...base, host: '0.0.0.0', tls: { cert: join(dir, 'not.pem'), key: tls.key } })).rejects.toThrow('is not a PEM certificate');
  });
});
