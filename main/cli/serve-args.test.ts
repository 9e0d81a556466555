// `session-vault serve` arguments: the port, local folders, and --team for a team store instead of them.
import { expect, it } from 'vitest';
import { parseServeArgs } from './serve-args.ts';

it('takes --team for a team store, and refuses it beside --root (a team store shows no local folder)', () => {
  expect(parseServeArgs(['--team', 'postgresql://vera@db:5432/team', '--port', '8080', '--no-open'])).toEqual({
    port: 8080,
    roots: [],
    open: false,
    team: 'postgresql://vera@db:5432/team',
    help: false,
  });
  expect(parseServeArgs([]).team).toBeUndefined();
  expect(() => parseServeArgs(['--team', 'postgresql://vera@db/team', '--root', '/tmp'])).toThrow(
    '--team serves a team store; --root adds local folders, which it does not show. Use one or the other.',
  );
});
