// On an older Node.js, `npm start`, `npm run serve` and `session-vault` say which version they need instead of dying with a stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Debian's Node.js 20, which these machines ship beside the project's Node 24. */
const OLD_NODE = ['/usr/bin/node', '/bin/node'].find((p) => existsSync(p) && !spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout.startsWith('v24'));

describe('the Node.js version check', () => {
  it('lets Node.js 24 through', () => {
    const run = spawnSync(process.execPath, ['build/check-node.js'], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  it.skipIf(!OLD_NODE)('stops an older Node.js with one sentence naming the version needed and the one found, for the scripts and the command', () => {
    const version = spawnSync(OLD_NODE!, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    for (const script of ['build/check-node.js', 'bin/session-vault.js']) {
      const run = spawnSync(OLD_NODE!, [script, 'list'], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(
        `Session Vault needs Node.js 24 or newer (found ${version}): its index uses the built-in node:sqlite. Install Node.js 24 (the repository's .nvmrc names it) and run the command again.`,
      );
    }
  });
});
