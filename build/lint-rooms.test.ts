// The boundary rules in eslint.config.js, checked room by room: every folder under main/ is either a host (app, transports, CLI, Electron shell, bench, test support) or a service room the rules hold to.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..');

/** The folders under main/ that host the services; every other folder is a service room. */
const HOSTS = ['app', 'transport', 'cli', 'electron', 'bench', 'test-support'];

const rooms = (): string[] =>
  readdirSync(join(repo, 'main'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !HOSTS.includes(entry.name))
    .map((entry) => entry.name)
    .sort();

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repo });
});

/** What the boundary rules say of `code` linted as the file at `path` (relative to the repository): each refusal's line and message. */
async function refusals(path: string, code: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repo, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map(({ line, message }) => ({ line, message }));
}

/** The lines of `code` (1-based) whose import the boundary rules refuse. */
async function refusedLines(path: string, code: string): Promise<number[]> {
  const lines = (await refusals(path, code)).map((r) => r.line);
  return [...new Set(lines)].sort((a, b) => a - b);
}

describe('main/ is made of rooms', () => {
  it('holds folders only: no file loose at the top of main/', () => {
    const loose = readdirSync(join(repo, 'main'), { withFileTypes: true }).filter((entry) => !entry.isDirectory());
    expect(loose.map((entry) => entry.name)).toEqual([]);
  });

  it('every host folder the rules name exists (a renamed host would leave its rules pointing nowhere)', () => {
    const folders = readdirSync(join(repo, 'main'));
    expect(HOSTS.filter((host) => !folders.includes(host))).toEqual([]);
  });
});

describe('boundary lint rules', () => {
  it('refuse, in every service room, imports of the composition, the transports, the CLI and the Electron shell', async () => {
    const found = rooms();
    expect(found.length).toBeGreaterThan(10);
    const code = [
      "import { createServices } from '../app/services.ts';",
      "import { createDispatch } from '../transport/dispatch.ts';",
      "import { main } from '../cli/cli.ts';",
      "import { openWindow } from '../electron/window.ts';",
      "import { app } from 'electron';",
      'export const used = [createServices, createDispatch, main, openWindow, app];',
    ].join('\n');
    for (const room of found) {
      expect({ room, refused: await refusedLines(`main/${room}/probe.ts`, code) }).toEqual({ room, refused: [1, 2, 3, 4, 5] });
    }
  });

  it('let a service room import another service room and the shared contract', async () => {
    const code =
      "import { atomicWrite } from '../fs/atomic-write.ts';\nimport type { Session } from '../../shared/session.ts';\nexport const f = (s: Session) => atomicWrite(s.id, '');\n";
    for (const room of rooms()) expect({ room, refused: await refusedLines(`main/${room}/probe.ts`, code) }).toEqual({ room, refused: [] });
  });

  it('let only the Electron shell import electron or main/electron/', async () => {
    expect(await refusedLines('main/electron/probe.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
    for (const host of ['app', 'transport', 'cli', 'bench']) {
      const refused = await refusedLines(
        `main/${host}/probe.ts`,
        "import { app } from 'electron';\nimport { openWindow } from '../electron/window.ts';\nexport const a = [app, openWindow];\n",
      );
      expect({ host, refused }).toEqual({ host, refused: [1, 2] });
    }
  });

  it('keep Node, main/ and zod code out of the renderer, and shared/ to zod and itself', async () => {
    const renderer = await refusedLines(
      'renderer/probe.ts',
      "import { readFile } from 'node:fs';\nimport { z } from 'zod';\nimport { api } from '../shared/api.ts';\nimport { x } from '../main/fs/atomic-write.ts';\nexport const a = [readFile, z, api, x];\n",
    );
    expect(renderer).toEqual([1, 2, 3, 4]);
    expect(
      await refusedLines(
        'renderer/probe.ts',
        "import type { z } from 'zod';\nimport type { Api } from '../shared/api.ts';\nexport type A = [z.ZodType, Api];\n",
      ),
    ).toEqual([]);
    const shared = await refusedLines(
      'shared/probe.ts',
      "import { readFile } from 'node:fs';\nimport { x } from '../main/fs/atomic-write.ts';\nexport const a = [readFile, x];\n",
    );
    expect(shared).toEqual([1, 2]);
  });

  it('name the right reason: a renderer import from main/fs/ is refused as main/, not as Node\u2019s fs', async () => {
    const said = await refusals(
      'renderer/probe.ts',
      "import { x } from '../main/fs/atomic-write.ts';\nimport { y } from './stream/y.ts';\nexport const a = [x, y];\n",
    );
    expect(said).toEqual([{ line: 1, message: expect.stringContaining('never imports main/') as string }]);
  });
});

describe('ARCHITECTURE.md', () => {
  const architecture = () => readFileSync(join(repo, 'ARCHITECTURE.md'), 'utf8');
  const folders = (dir: string) =>
    readdirSync(join(repo, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);

  it('names every folder of main/, so a newcomer finds each room described', () => {
    const text = architecture();
    expect(folders('main').filter((room) => !text.includes(`\`${room}/\``) && !text.includes(`\`main/${room}/\``))).toEqual([]);
  });

  it('names every feature folder of renderer/components/', () => {
    const text = architecture();
    expect(folders('renderer/components').filter((feature) => !text.includes(`components/${feature}/`))).toEqual([]);
  });
});

describe('eslint.config.js', () => {
  it('names no file that is not in the repository (a design document outside it, say)', () => {
    const text = readFileSync(join(repo, 'eslint.config.js'), 'utf8');
    const named = [...text.matchAll(/\b([\w./-]+\.md)\b/g)].map((m) => m[1]!);
    expect(named.filter((file) => !existsSync(join(repo, file)))).toEqual([]);
  });
});
