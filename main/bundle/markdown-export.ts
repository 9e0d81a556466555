// One session as a Markdown file in ProjectHub's vault style: YAML front matter, Summary, Rolling Summary, Decisions, Search Footprint.
import type { Message, Session } from '../../shared/session.ts';

/** Characters YAML treats specially inside any quoted scalar, or that a reader may fold: always escaped. */
const NEEDS_ESCAPE = /[\p{Cc}\u0085\u2028\u2029\ufeff]/u;

/**
 * A YAML string scalar. Plain text goes in double quotes exactly as ProjectHub writes it; text with a
 * backslash or a quote goes in single quotes (where a backslash is literal, so "D:\work" stays itself);
 * text with line breaks or control characters goes in double quotes with YAML escapes.
 */
export function yamlString(value: string): string {
  if (NEEDS_ESCAPE.test(value)) {
    return `"${[...value]
      .map((c) => {
        if (c === '\\') return '\\\\';
        if (c === '"') return '\\"';
        if (c === '\n') return '\\n';
        if (c === '\t') return '\\t';
        if (c === '\r') return '\\r';
        if (NEEDS_ESCAPE.test(c)) return `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
        return c;
      })
      .join('')}"`;
  }
  if (value.includes('\\') || value.includes('"')) return `'${value.replace(/'/g, "''")}'`;
  return `"${value}"`;
}

function epochMs(iso: string | null): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/** ProjectHub's three states; a session still being written is active, one nobody can tell about is unknown. */
function projectHubStatus(session: Session): string {
  const own = session.format === 'projecthub' && typeof session.extra.status === 'string' ? session.extra.status : null;
  if (own && /^[a-z_-]+$/i.test(own)) return own;
  return session.status === 'open' ? 'active' : session.status;
}

function textOf(message: Message): string {
  return message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/**
 * Prompts a person typed: user messages with text (tool results ride in user messages in some formats), but not
 * the records a tool writes in the user's name (Claude Code's command caveats and slash-command echoes, marked by its reader).
 */
function prompts(session: Session): Message[] {
  return session.messages.filter((m) => {
    const notes = (m.annotations ?? {}) as Record<string, unknown>;
    return m.role === 'user' && textOf(m).trim() !== '' && !m.agentId && notes.isMeta !== true && notes.command !== true;
  });
}

function oneLine(text: string, max = 500): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
}

/** What the session searched for: the format's own footprint, else the patterns and queries of its search tools. */
function searchFootprint(session: Session): string[] {
  const own = strings(session.extra.searchFootprint);
  if (own) return own;
  const found = new Set<string>();
  for (const m of session.messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool_call' || !/grep|glob|search|find/i.test(p.name) || typeof p.input !== 'object' || p.input === null) continue;
      const input = p.input as Record<string, unknown>;
      const q = input.pattern ?? input.query ?? input.q ?? input.regex;
      if (typeof q === 'string' && q.trim()) found.add(q.trim());
    }
  }
  return [...found];
}

/** An inline code span that survives backticks inside it (CommonMark: a longer fence, padded). */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** Body text on one line that cannot open a heading, list or front matter of its own. */
function inline(text: string): string {
  return oneLine(text, 10_000).replace(/^([#>-]|\d+\.)/, '\\$1');
}

function bullets(items: string[], empty: string, prefix = ''): string {
  return items.length ? items.map((i) => `- ${prefix}${inline(i)}`).join('\n') : empty;
}

function rollingSummary(session: Session): string {
  const own = session.format === 'projecthub' && typeof session.extra.rollingSummary === 'string' ? session.extra.rollingSummary : null;
  if (own) return own.replace(/^(#{1,6}\s)/gm, '\\$1');
  const lines = session.messages.flatMap((m) => {
    if (m.agentId || (m.role !== 'user' && m.role !== 'assistant')) return [];
    const text = textOf(m);
    return text.trim() ? [`**${m.role === 'user' ? 'User' : 'Assistant'}**: ${oneLine(text)}`] : [];
  });
  return lines.length ? lines.join('\n') : '_No conversation recorded._';
}

export function sessionMarkdown(session: Session): string {
  const front: string[] = [`session_id: ${yamlString(session.id)}`];
  if (session.project.path) front.push(`project_dir: ${yamlString(session.project.path)}`);
  const started = epochMs(session.createdAt);
  const saved = epochMs(session.closedAt ?? session.updatedAt);
  if (started !== null) front.push(`started_at: ${started}`);
  if (saved !== null) front.push(`last_saved_at: ${saved}`);
  const turns = session.format === 'projecthub' && typeof session.extra.turnCount === 'number' ? session.extra.turnCount : prompts(session).length;
  front.push(`turn_count: ${turns}`, `status: ${projectHubStatus(session)}`);

  const summary = session.summary;
  const overview = summary?.overview ?? session.outcome?.summary ?? null;
  const decisions = strings(session.extra.decisions) ?? summary?.decisions ?? [];
  const footprint = searchFootprint(session);
  const parts = [
    `---\n${front.join('\n')}\n---`,
    `# Session: ${oneLine(session.id, 300)}`,
    [
      '## Summary',
      `### Overview\n${overview ? overview.replace(/^(#{1,6}\s)/gm, '\\$1') : '_No summary recorded._'}`,
      `### Key Decisions\n${bullets(summary?.decisions ?? [], '_No decisions recorded._')}`,
      `### Outcomes\n${bullets(summary?.outcomes ?? [], '_No outcomes recorded._')}`,
      `### Open Items\n${bullets(summary?.openItems ?? [], '_No open items._', '[ ] ')}`,
      `### Tags\n${summary?.tags.length ? summary.tags.map(code).join(' ') : '_No tags._'}`,
    ].join('\n\n'),
    `## Rolling Summary\n\n${rollingSummary(session)}`,
    `## Decisions\n\n${bullets(decisions, '_No decisions recorded._')}`,
    `## Search Footprint\n\n${footprint.length ? footprint.map((q) => `- ${code(q)}`).join('\n') : '_No searches recorded._'}`,
  ];
  return `${parts.join('\n\n')}\n`;
}

/** ProjectHub's file name for the session: `<date>_<session id>.md`. */
export function markdownFileName(session: Session): string {
  const date = (session.createdAt ?? session.updatedAt ?? new Date().toISOString()).slice(0, 10);
  return `${date}_${session.id.replace(/[^A-Za-z0-9._-]+/g, '_')}.md`;
}
