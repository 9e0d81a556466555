// The launcher's Electron check: finds an installed binary and never triggers the package's download.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from './binary.ts';

let dir: string;
let pkg: string;
let marker: string;
let from: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sv-electron-bin-'));
  pkg = join(dir, 'node_modules', 'electron');
  marker = join(dir, 'download-attempted');
  from = pathToFileURL(join(dir, 'launch.js')).href;
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fake electron package whose index.js, like the real one, "downloads" when dist/ lacks the binary. */
function installPackage(opts: { pathTxt?: string; binary?: boolean }) {
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'electron', main: 'index.js' }));
  writeFileSync(
    join(pkg, 'index.js'),
    `const fs = require('fs'), path = require('path');
     const bin = process.env.ELECTRON_OVERRIDE_DIST_PATH
       ? path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron')
       : path.join(__dirname, 'dist', 'electron');
     if (!fs.existsSync(bin)) { fs.writeFileSync(${JSON.stringify(marker)}, 'x'); throw new Error('download failed'); }
     module.exports = bin;`,
  );
  if (opts.pathTxt !== undefined) writeFileSync(join(pkg, 'path.txt'), opts.pathTxt);
  if (opts.binary) writeFileSync(join(pkg, 'dist', 'electron'), '#!/bin/sh\n', { mode: 0o755 });
}

describe('findElectronBinary', () => {
  it('returns the executable when the package and its binary are installed', () => {
    installPackage({ pathTxt: 'electron', binary: true });
    expect(findElectronBinary(from, {})).toBe(join(pkg, 'dist', 'electron'));
  });

  it('returns null without a download attempt when the binary was skipped at install', () => {
    installPackage({});
    expect(findElectronBinary(from, {})).toBeNull();
    expect(existsSync(marker)).toBe(false);
  });

  it('returns null without a download attempt when path.txt points at a missing file', () => {
    installPackage({ pathTxt: 'electron' });
    expect(findElectronBinary(from, {})).toBeNull();
    expect(existsSync(marker)).toBe(false);
  });

  it('returns null when electron is not installed at all', () => {
    expect(findElectronBinary(from, {})).toBeNull();
  });

  it('follows ELECTRON_OVERRIDE_DIST_PATH (which the package itself reads), null while that folder is empty', () => {
    installPackage({});
    const dist = join(dir, 'custom-dist');
    mkdirSync(dist);
    process.env.ELECTRON_OVERRIDE_DIST_PATH = dist;
    try {
      expect(findElectronBinary(from, process.env)).toBeNull();
      writeFileSync(join(dist, 'electron'), '#!/bin/sh\n', { mode: 0o755 });
      expect(findElectronBinary(from, process.env)).toBe(join(dist, 'electron'));
    } finally {
      delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
    }
  });
});
