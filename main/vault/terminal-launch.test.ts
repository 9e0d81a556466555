// Resume opens the user's terminal in the session's folder: the chosen one, else the platform's, or a sentence saying why not.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { terminalPlan, type TerminalContext } from './terminal-launch.ts';

const linux = (env: NodeJS.ProcessEnv, have: string[]): TerminalContext => ({ platform: 'linux', env, onPath: (p) => have.includes(p) });

describe('terminalPlan', () => {
  it('runs the command in the folder inside the first terminal the desktop has, leaving a shell open after it', () => {
    const plan = terminalPlan("/home/u/it's here", 'claude --resume abc', linux({ DISPLAY: ':0' }, ['konsole', 'xterm']));
    expect(plan).toEqual({
      name: 'konsole',
      program: 'konsole',
      args: ['--workdir', "/home/u/it's here", '-e', 'sh', '-c', `cd '/home/u/it'\\''s here' && claude --resume abc; exec "\${SHELL:-sh}"`],
    });
    // The line the terminal's shell runs does go to that folder (quotes and all) before the command.
    const line = (plan as { args: string[] }).args
      .at(-1)!
      .replace(/; exec .*$/, '')
      .replace('claude --resume abc', 'pwd');
    expect(spawnSync('sh', ['-c', line.replace("/home/u/it'\\''s here", '/tmp')], { encoding: 'utf8' }).stdout.trim()).toBe('/tmp');
  });

  it('uses SESSION_VAULT_TERMINAL with {cwd} and {command} filled in', () => {
    const plan = terminalPlan(
      '/w',
      'codex resume 1',
      linux({ DISPLAY: ':0', SESSION_VAULT_TERMINAL: 'alacritty --working-directory {cwd} -e sh -c {command}' }, []),
    );
    expect(plan).toMatchObject({
      program: 'alacritty',
      args: ['--working-directory', '/w', '-e', 'sh', '-c', expect.stringContaining("cd '/w' && codex resume 1")],
    });
  });

  it('says why not where there is no display or no terminal, and uses Terminal.app and cmd.exe elsewhere', () => {
    expect(terminalPlan('/w', 'x', linux({}, ['xterm']))).toEqual({ error: expect.stringContaining('no desktop display') });
    expect(terminalPlan('/w', 'x', linux({ WAYLAND_DISPLAY: 'wayland-0' }, []))).toEqual({ error: expect.stringContaining('SESSION_VAULT_TERMINAL') });
    expect(terminalPlan('/w', 'x', { platform: 'darwin', env: {}, onPath: () => false })).toMatchObject({ program: 'osascript' });
    expect(terminalPlan('C:\\w', 'x', { platform: 'win32', env: {}, onPath: () => false })).toMatchObject({
      program: 'cmd.exe',
      args: expect.arrayContaining(['/D', 'C:\\w', '/k', 'x']),
    });
  });
});
