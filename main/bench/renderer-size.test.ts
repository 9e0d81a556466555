// The first-load walk on a tiny fake build: the page's module scripts and preloads plus their static imports, never a lazy chunk.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../test-support/temp-dir.ts';
import { measureRenderer, pageScripts } from './renderer-size.ts';

const CHUNKS: Record<string, string> = {
  'index-a.js': `import{a as t}from"./vendor-b.js";import"./shared-c.js";const s='import"./not-a-chunk.js"';const m=()=>import("./markdown-d.js");export{m,s,t};`,
  'vendor-b.js': `export const a="x";`,
  'shared-c.js': `export*from"./deep-e.js";`,
  'deep-e.js': `export const e=1;`,
  'markdown-d.js': `import{a}from"./vendor-b.js";export const md=a+"$ZodType";`,
};

function fakeBuild(): string {
  const root = testTempDir('renderer-size-');
  mkdirSync(join(root, 'assets'));
  for (const [name, code] of Object.entries(CHUNKS)) writeFileSync(join(root, 'assets', name), code);
  writeFileSync(join(root, 'assets', 'index.css'), 'body{margin:0}');
  writeFileSync(
    join(root, 'index.html'),
    `<!doctype html><html><head><script type="module" crossorigin src="./assets/index-a.js"></script>
<link rel="modulepreload" crossorigin href="./assets/vendor-b.js"><link rel="stylesheet" href="./assets/index.css"></head></html>`,
  );
  return root;
}

const sizes = (names: string[]) => ({
  bytes: names.reduce((sum, n) => sum + Buffer.byteLength(CHUNKS[n]!), 0),
  gzipBytes: names.reduce((sum, n) => sum + gzipSync(CHUNKS[n]!).length, 0),
});

describe('measureRenderer', () => {
  it('sums the entry and everything it imports statically, not the lazy chunk or a string that looks like an import', () => {
    const size = measureRenderer(fakeBuild());
    const first = ['deep-e.js', 'index-a.js', 'shared-c.js', 'vendor-b.js'];
    expect(size?.firstLoad).toEqual({ files: first.map((n) => `assets/${n}`), ...sizes(first) });
    expect(size?.all).toEqual({
      files: Object.keys(CHUNKS)
        .sort()
        .map((n) => `assets/${n}`),
      ...sizes(Object.keys(CHUNKS)),
    });
    expect(size?.zodChunks).toEqual(['assets/markdown-d.js']);
  });

  it('reads module scripts and preloads whatever the attributes order, and nothing else', () => {
    expect(
      pageScripts(
        `<script src="./a.js" type="module"></script><script src="./classic.js"></script><link href="./b.js" rel="modulepreload"><link rel="stylesheet" href="./c.css">`,
      ),
    ).toEqual(['./a.js', './b.js']);
  });

  it('says there is no build when out/renderer has no index.html', () => {
    expect(measureRenderer(testTempDir('renderer-size-none-'))).toBeNull();
  });
});
