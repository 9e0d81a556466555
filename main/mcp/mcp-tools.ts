// What each MCP tool does, through the services' typed client: list, search, read a transcript page by page, summarize, compare, usage.
import type { z } from 'zod';
import { ClientError, type ApiClient } from '../../shared/api-client.ts';
import { AppError } from '../../shared/result.ts';
import type { OpenedSession } from '../../shared/api.ts';
import type { SearchResult } from '../../shared/search-api.ts';
import type { SummaryState } from '../../shared/summary-api.ts';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import type {
  ListedSession,
  SearchHit,
  sessionTranscriptInput,
  sessionTranscriptOutput,
  sessionUpdateSummaryInput,
  sessionUpdateSummaryOutput,
  sessionsCompareInput,
  sessionsCompareOutput,
  sessionsListInput,
  sessionsListOutput,
  sessionsSearchInput,
  sessionsSearchOutput,
  usageReportInput,
  usageReportOutput,
} from './mcp-schemas.ts';
import { transcriptPage } from './transcript-page.ts';

/** The services as the tools reach them: the typed client, and the start's milestones a call waits for. */
export interface McpBackend {
  client: ApiClient;
  /** Every session listed (what a read by key needs). */
  whenListed(): Promise<void>;
  /** Every session's text searchable too (what a list or search with words needs). */
  whenScanned(): Promise<void>;
}

/** A tool's answer: its structured content, and the text shown to the assistant when not that content as JSON. */
export interface ToolAnswer<T> {
  structured: T;
  text?: string;
}

type In<S extends z.ZodType> = z.output<S>;
type Out<S extends z.ZodType> = z.output<S>;

function listed(result: SearchResult, state: SummaryState | undefined): ListedSession {
  const s = result.summary;
  const summary = state?.source ? { source: state.source, author: state.author, updatedAt: state.updatedAt } : null;
  return {
    key: s.key,
    title: s.title,
    format: s.format,
    projectName: s.projectName,
    projectPath: s.projectPath,
    branch: s.branch,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    status: s.status,
    messageCount: s.messageCount,
    toolCallCount: s.toolCallCount,
    totalTokens: s.totalTokens,
    costUsd: s.costUsd,
    childCount: s.childCount,
    starred: s.starred,
    tags: s.tags,
    summary,
  };
}

const nextOffset = (offset: number, shown: number, total: number) => (offset + shown < total ? offset + shown : null);

export async function sessionsList(b: McpBackend, input: In<typeof sessionsListInput>): Promise<ToolAnswer<Out<typeof sessionsListOutput>>> {
  // A list is answered once every session is listed; words in its query find what the index has read so far.
  await b.whenListed();
  const filter = input.hasSummary === true ? 'has:summary' : input.hasSummary === false ? '-has:summary' : '';
  const query = [input.query.trim(), filter].filter(Boolean).join(' ');
  // Newest first unless asked otherwise (here or by a sort: in the query).
  const sort = input.sort ?? (/(^|\s)sort:/i.test(query) ? undefined : 'updated');
  const page = await b.client.searchSessions({ query, limit: input.limit, offset: input.offset, ...(sort ? { sort } : {}) });
  const keys = page.results.map((r) => r.summary.key);
  const states = keys.length ? (await b.client.summaryStates({ keys })).states : [];
  const byKey = new Map(states.map((s) => [s.key, s]));
  return {
    structured: {
      total: page.total,
      nextOffset: nextOffset(input.offset, page.results.length, page.total),
      problems: page.problems,
      sessions: page.results.map((r) => listed(r, byKey.get(r.summary.key))),
    },
  };
}

export async function sessionsSearch(b: McpBackend, input: In<typeof sessionsSearchInput>): Promise<ToolAnswer<Out<typeof sessionsSearchOutput>>> {
  await b.whenScanned();
  const page = await b.client.searchSessions({ query: input.query, limit: input.limit, offset: input.offset, ...(input.sort ? { sort: input.sort } : {}) });
  const hits = page.results.map((r): z.output<typeof SearchHit> => ({
    key: r.summary.key,
    title: r.summary.title,
    format: r.summary.format,
    projectName: r.summary.projectName,
    updatedAt: r.summary.updatedAt,
    snippet: r.snippet.map((p) => (p.hit ? `**${p.text}**` : p.text)).join(''),
    messageIndex: r.messageIndex,
    score: r.score,
  }));
  return { structured: { total: page.total, nextOffset: nextOffset(input.offset, hits.length, page.total), problems: page.problems, hits } };
}

/** Room kept on a page for its last line, `[next page: fromMessage N, fromChar M]`: 69 characters with the largest safe integers. */
const NAVIGATION_ROOM = 80;

/** The first page's header: what the session is, where and when. */
function transcriptHeader(s: OpenedSession): string {
  const facts = [
    FORMAT_LABELS[s.format] ?? s.format,
    s.project.name ?? s.project.path,
    s.project.branch ? `branch ${s.project.branch}` : null,
    s.model?.name,
    s.createdAt ? `started ${s.createdAt}` : null,
    s.updatedAt ? `updated ${s.updatedAt}` : null,
    `${s.messagesTotal} messages`,
  ].filter(Boolean);
  return `# ${s.title}\n${facts.join(' · ')}`;
}

export async function sessionTranscript(b: McpBackend, input: In<typeof sessionTranscriptInput>): Promise<ToolAnswer<Out<typeof sessionTranscriptOutput>>> {
  await b.whenListed();
  const { key, fromMessage, fromChar, maxChars } = input;
  const opened = await b.client.getSession({ key, messageLimit: 1 });
  if (fromMessage > 0 && fromMessage >= opened.messagesTotal) {
    throw new AppError('INVALID_INPUT', `fromMessage ${fromMessage} is past the session's last message (it has ${opened.messagesTotal}).`, 'fromMessage');
  }
  const source = { total: opened.messagesTotal, read: async (offset: number, limit: number) => (await b.client.getMessages({ key, offset, limit })).messages };
  // The page leaves room for the line saying where the next one starts: what the assistant reads keeps to maxChars.
  const page = await transcriptPage(source, { fromMessage, fromChar }, maxChars - NAVIGATION_ROOM, transcriptHeader(opened));
  const structured = { key, title: opened.title, format: opened.format, messagesTotal: opened.messagesTotal, ...page };
  const more = page.next ? `\n[next page: fromMessage ${page.next.fromMessage}, fromChar ${page.next.fromChar}]` : '\n[end of transcript]';
  return { structured, text: `${page.text}${more}` };
}

export async function sessionUpdateSummary(
  b: McpBackend,
  input: In<typeof sessionUpdateSummaryInput>,
  author: string,
): Promise<ToolAnswer<Out<typeof sessionUpdateSummaryOutput>>> {
  await b.whenListed();
  const { key, ...summary } = input;
  const saved = (await b.client.setSummary({ key, summary, author })).summary;
  if (!saved) throw new AppError('INTERNAL', 'The summary was saved but could not be read back.');
  return { structured: { key, ...saved } };
}

export async function sessionsCompare(b: McpBackend, input: In<typeof sessionsCompareInput>): Promise<ToolAnswer<Out<typeof sessionsCompareOutput>>> {
  await b.whenListed();
  return { structured: await b.client.compareSessions(input) };
}

export async function usageReport(b: McpBackend, input: In<typeof usageReportInput>): Promise<ToolAnswer<Out<typeof usageReportOutput>>> {
  await b.whenScanned();
  return { structured: await b.client.usageReport(input) };
}

/** A refusal as the assistant reads it: the contract's code, the field at fault, the sentence. */
export function errorText(err: unknown): string {
  if (err instanceof ClientError || err instanceof AppError) return `${err.code}${err.field ? ` (field "${err.field}")` : ''}: ${err.message}`;
  return `INTERNAL: ${err instanceof Error ? err.message : String(err)}`;
}
