// Runs Electronegativity (Electron security lint) over main/, preload/ and renderer/ with no network; `npm run lint:electron`.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface ElectronegativityIssue {
  id: string;
  file: string;
  line: number;
  severity: string;
  confidence: string;
}

/** The one finding every app gets: "check your Electron version for security fixes" (informational). */
export const VERSION_NOTICE = 'ELECTRON_VERSION_JSON_CHECK';

const ROOT = join(import.meta.dirname, '..');
const SCANNED = ['main', 'preload', 'renderer', 'package.json'];
/** It asks GitHub for the newest releases' security fixes; offline that only fails, so it is not run. */
const ONLINE_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

interface RawIssue {
  id: string;
  file: string;
  location: { line: number };
  severity: { name?: string; format(): string };
  confidence: { name?: string; format(): string };
}
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<{ issues: RawIssue[]; errors: { file: string; message: string }[] }>;

/**
 * The tool fetches translations with `got` before scanning (and its retry then crashes the process when
 * offline): hand it a `got` that fails at once, so it falls back to its bundled English texts.
 */
function loadOffline(): Run {
  const require = createRequire(import.meta.url);
  const runnerPath = require.resolve('@doyensec/electronegativity/dist/runner.js');
  const gotPath = createRequire(runnerPath).resolve('got');
  const offlineGot = new Module(gotPath);
  offlineGot.exports = () => Promise.reject(new Error('offline: Electronegativity runs without network here'));
  offlineGot.loaded = true;
  (require.cache as Record<string, Module>)[gotPath] = offlineGot;
  return require(runnerPath) as Run;
}

/** Scans a copy of the app's sources (never node_modules or build output) and lists what it reports. */
export async function runElectronegativity(): Promise<ElectronegativityIssue[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sv-electronegativity-'));
  try {
    for (const name of SCANNED) await cp(join(ROOT, name), join(dir, name), { recursive: true, filter: (src) => basename(src) !== 'node_modules' });
    const run = loadOffline();
    const log = console.log;
    console.log = () => undefined; // "Could not retrieve updated translations": expected offline
    let result;
    try {
      result = await run({ input: dir, excludeFromScan: ONLINE_CHECKS, isRelative: true, isVerbose: false, parserPlugins: [] }, false);
    } finally {
      console.log = log;
    }
    const unparsed = result.errors.map((e) => `${e.file}: ${e.message}`);
    if (unparsed.length) throw new Error(`Electronegativity could not parse:\n${unparsed.join('\n')}`);
    return result.issues.map((i) => ({
      id: i.id,
      file: i.file,
      line: i.location.line,
      severity: i.severity.format(),
      confidence: i.confidence.format(),
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const issues = (await runElectronegativity()).filter((i) => i.id !== VERSION_NOTICE);
  for (const i of issues) console.log(`${i.id}  ${i.file}:${i.line}  ${i.severity} | ${i.confidence}`);
  console.log(
    issues.length ? `${issues.length} finding(s) besides the Electron version notice.` : 'Electronegativity: nothing besides the Electron version notice.',
  );
  process.exitCode = issues.length ? 1 : 0;
}
