// The main bundle's built-ins taken through process.getBuiltinModule: chunks still work, and a quick command no longer loads what the ES module facades did.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointAtShims, shimFileName, shimSource } from './node-builtins-plugin.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-builtins-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Writes `chunks` as the plugin leaves them (shims beside them) and runs `entry` in a fresh Node; returns its stdout. */
async function runBuilt(chunks: Record<string, string>, entry: string): Promise<string> {
  const used = new Map<string, Set<string>>();
  for (const [name, code] of Object.entries(chunks)) await writeFile(join(dir, name), pointAtShims(code, used));
  for (const [specifier, names] of used) await writeFile(join(dir, shimFileName(specifier)), shimSource(specifier, names));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  return execFileSync(process.execPath, [join(dir, entry)], { encoding: 'utf8' });
}

describe('built-ins without ES module facades', () => {
  it('rewrites only the import declarations of built-ins, keeping local names, defaults and namespaces', () => {
    const used = new Map<string, Set<string>>();
    const code = [
      '#!/usr/bin/env node',
      'import { t as UsageError } from "./usage-error-x.js";',
      'import { readFileSync as read, statSync } from "node:fs";',
      'import * as path from "node:path";',
      'import zlib, { crc32 } from "node:zlib";',
      'import "node:os";',
      'const later = await import("node:url");',
      'const text = "import { x } from \\"node:fs\\"";',
    ].join('\n');
    // The shims come first, before the chunk's own imports (see the cycle below); the built-ins' lines are left empty.
    expect(pointAtShims(code, used).split('\n')).toEqual([
      '#!/usr/bin/env node',
      'import { readFileSync as read, statSync } from "./node-builtin-fs.js";',
      'import path from "./node-builtin-path.js";',
      'import zlib, { crc32 } from "./node-builtin-zlib.js";',
      'import "./node-builtin-os.js";',
      'import { t as UsageError } from "./usage-error-x.js";',
      '',
      '',
      '',
      '',
      'const later = await import("node:url");',
      'const text = "import { x } from \\"node:fs\\"";',
    ]);
    expect(Object.fromEntries([...used].map(([k, v]) => [k, [...v].sort()]))).toEqual({
      'node:fs': ['readFileSync', 'statSync'],
      'node:path': ['default'],
      'node:zlib': ['crc32', 'default'],
      'node:os': [],
    });
    expect(shimFileName('node:fs/promises')).toBe('node-builtin-fs-promises.js');
  });

  it('built chunks run as before, through chunks that import each other in a cycle', async () => {
    const out = await runBuilt(
      {
        // a.js runs b.js first, and b.js calls into a.js at load time: a.js's built-ins must be there already.
        'a.js':
          'import { fromB } from "./b.js";\nimport { join, sep } from "node:path";\nexport function joined() { return join("x", "y"); }\nconsole.log(fromB, sep);',
        'b.js': 'import { joined } from "./a.js";\nimport * as os from "node:os";\nexport const fromB = `${joined()} ${typeof os.tmpdir}`;',
      },
      'a.js',
    );
    expect(out.trim()).toBe('x/y function /');
  });

  it('taking parseArgs from node:util no longer loads worker_threads and streams (its facade did)', async () => {
    const probe =
      'import { parseArgs } from "node:util";\nconsole.log(JSON.stringify({ ok: parseArgs({ args: ["--a"], options: { a: { type: "boolean" } } }).values.a, worker: process.moduleLoadList.includes("NativeModule worker_threads") }));';
    const facade = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' })) as { worker: boolean };
    expect(facade.worker).toBe(true);
    expect(JSON.parse(await runBuilt({ 'util.js': probe }, 'util.js'))).toEqual({ ok: true, worker: false });
  });
});
