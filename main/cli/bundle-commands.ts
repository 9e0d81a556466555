// `session-vault export|import`: share sessions as a redacted zip bundle (or Markdown / HTML) and bring bundles into the vault.
import type { ParseArgsConfig } from 'node:util';
import { extname, resolve } from 'node:path';
import type { Finding } from '../bundle/finding.ts';
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import { exportBundle, scanBundle, type BundleProgress } from '../bundle/export-bundle.ts';
import { exportDocument, renderDocument, type DocumentFormat } from '../bundle/export-document.ts';
import { importBundle, type ImportReport } from '../bundle/import-bundle.ts';
import type { Services } from '../app/services.ts';
import { withOneShotServices } from './one-shot.ts';
import { resolveSessionRef } from './resolve-session.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeDeep, sanitizeForTerminal, terminalJson } from './terminal-text.ts';

const COMMON = `  --root DIR       also read sessions below DIR (repeatable; not saved)
  --no-defaults    skip the tools' default folders (as list and search do)
  --json           print the result as JSON
  -h, --help       show this help`;

export const BUNDLE_HELP: Record<string, string> = {
  export: `Usage: session-vault export <session>... -o FILE [options]
       session-vault export --query TEXT -o FILE [options]

Shares sessions as one zip bundle (source files, normalized session.json, manifest with checksums),
or one session as Markdown (ProjectHub's vault style) or a self-contained HTML page.
Everything that goes out is first scanned for secrets (secretlint's recommended rules, private keys,
JWTs, and the values of your environment variables); each finding is printed and redacted.
<session> is a key (claude-code:…) or an id.

Options:
  -o, --output FILE   where to write (required unless --dry-run)
  --format FORMAT     zip | md | html (default: from the extension of FILE, else zip)
  --query TEXT        every session whose title, project, branch, id or summary contains TEXT
  --no-redact         copy the sources byte-for-byte, secrets included
  --keep ID           leave the finding with this id as it is: a false positive (repeatable)
  --dry-run           scan and print the findings; write nothing
  --no-children       leave out sub-agent sessions (included by default)
${COMMON}
`,
  import: `Usage: session-vault import <file.zip> [--as-copy]

Checks the whole bundle before writing anything (manifest, every checksum and size, every path,
no links, no duplicates, no encryption, size and compression limits), then moves each session into
the vault. A session the vault already has is skipped and reported, never overwritten.

Options:
  --as-copy        import a session that already exists under a new key (<key>~copy-N) instead
${COMMON}
`,
};

const BASE = {
  root: { type: 'string', multiple: true },
  // --no-defaults (these commands parse --no-X as X false, for --no-redact and --no-children).
  defaults: { type: 'boolean', default: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const EXPORT_OPTIONS = {
  ...BASE,
  output: { type: 'string', short: 'o' },
  format: { type: 'string' },
  query: { type: 'string' },
  redact: { type: 'boolean', default: true },
  keep: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  children: { type: 'boolean', default: true },
} as const satisfies ParseArgsConfig['options'];

const IMPORT_OPTIONS = { ...BASE, 'as-copy': { type: 'boolean' } } as const satisfies ParseArgsConfig['options'];

function parse<O extends ParseArgsConfig['options']>(command: 'export' | 'import', argv: string[], options: O) {
  return parseCommandArgs(argv, options, BUNDLE_HELP[command] ?? '', { negative: true });
}

/** Keys for the sessions named (key, id or a unique start of one) or matched by --query. */
async function resolveKeys(services: Services, given: string[], query: string | undefined): Promise<string[]> {
  const { sessions } = await services.client.listSessions({ includeChildren: true });
  if (query !== undefined) {
    const { sessions: hits } = await services.client.listSessions({ text: query });
    const readable = hits.filter((s) => !s.unreadable).map((s) => s.key);
    if (!readable.length) throw new Error(`No session matches "${query}".`);
    return readable;
  }
  // As every other command takes a session: its key, its id, or a unique start of one (resolve-session.ts).
  return given.map((g) => resolveSessionRef(g, sessions));
}

export function formatFindings(findings: Finding[]): string {
  if (!findings.length) return 'No secrets found.';
  const kept = findings.filter((f) => !f.redacted).length;
  const lines = [`${findings.length} finding(s)${kept ? `, ${kept} kept as you asked` : ''} (rule, file:line, masked preview; --keep ID leaves one in place):`];
  // File names and previews are the sessions' own text: one safe line each.
  for (const f of sanitizeDeep(findings)) {
    lines.push(`  ${f.id}  ${f.redacted ? '' : 'KEPT '}${f.rule}  ${f.file}:${f.line}`);
    lines.push(`      ${f.preview}`);
  }
  return lines.join('\n');
}

/** The files the sessions name that the export leaves out (outside every folder added), one line each; none: no lines. */
export function formatRefused(refused: readonly BundleRefusedFile[]): string[] {
  if (!refused.length) return [];
  return [`Left out ${refused.length} file(s) the sessions name, never read:`, ...sanitizeDeep(refused).map((r) => `  ${r.path}  ${r.reason}`)];
}

function megabytes(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** A one-line progress bar on a terminal's stderr; nothing when stderr is a pipe. */
function progressBar(): { update: (p: BundleProgress) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  return {
    update: (p) => {
      if (Date.now() - last < 100) return;
      last = Date.now();
      const share = p.bytesTotal ? Math.min(p.bytesDone / p.bytesTotal, 1) : 0;
      const bar = '#'.repeat(Math.round(share * 24)).padEnd(24, '.');
      process.stderr.write(`\r[${bar}] ${p.sessionsDone}/${p.sessionsTotal} sessions, ${megabytes(p.bytesDone)} of ${megabytes(p.bytesTotal)}  `);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

function formatOf(given: string | undefined, output: string | undefined): 'zip' | DocumentFormat {
  const f = (given ?? (output ? extname(output).slice(1).toLowerCase() : '') ?? '').replace(/^markdown$/, 'md').replace(/^htm$/, 'html');
  if (f === 'md' || f === 'html' || f === 'zip') return f;
  if (given) throw new UsageError(`--format must be zip, md or html, not "${given}".`);
  return 'zip';
}

async function runExport(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values: v, positionals } = parse('export', argv, EXPORT_OPTIONS);
  if (v.help) return void process.stdout.write(BUNDLE_HELP.export ?? '');
  const dryRun = v['dry-run'] === true;
  if (!v.output && !dryRun) throw new UsageError(`-o FILE is required.\n\n${BUNDLE_HELP.export}`);
  if (!positionals.length && v.query === undefined) throw new UsageError(`name at least one <session>, or --query TEXT.\n\n${BUNDLE_HELP.export}`);
  const format = formatOf(v.format, v.output);
  const output = v.output ? resolve(v.output) : '';
  const options = { redact: v.redact !== false, keep: v.keep ?? [], env, includeChildren: v.children !== false };
  // Sessions named by key or id are found in the list; --query searches, and waits for the full-text index.
  await withOneShotServices({ roots: v.root, noDefaults: v.defaults === false, needs: v.query === undefined ? 'list' : 'search' }, env, async (services) => {
    const keys = await resolveKeys(services, positionals, v.query);
    const load = services.bundles.load;
    if (format !== 'zip') {
      if (keys.length !== 1) throw new UsageError(`--format ${format} writes one session; ${keys.length} were given.`);
      const session = await load(keys[0]!);
      const shared = { ...options, vault: services.bundles.vaultRoot };
      const result = dryRun ? await renderDocument(session, format, shared) : await exportDocument(session, format, output, shared);
      const text = [
        formatFindings(result.findings),
        dryRun ? 'Dry run: nothing was written.' : `Wrote ${sanitizeForTerminal(keys[0]!)} to ${sanitizeForTerminal(output)}`,
      ].join('\n');
      return void process.stdout.write(v.json ? `${terminalJson({ path: dryRun ? null : output, findings: result.findings })}\n` : `${text}\n`);
    }
    if (dryRun) {
      const loader = services.bundles.openLoader();
      const scan = await scanBundle(keys, loader, options).finally(() => loader.close());
      const text = [
        formatFindings(scan.findings),
        ...formatRefused(scan.refused),
        `Dry run: ${scan.sessions.length} session(s), ${scan.files} file(s) scanned; nothing was written.`,
      ].join('\n');
      return void process.stdout.write(v.json ? `${terminalJson(scan)}\n` : `${text}\n`);
    }
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const bar = progressBar();
    const loader = services.bundles.openLoader();
    try {
      const result = await exportBundle(keys, loader, output, { ...options, signal: controller.signal, onProgress: bar.update });
      bar.done();
      const redaction = result.redaction.enabled
        ? `Redacted ${result.redaction.redacted} secret(s)${result.redaction.kept.length ? `, left ${result.redaction.kept.length} in place` : ''}.`
        : 'Not redacted (--no-redact): the sources are byte-for-byte, secrets included.';
      const text = [
        ...(result.redaction.enabled ? [formatFindings(result.findings)] : []),
        ...formatRefused(result.refused),
        redaction,
        `Wrote ${result.sessions.length} session(s), ${result.files} file(s) to ${sanitizeForTerminal(output)} (${megabytes(result.size)}).`,
      ].join('\n');
      process.stdout.write(v.json ? `${terminalJson(result)}\n` : `${text}\n`);
    } catch (err) {
      bar.done();
      throw err;
    } finally {
      await loader.close();
      process.off('SIGINT', onSigint);
    }
  });
}

export function formatImport(given: ImportReport): string {
  // Keys, titles and reasons come from the bundle: one safe line each.
  const report = sanitizeDeep(given);
  const lines: string[] = [];
  lines.push(report.imported.length ? `Imported ${report.imported.length} session(s) into the vault:` : 'Imported no session.');
  for (const s of report.imported) lines.push(`  ${s.key}  ${s.title}${s.copyOf ? `  (a copy of ${s.copyOf})` : ''}`);
  if (report.skipped.length) {
    lines.push(`Skipped ${report.skipped.length} session(s) already here (--as-copy imports them under a new key):`);
    for (const s of report.skipped) lines.push(`  ${s.key}  ${s.title}: ${s.reason}`);
  }
  const r = report.redaction;
  lines.push(
    r.enabled
      ? `The exporter redacted ${r.redacted} secret(s)${r.kept.length ? ` and left ${r.kept.length} finding(s) in place` : ''}.`
      : 'The exporter did not redact this bundle.',
  );
  return lines.join('\n');
}

async function runImport(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values: v, positionals } = parse('import', argv, IMPORT_OPTIONS);
  if (v.help) return void process.stdout.write(BUNDLE_HELP.import ?? '');
  if (positionals.length !== 1) throw new UsageError(`give exactly one bundle file.\n\n${BUNDLE_HELP.import}`);
  const file = resolve(positionals[0]!);
  await withOneShotServices({ roots: v.root, noDefaults: v.defaults === false }, env, async (services) => {
    const { sessions } = await services.client.listSessions({ includeChildren: true });
    const known = new Set(sessions.map((s) => s.key));
    const report = await importBundle(file, { dataDir: resolveDataDir(env), asCopy: v['as-copy'] === true, known: (key) => known.has(key) });
    process.stdout.write(v.json ? `${terminalJson(report)}\n` : `${formatImport(report)}\n`);
  });
}

export async function runBundleCommand(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (command === 'export') return runExport(argv, env);
  if (command === 'import') return runImport(argv, env);
  throw new UsageError(`unknown command "${command}"`);
}
