// Packs the app with build/electron-builder.yml (Linux dir target, stub Electron) and checks what ships in app.asar.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractFile, listPackage } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SAMPLE_FILES, DEMO_SAMPLES_RESOURCE } from '../main/demo/demo-samples.ts';

const projectDir = resolve(import.meta.dirname, '..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const [OFF, ON] = [48, 49];

/**
 * A shell script standing in for the Electron binary. It carries a fuse wire (sentinel, version 1,
 * eight fuses in Electron's shipped defaults) so electron-builder's fuse flipping runs for real.
 */
function writeStubElectron(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const script = '#!/bin/sh\necho "stub Electron used by build/packaging.test.ts" >&2\nexit 1\n# ';
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001'), Buffer.from('\n')]);
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from(script), wire]));
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), '45.4.1');
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: projectDir, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

describe('packaged app (electron-builder --linux dir)', () => {
  let work: string;
  let appDir: string;
  let entries: string[];

  beforeAll(() => {
    // `npm test` runs unit tests before `npm run build`; a fresh checkout has no out/ yet.
    if (!existsSync(join(projectDir, 'out', 'main', 'index.js'))) {
      console.log('out/ is missing: running electron-vite build before packing.');
      run(join(projectDir, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), ['build'], 'electron-vite build');
    }
    work = mkdtempSync(join(tmpdir(), 'sv-pack-'));
    const dist = join(work, 'electron-dist');
    writeStubElectron(dist);
    const started = performance.now();
    run(
      join(projectDir, 'node_modules', 'electron-builder', 'cli.js'),
      [
        '--config',
        'build/electron-builder.yml',
        '--linux',
        'dir',
        `-c.electronDist=${dist}`,
        `-c.directories.output=${join(work, 'release')}`,
        '--publish',
        'never',
      ],
      'electron-builder',
    );
    console.log(`electron-builder --linux dir took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    appDir = join(work, 'release', 'linux-unpacked');
    entries = listPackage(join(appDir, 'resources', 'app.asar'), { isPack: false }).map((e) => e.replaceAll('\\', '/'));
  }, 240_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships the built bundles, package.json and the production dependencies', () => {
    for (const file of [
      '/out/main/index.js',
      '/out/main/cli.js',
      '/out/main/read-worker.js',
      // The chunks take Node's built-ins from these (build/node-builtins-plugin.ts): index.js imports node:path's.
      '/out/main/node-builtin-path.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/package.json',
      '/node_modules/zod/package.json',
      '/node_modules/yazl/package.json',
      // yazl's own dependency: without it no bundle can be written (and its checksum is swapped for zlib's).
      '/node_modules/buffer-crc32/package.json',
    ]) {
      expect(entries, file).toContain(file);
    }
    const manifest = JSON.parse(extractFile(join(appDir, 'resources', 'app.asar'), 'package.json').toString('utf8'));
    expect(manifest.main).toBe('out/main/index.js');
    // The session JSON Schema sits beside the app for other tools (seed 000: sessions validate against it).
    const schema = JSON.parse(readFileSync(join(appDir, 'resources', 'session.schema.json'), 'utf8'));
    expect(schema.$schema).toContain('json-schema.org');
  });

  it("carries the demo set's sample of every format beside app.asar, byte for byte", () => {
    for (const file of DEMO_SAMPLE_FILES) {
      const shipped = join(appDir, 'resources', DEMO_SAMPLES_RESOURCE, ...file.split('/'));
      expect(existsSync(shipped), file).toBe(true);
      expect(readFileSync(shipped).equals(readFileSync(join(projectDir, 'samples', ...file.split('/')))), file).toBe(true);
    }
    expect(existsSync(join(appDir, 'resources', DEMO_SAMPLES_RESOURCE, 'MANIFEST.md'))).toBe(true);
  });

  it('ships no sources, tests, fixtures, source maps or development-only packages', () => {
    const offenders = entries.filter(
      (e) =>
        /^\/(main|renderer|shared|preload|e2e|build)(\/|$)/.test(e) ||
        /\.(test|spec)\.[cm]?[jt]sx?$/.test(e) ||
        /\.tsx?$/.test(e) ||
        /\.map$/.test(e) ||
        /\/fixtures(\/|$)/.test(e) ||
        /^\/node_modules\/(react|react-dom|zustand|electron|vite|vitest|typescript|@playwright)(\/|$)/.test(e) ||
        e === '/out/main/launch.js',
    );
    expect(offenders).toEqual([]);
  });

  it('flips the hardening fuses in the packaged executable', async () => {
    const wire = await getCurrentFuseWire(join(appDir, 'session-vault'));
    // Fuse order: runAsNode, cookieEncryption, nodeOptions, nodeCliInspect, asarIntegrity, onlyLoadAppFromAsar, v8Snapshot, fileProtocolPrivileges.
    expect([0, 1, 2, 3, 4, 5, 7].map((i) => wire[i as keyof typeof wire])).toEqual([OFF, ON, OFF, OFF, ON, ON, OFF]);
  });
});
