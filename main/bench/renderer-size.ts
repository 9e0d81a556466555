// The renderer's first load, measured on the build: the JavaScript out/renderer/index.html fetches before anything lazy (entry and static imports), raw and gzipped.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'rolldown/parseAst';

/** Issue #21: the first load's JavaScript (minified, before compression) under 450 KB. */
export const FIRST_LOAD_TARGET_KB = 450;

export interface JsFigures {
  files: string[];
  bytes: number;
  gzipBytes: number;
}

export interface RendererSize {
  firstLoad: JsFigures;
  all: JsFigures;
  /** Chunks holding zod's code (its `$ZodType` constructor name survives minification); none is the goal. */
  zodChunks: string[];
}

/** The module scripts and modulepreloads an HTML page names, as paths relative to its folder. */
export function pageScripts(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
    if (tag.startsWith('<script') && attr('type') === 'module' && attr('src')) found.push(attr('src')!);
    if (tag.startsWith('<link') && attr('rel') === 'modulepreload' && attr('href')) found.push(attr('href')!);
  }
  return found;
}

/** The relative modules a chunk imports statically (`import … from`, `export … from`); `import()` is left out. */
export function staticImports(code: string, file: string): string[] {
  const specifiers: string[] = [];
  for (const node of parseAst(code, { sourceType: 'module' }, file).body) {
    if (node.type === 'ImportDeclaration' || ((node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') && node.source)) {
      const value = node.source?.value;
      if (typeof value === 'string' && value.startsWith('.')) specifiers.push(value);
    }
  }
  return specifiers;
}

function figures(root: string, files: string[]): JsFigures {
  const bytes = files.map((f) => readFileSync(join(root, f)));
  return {
    files,
    bytes: bytes.reduce((sum, b) => sum + b.length, 0),
    gzipBytes: bytes.reduce((sum, b) => sum + gzipSync(b).length, 0),
  };
}

function jsFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.m?js$/.test(f))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

/** Walks from index.html through every static import; null when there is no build at `root`. */
export function measureRenderer(root: string): RendererSize | null {
  const page = join(root, 'index.html');
  if (!existsSync(page)) return null;
  const seen = new Set<string>();
  const queue = pageScripts(readFileSync(page, 'utf8')).map((src) => resolve(root, src.split(/[?#]/)[0]!));
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'), file)) queue.push(resolve(dirname(file), spec.split(/[?#]/)[0]!));
  }
  const all = jsFiles(root);
  return {
    firstLoad: figures(root, [...seen].map((f) => relative(root, f).split('\\').join('/')).sort()),
    all: figures(root, all),
    zodChunks: all.filter((f) => readFileSync(join(root, f), 'utf8').includes('$ZodType')),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printRendererSize(size: RendererSize | null): void {
  console.log(`\nRenderer bundle (target: first load's JavaScript < ${FIRST_LOAD_TARGET_KB} KB minified)`);
  if (!size) {
    console.log('no build in out/renderer (npm run bench builds one)');
    return;
  }
  const { firstLoad, all, zodChunks } = size;
  const verdict = firstLoad.bytes < FIRST_LOAD_TARGET_KB * 1024 ? 'under' : 'OVER';
  console.log(
    `first load   ${kb(firstLoad.bytes).padStart(10)}  gzip ${kb(firstLoad.gzipBytes).padStart(9)}  ${firstLoad.files.length} chunk(s)  ${verdict} the target (${firstLoad.files.join(', ')})`,
  );
  console.log(`all chunks   ${kb(all.bytes).padStart(10)}  gzip ${kb(all.gzipBytes).padStart(9)}  ${all.files.length} chunk(s)`);
  console.log(`zod          ${zodChunks.length ? `in ${zodChunks.join(', ')}` : 'in no chunk'}`);
}
