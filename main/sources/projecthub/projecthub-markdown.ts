// Reads a ProjectHub vault session file: its flat front matter (tolerantly) and its fixed Markdown sections.
import type { SessionSummaryText } from '../../../shared/session.ts';
import type { WarningList } from '../coerce.ts';

/** Front matter keys the ProjectHub writer emits, in its order. */
export const FRONT_MATTER_KEYS = ['session_id', 'project_dir', 'started_at', 'last_saved_at', 'turn_count', 'status'] as const;

export interface VaultMarkdown {
  /** null when the file has no `---` block. */
  frontMatter: Map<string, string | number> | null;
  /** The id in the `# Session: <id>` heading. */
  headingId: string | null;
  summary: SessionSummaryText | null;
  rollingSummary: string | null;
  decisions: string[] | null;
  searchFootprint: string[] | null;
}

/**
 * One `key: value` line. The writer puts session_id and project_dir in double quotes without escaping,
 * so a Windows path ("D:\work\x") is invalid YAML; such a value is taken as written, with a warning.
 */
function scalar(key: string, raw: string, warnings: WarningList): string | number {
  const text = raw.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const inner = text.slice(1, -1);
    if (inner.includes('\\')) {
      warnings.add(
        'invalid_yaml',
        `Front matter "${key}" has backslashes inside double quotes, which YAML reads as escape sequences (the ProjectHub writer does not escape them); it was read as written: ${inner}`,
      );
    }
    return inner;
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

function readFrontMatter(lines: string[], warnings: WarningList): { values: Map<string, string | number> | null; bodyStart: number } {
  if (lines[0]?.trim() !== '---') return { values: null, bodyStart: 0 };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end === -1) {
    warnings.add('invalid_yaml', 'The front matter is never closed with "---"; the whole file was read as front matter.');
  }
  const values = new Map<string, string | number>();
  const unknown: string[] = [];
  for (const line of lines.slice(1, end === -1 ? lines.length : end)) {
    const m = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const key = m[1];
    if (!(FRONT_MATTER_KEYS as readonly string[]).includes(key)) unknown.push(key);
    values.set(key, scalar(key, m[2] ?? '', warnings));
  }
  if (unknown.length) warnings.add('unknown_field', `Unknown front matter ${unknown.length === 1 ? 'field' : 'fields'} ignored: ${unknown.join(', ')}.`);
  return { values, bodyStart: end === -1 ? lines.length : end + 1 };
}

/** `_No decisions recorded._` and friends stand for an empty section. */
function isPlaceholder(text: string): boolean {
  return /^_No [^_]*_$/.test(text.trim());
}

function bullets(lines: string[]): string[] {
  return lines.flatMap((l) => {
    const m = /^\s*[-*]\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(l);
    return m?.[1] !== undefined ? [m[1].trim()] : [];
  });
}

function unquoteCode(item: string): string {
  const m = /^`(.*)`$/.exec(item);
  return m?.[1] ?? item;
}

function section(lines: string[], from: number, to: number): string[] | null {
  return from === -1 ? null : lines.slice(from + 1, to === -1 ? lines.length : to);
}

/** `### Overview` / `### Key Decisions` / `### Outcomes` / `### Open Items` / `### Tags` of the Summary block. */
function readSummary(lines: string[]): SessionSummaryText {
  const parts = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of lines) {
    const h = /^###\s+(.*)$/.exec(line);
    if (h?.[1]) parts.set(h[1].trim().toLowerCase(), (current = []));
    else current?.push(line);
  }
  const overview = (parts.get('overview') ?? []).join('\n').trim();
  const tags = [...(parts.get('tags') ?? []).join(' ').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
  return {
    overview: overview && !isPlaceholder(overview) ? overview : null,
    decisions: bullets(parts.get('key decisions') ?? []),
    outcomes: bullets(parts.get('outcomes') ?? []),
    openItems: bullets(parts.get('open items') ?? []),
    tags,
  };
}

/**
 * Splits the body at the writer's fixed `##` headings. The rolling summary quotes the conversation and can
 * hold `##` headings of its own, so it runs from the first `## Rolling Summary` to the last `## Decisions`.
 */
export function parseVaultMarkdown(text: string, warnings: WarningList): VaultMarkdown {
  const lines = text.split(/\r?\n/);
  const { values, bodyStart } = readFrontMatter(lines, warnings);
  const body = lines.slice(bodyStart);
  const heading = body.map((l) => /^#\s+Session:\s*(.+?)\s*$/.exec(l)?.[1]).find((id) => id !== undefined) ?? null;
  const at = (h: string) => body.findIndex((l) => l.trim() === h);
  const lastAt = (h: string) => body.findLastIndex((l) => l.trim() === h);
  const rolling = at('## Rolling Summary');
  const decisions = lastAt('## Decisions');
  const footprint = lastAt('## Search Footprint');
  const summaryAt = at('## Summary');
  const next = (from: number, ...candidates: number[]) => candidates.filter((c) => c > from).sort((a, b) => a - b)[0] ?? -1;

  const summaryLines =
    summaryAt !== -1 && (rolling === -1 || summaryAt < rolling) ? section(body, summaryAt, next(summaryAt, rolling, decisions, footprint)) : null;
  const rollingText =
    section(body, rolling, next(rolling, decisions, footprint))
      ?.join('\n')
      .trim() ?? null;
  const decisionLines = section(body, decisions, next(decisions, footprint));
  const footprintLines = section(body, footprint, -1);
  return {
    frontMatter: values,
    headingId: heading,
    summary: summaryLines ? readSummary(summaryLines) : null,
    rollingSummary: rollingText === null ? null : isPlaceholder(rollingText) ? '' : rollingText,
    decisions: decisionLines ? bullets(decisionLines) : null,
    searchFootprint: footprintLines ? bullets(footprintLines).map(unquoteCode) : null,
  };
}
