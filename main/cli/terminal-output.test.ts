// What the CLI prints from a hostile session: no escape sequence, control character or bidi override reaches the terminal.
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jidoSession } from '../test-support/session-files.ts';

/** Sets the window title, clears the screen, hides a link's target, reverses text, 8-bit CSI, bell, backspace, carriage return. */
const EVIL = 'Deploy\x1b]0;pwned\x07 fix\x1b[2J\x1b[31m now \x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\ \u202egpj.exe\u202c \x9b31mred\x07\x08\rtail';
/** Anything a terminal acts on: C0 but newline, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this does
const TERMINAL_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let base: string;
let root: string;

const run = (args: string[]): Promise<CliRun> => runCli(args, { base });

/** Nothing a terminal acts on; in text output the sequences' payloads (a window title, a link target) are gone too. */
function expectClean(output: { stdout: string; stderr: string }, { json = false } = {}): void {
  for (const text of [output.stdout, output.stderr]) {
    expect(text).not.toMatch(TERMINAL_CONTROL);
    if (json) continue;
    expect(text).not.toContain('pwned');
    expect(text).not.toContain('evil.example');
  }
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-cli-terminal-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'e-1.json'), jidoSession('e-1', EVIL));
  await writeFile(join(root, '.jido_code', 'sessions', 'e-2.json'), jidoSession('e-2', `${EVIL} again`));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('CLI output from hostile sessions', () => {
  it('list prints the title without escape sequences, keeping its words', async () => {
    const out = await run(['list', '--root', root, '--no-defaults']);
    expect(out.code).toBe(0);
    expectClean(out);
    expect(out.stdout).toContain('Deploy fix now docs');
  });

  it('list --json gives the exact title back to a JSON reader, with nothing raw a terminal acts on', async () => {
    const out = await run(['list', '--json', '--root', root, '--no-defaults']);
    expectClean(out, { json: true });
    const sessions = JSON.parse(out.stdout) as Array<{ key: string; projectPath: string }>;
    expect(sessions.find((s) => s.key === 'jido-code:e-1')?.projectPath).toBe(`/home/dev/${EVIL}`);
  });

  it('search prints titles and snippets without escape sequences', async () => {
    const out = await run(['search', 'Deploy', '--root', root, '--no-defaults']);
    expect(out.code).toBe(0);
    expectClean(out);
    expect(out.stdout).toContain('jido-code:e-1');
    expect(out.stdout).toContain('»Deploy«');
    const facets = await run(['search', '', '--facets', '--root', root, '--no-defaults']);
    expectClean(facets);
  });

  it('diff prints both sides without escape sequences', async () => {
    const out = await run(['diff', 'jido-code:e-1', 'jido-code:e-2', '--all', '--root', root, '--no-defaults']);
    expect(out.code).toBe(0);
    expectClean(out);
    expect(out.stdout).toContain('Deploy fix now docs');
  });

  it('vault commands print tags, notes and keys without escape sequences', async () => {
    const tag = await run(['tag', 'e-1', '--add', 'ok\x1b]0;pwned\x07tag', '--root', root]);
    expect(tag.code).toBe(0);
    expectClean(tag);
    expect(tag.stdout).toContain('jido-code:e-1: oktag');
    const keep = await run(['keep', 'e-1', '--root', root]);
    expect(keep.code).toBe(0);
    expectClean(keep);
  });

  it('an error naming what the user typed prints it without escape sequences', async () => {
    const out = await run(['tag', 'nope\x1b]0;pwned\x07\x1b[2J', '--root', root]);
    expect(out.code).toBe(1);
    expectClean(out);
    expect(out.stderr).toContain('No session matches "nope"');
  });

  it('validate prints a file name and the problems it quotes without escape sequences', async () => {
    const file = join(base, 'bad\x1b[2Jname.json');
    await writeFile(file, JSON.stringify({ id: EVIL, chat: [{ role: EVIL }] }));
    const out = await run(['validate', file]);
    expect(out.code).toBe(1);
    expectClean(out);
    expect(out.stdout).toContain('badname.json: invalid');
  });
});
