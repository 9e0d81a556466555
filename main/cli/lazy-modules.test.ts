// What a one-shot command loads, as a user runs it: list, search and usage load no package only other commands use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../test-support/run-cli.ts';
import { jidoSession } from '../test-support/session-files.ts';

/** Loaded only by the commands that need them: the team store's driver, zips, the MCP SDK, the recorder's ids, Copilot's YAML, secrets, prices. */
const ONLY_WHEN_USED = ['pg', 'yazl', 'yauzl', 'uuid', 'yaml', '@modelcontextprotocol/sdk', '@pydantic/genai-prices'];
const onlyWhenUsed = (name: string) => ONLY_WHEN_USED.includes(name) || name.startsWith('@secretlint/');

/** Preloaded into the command's process: records every package the main thread resolves, written out at exit. */
const RECORDER = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
    if (name) seen.add(name[1]);
    return resolved;
  },
});
if (isMainThread) process.on('exit', () => appendFileSync(process.env.SV_PACKAGES_FILE, JSON.stringify([...seen].sort())));
`;

let base: string;
let root: string;
let recorder: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-lazy-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
  recorder = join(base, 'recorder.mjs');
  await writeFile(recorder, RECORDER);
});
afterAll(async () => rm(base, { recursive: true, force: true }));

/** Runs the command cold (a data folder of its own) and returns its output and the packages its main thread loaded. */
async function loaded(name: string, args: string[], dataDir = `data-${name}`): Promise<{ code: number; stdout: string; packages: string[] }> {
  const file = join(base, `${name}.packages.json`);
  const env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(recorder).href}`, SV_PACKAGES_FILE: file };
  const { code, stdout } = await runCli(args, { base, dataDir, env });
  return { code, stdout, packages: JSON.parse(await readFile(file, 'utf8')) as string[] };
}

describe('a one-shot command loads what it uses', () => {
  it('list, search and usage list and find the session without loading the team store, zip, MCP, recorder or YAML packages', async () => {
    const list = await loaded('list', ['list', '--json', '--root', root, '--no-defaults']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as Array<{ key: string }>).map((s) => s.key)).toEqual(['jido-code:j-1']);
    const search = await loaded('search', ['search', 'nightly', '--json', '--root', root, '--no-defaults']);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { total: number }).total).toBe(1);
    const usage = await loaded('usage', ['usage', 'daily', '--json', '--root', root, '--no-defaults']);
    expect(usage.code).toBe(0);
    for (const run of [list, search, usage]) {
      // The recorder works: the contract's zod is loaded by every command that starts the services.
      expect(run.packages).toContain('zod');
      expect(run.packages.filter(onlyWhenUsed)).toEqual([]);
    }
  });

  it('a quick list from an index nothing changed loads no package while the vault holds no marks, and shows a star once set', async () => {
    const args = ['list', '--json', '--root', root, '--no-defaults'];
    const keysOf = (stdout: string) => (JSON.parse(stdout) as Array<{ key: string; starred: boolean }>).map((s) => [s.key, s.starred]);
    // The first run scans and records what it saw; the second answers from the index.
    expect((await loaded('full-list', args, 'data-quick')).packages).toContain('zod');
    const quick = await loaded('quick-list', args, 'data-quick');
    expect(keysOf(quick.stdout)).toEqual([['jido-code:j-1', false]]);
    expect(quick.packages).toEqual([]);
    expect((await loaded('star', ['tag', 'jido-code:j-1', '--star', '--root', root], 'data-quick')).code).toBe(0);
    // An annotation to read (with its schema, zod): the row shows the star.
    const starred = await loaded('starred-list', args, 'data-quick');
    expect(keysOf(starred.stdout)).toEqual([['jido-code:j-1', true]]);
  });

  it('a quick search from an index nothing changed loads no package, --sort checked included', async () => {
    const args = ['search', 'nightly', '--json', '--sort', 'updated', '--root', root, '--no-defaults'];
    expect((await loaded('full-search', args, 'data-quick-search')).packages).toContain('zod');
    const quick = await loaded('quick-search', args, 'data-quick-search');
    expect(quick.code).toBe(0);
    expect((JSON.parse(quick.stdout) as { results: Array<{ summary: { key: string } }> }).results.map((r) => r.summary.key)).toEqual(['jido-code:j-1']);
    expect(quick.packages).toEqual([]);
    const wrong = await loaded('quick-search-bad-sort', ['search', 'nightly', '--sort', 'newest', '--root', root, '--no-defaults'], 'data-quick-search');
    expect(wrong.code).toBe(2);
  });

  it('--version and --help load no package at all', async () => {
    for (const flag of ['--version', '--help']) {
      const run = await loaded(flag.slice(2), [flag]);
      expect(run.code).toBe(0);
      expect(run.packages).toEqual([]);
    }
  });
});
