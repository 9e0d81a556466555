// `session-vault validate <file>...`: checks session.json files against the session schema, naming each problem's path.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeText, parseJsonText } from '../sources/decode.ts';
import { UnreadableError } from '../sources/types.ts';
import { MAX_SESSION_FILE_BYTES, schemaProblems, type SchemaProblem } from '../recorder/session-schema.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeDeep, terminalJson } from './terminal-text.ts';

export const VALIDATE_HELP = `Usage: session-vault validate [--json] <file>...

Checks each file against the session schema (the Vizier session format's MVP schema; the same rules as
build/session.schema.json) and prints every problem with its JSON path, e.g. $.chat[2].role.

Options:
  --json       print one JSON object per file: {"file", "valid", "problems": [{"path", "message"}]}
  -h, --help   show this help

Exit codes: 0 every file is valid, 1 a file is invalid or unreadable, 2 usage.
`;

export interface FileReport {
  file: string;
  valid: boolean;
  problems: SchemaProblem[];
}

/** Everything wrong with one file: unreadable, too big, not JSON, or off-schema. */
export async function validateFile(path: string): Promise<FileReport> {
  const file = resolve(path);
  const problems: SchemaProblem[] = [];
  try {
    const info = await stat(file);
    if (!info.isFile()) return { file, valid: false, problems: [{ path: '$', message: 'is not a file' }] };
    if (info.size >= MAX_SESSION_FILE_BYTES) {
      problems.push({ path: '$', message: `the file is ${info.size} bytes; session.json must stay under ${MAX_SESSION_FILE_BYTES} bytes (10 MB)` });
    }
    const { text } = decodeText(await readFile(file));
    problems.push(...schemaProblems(parseJsonText(text)));
  } catch (err) {
    // UnreadableError already says what is wrong with the bytes; anything else is the file system refusing.
    const message = err instanceof UnreadableError ? err.message : `cannot be read: ${(err as Error).message}`;
    problems.push({ path: '$', message });
  }
  return { file, valid: problems.length === 0, problems };
}

export function formatReport(given: FileReport): string {
  // The file's name and the problems (which quote its values) are printed as safe lines.
  const report = sanitizeDeep(given);
  if (report.valid) return `${report.file}: valid\n`;
  const n = report.problems.length;
  return `${report.file}: invalid (${n} problem${n === 1 ? '' : 's'})\n${report.problems.map((p) => `  ${p.path}: ${p.message}\n`).join('')}`;
}

export async function runValidate(argv: string[], _env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = parseCommandArgs(argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, VALIDATE_HELP);
  if (parsed.values.help) {
    process.stdout.write(VALIDATE_HELP);
    return;
  }
  if (parsed.positionals.length === 0) throw new UsageError(`name at least one file to check.\n\n${VALIDATE_HELP}`);
  const reports: FileReport[] = [];
  for (const file of parsed.positionals) {
    const report = await validateFile(file);
    reports.push(report);
    process.stdout.write(parsed.values.json ? `${terminalJson(report, 0)}\n` : formatReport(report));
  }
  const bad = reports.filter((r) => !r.valid).length;
  // Thrown so the CLI exits 1; the problems themselves are already on stdout.
  if (bad > 0) throw new Error(`${bad} of ${reports.length} file${reports.length === 1 ? '' : 's'} did not validate.`);
}
