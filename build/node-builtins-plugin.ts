// Build plugin for the main bundle: its chunks take Node's built-in modules through small leaf chunks that call process.getBuiltinModule, not by importing them as ES modules (whose facades load every lazy export).
import { isBuiltin } from 'node:module';
import { parseAst } from 'rolldown/parseAst';
import type { OutputChunk, Plugin } from 'rolldown';

/**
 * Why: importing a built-in as an ES module makes Node build its facade, which reads every export, lazy ones
 * included. `node:util`'s loads parseArgs, TextDecoder and, through them, worker_threads; `node:fs`'s loads
 * fs/promises and readline. The CLI's quick `list --json` loaded 54 of Node's modules beyond what `node -e 0` loads;
 * with the shims below, 32.
 * process.getBuiltinModule (Node >= 20.16) hands back the module itself, lazy exports unread.
 *
 * How: every static import of a built-in (`import { a as b } from "node:x"`, `import * as x`, `import x`) is pointed
 * at a chunk of its own, `node-builtin-x.js`, that takes the module once and exports what the bundle imports of it.
 * Those chunks import nothing, and each chunk imports them before anything else, so they have run before any code
 * of the chunk can: cycles between the bundle's chunks included, as with the built-ins themselves.
 */
export function nodeBuiltinsPlugin(): Plugin {
  return {
    name: 'session-vault:node-builtins',
    generateBundle(_options, bundle) {
      const used = new Map<string, Set<string>>();
      const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
      for (const chunk of chunks) chunk.code = pointAtShims(chunk.code, used);
      for (const [specifier, names] of used) {
        this.emitFile({ type: 'asset', fileName: shimFileName(specifier), source: shimSource(specifier, names) });
      }
    },
  };
}

/** `node:fs/promises` -> `node-builtin-fs-promises.js` (the bundle's output is flat: chunks sit side by side). */
export function shimFileName(specifier: string): string {
  return `node-builtin-${specifier.replace(/^node:/, '').replace(/[^A-Za-z0-9]+/g, '-')}.js`;
}

/** A shim chunk: the module once, then each name the bundle imports (`default`: the module itself). */
export function shimSource(specifier: string, names: ReadonlySet<string>): string {
  const id = JSON.stringify(specifier.startsWith('node:') ? specifier : `node:${specifier}`);
  const lines = [`// ${specifier} for the bundle's chunks, taken without building its ES module facade (build/node-builtins-plugin.ts).`];
  lines.push(`const builtin = process.getBuiltinModule(${id});`, 'export default builtin;');
  for (const name of [...names].sort()) if (name !== 'default') lines.push(`export const ${name} = builtin.${name};`);
  return `${lines.join('\n')}\n`;
}

interface Specifier {
  type: string;
  local: { name: string };
  imported?: { name?: string; value?: string };
}

/**
 * The chunk with each static import of a built-in pointed at its shim; `used` gains the names imported. Only the
 * import declarations change (the rest of the chunk, dynamic imports included, stays as written).
 */
export function pointAtShims(code: string, used: Map<string, Set<string>>): string {
  const program = parseAst(code) as unknown as {
    body: Array<{ type: string; start: number; end: number; source?: { value: string }; specifiers?: Specifier[] }>;
  };
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const shimImports: string[] = [];
  const firstImport = program.body.find((s) => s.type === 'ImportDeclaration');
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || !statement.source || !isBuiltin(statement.source.value)) continue;
    const specifier = statement.source.value;
    const names = used.get(specifier) ?? new Set<string>();
    used.set(specifier, names);
    const from = JSON.stringify(`./${shimFileName(specifier)}`);
    const parts: string[] = [];
    const named: string[] = [];
    for (const s of statement.specifiers ?? []) {
      if (s.type === 'ImportSpecifier') {
        const imported = s.imported?.name ?? s.imported?.value ?? s.local.name;
        if (!/^[A-Za-z_$][\w$]*$/.test(imported)) throw new Error(`${specifier}: cannot take the export ${JSON.stringify(imported)} by name`);
        names.add(imported);
        named.push(imported === s.local.name ? imported : `${imported} as ${s.local.name}`);
      } else {
        // A default or namespace import: the module itself, every export on it as on the built-in.
        names.add('default');
        parts.push(s.local.name);
      }
    }
    if (parts.length > 1) throw new Error(`${specifier}: a default and a namespace import in one declaration`);
    if (named.length) parts.push(`{ ${named.join(', ')} }`);
    shimImports.push(parts.length ? `import ${parts.join(', ')} from ${from};` : `import ${from};`);
    edits.push({ start: statement.start, end: statement.end, text: '' });
  }
  // The shims first, before the chunk's other imports: in a cycle between chunks, another chunk's code can call
  // this one's functions while this one's later imports are still to run, never before its first ones.
  if (firstImport && shimImports.length) edits.unshift({ start: firstImport.start, end: firstImport.start, text: `${shimImports.join('\n')}\n` });
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
