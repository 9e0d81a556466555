// One session as a Markdown or HTML file, scanned and redacted like a bundle, written atomically.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Session } from '../../shared/session.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { Redactor } from '../recorder/redact.ts';
import { appVersion } from '../env/app-version.ts';
import type { Finding } from './finding.ts';
import { sessionHtml } from './html-export.ts';
import { sessionMarkdown } from './markdown-export.ts';
import { SecretScanStream } from './secret-scan.ts';
import { withSharedPaths } from './shared-paths.ts';
import { redactTitle } from './title-redaction.ts';

export type DocumentFormat = 'md' | 'html';

export interface DocumentOptions {
  redact?: boolean;
  keep?: Iterable<string>;
  env?: NodeJS.ProcessEnv;
  /** The vault's folder: a kept copy's paths are written as their original paths, never the vault's (shared-paths.ts). */
  vault?: string | null;
}

export interface DocumentResult {
  text: string;
  findings: Finding[];
}

/** Renders the document and redacts it; findings name `session.md` / `session.html`, so a review's ids hold for any output path. */
export async function renderDocument(stored: Session, format: DocumentFormat, options: DocumentOptions = {}): Promise<DocumentResult> {
  const session = withSharedPaths(stored, options.vault ?? null);
  if (options.redact === false) return { text: format === 'md' ? sessionMarkdown(session) : sessionHtml(session, `Session Vault ${appVersion}`), findings: [] };
  const ctx = {
    redactor: new Redactor(['secrets', 'env'], options.env ?? process.env),
    literals: new Map<string, string>(),
    keep: new Set(options.keep ?? []),
  };
  // A title cut from a prompt may end in part of a key (see title-redaction.ts).
  const titled = await redactTitle(session, ctx.redactor);
  const text = format === 'md' ? sessionMarkdown(titled) : sessionHtml(titled, `Session Vault ${appVersion}`);
  const scan = new SecretScanStream(ctx, { file: `session.${format}`, clip: format === 'html' ? 'html' : 'text', emit: true });
  const out: Buffer[] = [];
  await pipeline(Readable.from([Buffer.from(text)]), scan, new Writable({ write: (chunk: Buffer, _enc, done) => (out.push(chunk), done()) }));
  return { text: Buffer.concat(out).toString('utf8'), findings: scan.findings };
}

export async function exportDocument(session: Session, format: DocumentFormat, outPath: string, options: DocumentOptions = {}): Promise<DocumentResult> {
  const result = await renderDocument(session, format, options);
  await writeFileAtomic(outPath, result.text);
  return result;
}
