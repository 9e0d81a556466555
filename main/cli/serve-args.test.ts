// `session-vault serve` arguments: the port, local folders, and --team for a team store instead of them.
import { expect, it } from 'vitest';
import { parseServeArgs } from './serve-args.ts';

it('takes --team for a team store, and refuses it beside --root (a team store shows no local folder)', () => {
  expect(parseServeArgs(['--team', 'postgresql://vera@db:5432/team', '--port', '8080', '--no-open'])).toEqual({
    port: 8080,
    roots: [],
    noDefaults: false,
    open: false,
    team: 'postgresql://vera@db:5432/team',
    help: false,
  });
  expect(parseServeArgs([]).team).toBeUndefined();
  expect(() => parseServeArgs(['--team', 'postgresql://vera@db/team', '--root', '/tmp'])).toThrow(
    '--team serves a team store; --root adds local folders, which it does not show. Use one or the other.',
  );
  expect(() => parseServeArgs(['--team', 'postgresql://vera@db/team', '--no-defaults'])).toThrow(
    '--team serves a team store; --no-defaults skips local folders, which it does not show. Use one or the other.',
  );
});

it('takes --no-defaults beside --root, to serve only the folders named', () => {
  expect(parseServeArgs(['--root', '/srv/sessions', '--no-defaults'])).toMatchObject({ roots: ['/srv/sessions'], noDefaults: true });
  expect(parseServeArgs([]).noDefaults).toBe(false);
});

it('takes --host for serve --team only, and refuses a non-loopback address without TLS unless --insecure-http', () => {
  const team = ['--team', 'postgresql://vera@db/team'];
  expect(() => parseServeArgs([...team, '--host', '0.0.0.0'])).toThrow(
    "Serving on 0.0.0.0 would send the team's sessions and the access token over the network unencrypted. Give a certificate and its key (--tls-cert FILE --tls-key FILE), or --insecure-http",
  );
  expect(parseServeArgs([...team, '--host', '0.0.0.0', '--insecure-http'])).toMatchObject({ host: '0.0.0.0', insecureHttp: true });
  expect(parseServeArgs([...team, '--host', '127.0.0.1'])).toMatchObject({ host: '127.0.0.1' });
  expect(parseServeArgs([...team, '--host', 'team.example', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'])).toMatchObject({
    host: 'team.example',
    tls: { cert: expect.stringMatching(/\/c\.pem$/), key: expect.stringMatching(/\/k\.pem$/) },
  });
  expect(() => parseServeArgs([...team, '--host', 'team.example', '--tls-cert', 'c.pem'])).toThrow('--tls-cert and --tls-key go together');
  expect(() => parseServeArgs(['--host', '0.0.0.0', '--insecure-http'])).toThrow('--host is for serve --team; the local vault is served on 127.0.0.1 only.');
});
