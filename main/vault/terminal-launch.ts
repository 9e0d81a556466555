// Opens a terminal window in a folder running one command (a session's resume command): the user's choice of terminal, else the system's.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program and its arguments, run without a shell. */
export interface TerminalPlan {
  name: string;
  program: string;
  args: string[];
}

export interface TerminalContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** True when a program by this name is on PATH (tests pass their own). */
  onPath(program: string): boolean;
}

/** POSIX single-quoting, for the command line the terminal's shell runs. */
function sh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The shell line run inside the terminal: the command in the folder, and a shell left open after it ends. */
function shellLine(cwd: string, command: string): string {
  return `cd ${sh(cwd)} && ${command}; exec "\${SHELL:-sh}"`;
}

/** Linux terminals, in the order a desktop most likely has them, each with its way to set the folder and run a line. */
const LINUX_TERMINALS: Array<{ program: string; args: (cwd: string, line: string) => string[] }> = [
  { program: 'x-terminal-emulator', args: (_cwd, line) => ['-e', 'sh', '-c', line] },
  { program: 'gnome-terminal', args: (cwd, line) => [`--working-directory=${cwd}`, '--', 'sh', '-c', line] },
  { program: 'konsole', args: (cwd, line) => ['--workdir', cwd, '-e', 'sh', '-c', line] },
  { program: 'xfce4-terminal', args: (cwd, line) => ['--working-directory', cwd, '-x', 'sh', '-c', line] },
  { program: 'kitty', args: (cwd, line) => ['--directory', cwd, 'sh', '-c', line] },
  { program: 'alacritty', args: (cwd, line) => ['--working-directory', cwd, '-e', 'sh', '-c', line] },
  { program: 'wezterm', args: (cwd, line) => ['start', '--cwd', cwd, '--', 'sh', '-c', line] },
  { program: 'xterm', args: (_cwd, line) => ['-e', 'sh', '-c', line] },
];

/**
 * How to open the terminal, or why it cannot be. `SESSION_VAULT_TERMINAL` chooses the terminal: a program and its
 * arguments (split on spaces, no shell), where `{cwd}` is the folder and `{command}` the line to run in a shell.
 */
export function terminalPlan(cwd: string, command: string, ctx: TerminalContext): TerminalPlan | { error: string } {
  const chosen = ctx.env.SESSION_VAULT_TERMINAL?.trim();
  if (chosen) {
    const [program, ...rest] = chosen.split(/\s+/);
    const line = shellLine(cwd, command);
    return { name: program!, program: program!, args: rest.map((a) => a.replaceAll('{cwd}', cwd).replaceAll('{command}', line)) };
  }
  if (ctx.platform === 'darwin') {
    const script = `tell application "Terminal"\nactivate\ndo script ${JSON.stringify(`cd ${sh(cwd)} && ${command}`)}\nend tell`;
    return { name: 'Terminal', program: 'osascript', args: ['-e', script] };
  }
  if (ctx.platform === 'win32') {
    return { name: 'Command Prompt', program: 'cmd.exe', args: ['/d', '/c', 'start', '""', '/D', cwd, 'cmd.exe', '/k', command] };
  }
  if (!ctx.env.DISPLAY && !ctx.env.WAYLAND_DISPLAY)
    return { error: 'There is no desktop display to open a terminal on; copy the command and run it in the folder shown.' };
  const found = LINUX_TERMINALS.find((t) => ctx.onPath(t.program));
  if (!found) {
    return {
      error: `No terminal program was found (looked for ${LINUX_TERMINALS.map((t) => t.program).join(', ')}); set SESSION_VAULT_TERMINAL, or copy the command.`,
    };
  }
  return { name: found.program, program: found.program, args: found.args(cwd, shellLine(cwd, command)) };
}

export function isOnPath(program: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** Starts the terminal detached (it outlives the app); resolves once it started, rejects with the reason it could not. */
export function launchTerminal(plan: TerminalPlan, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(plan.program, plan.args, { cwd, detached: true, stdio: 'ignore' });
    child.once('error', (err) => reject(new Error(`${plan.name} could not be started: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
