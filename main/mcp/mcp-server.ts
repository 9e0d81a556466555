// The Model Context Protocol server over stdio (official SDK): the vault's sessions as tools an assistant calls, read-only but for summaries.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { z } from 'zod';
import * as schemas from './mcp-schemas.ts';
import * as tools from './mcp-tools.ts';
import type { McpBackend, ToolAnswer } from './mcp-tools.ts';

const INSTRUCTIONS = `Session Vault: the sessions AI coding assistants wrote on this machine (Claude Code, Codex, Gemini, ProjectHub, ...).
Find sessions with sessions_list (filters, hasSummary) or sessions_search (ranked, with snippets); read one with session_transcript
page by page (pass next.fromMessage and next.fromChar back); save a structured summary with session_update_summary.
To summarize sessions: sessions_list with hasSummary false, read each transcript, then save overview, decisions, outcomes, openItems and tags.`;

type ObjectSchema = z.ZodObject;

interface ToolSpec<I extends ObjectSchema, O extends ObjectSchema> {
  title: string;
  description: string;
  input: I;
  output: O;
  /** Only session_update_summary writes (to the vault's summary of one session). */
  writes?: boolean;
  run(input: z.output<I>): Promise<ToolAnswer<z.output<O>>>;
}

function register<I extends ObjectSchema, O extends ObjectSchema>(server: McpServer, name: string, spec: ToolSpec<I, O>): void {
  const inputSchema: ObjectSchema = spec.input;
  const outputSchema: ObjectSchema = spec.output;
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: !spec.writes, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    // The SDK has checked the arguments against `input` (a refusal names the field) before this runs.
    async (args: unknown) => {
      try {
        const answer = await spec.run(args as z.output<I>);
        const structured = answer.structured as Record<string, unknown>;
        return { content: [{ type: 'text' as const, text: answer.text ?? JSON.stringify(structured, null, 2) }], structuredContent: structured };
      } catch (err) {
        return { isError: true, content: [{ type: 'text' as const, text: tools.errorText(err) }] };
      }
    },
  );
}

/** The server with every tool; calls wait for `backend` (the services start while the client says hello). */
export function createMcpServer(backend: Promise<McpBackend>, version: string): McpServer {
  const server = new McpServer({ name: 'session-vault', title: 'Session Vault', version }, { instructions: INSTRUCTIONS });
  const author = () => `mcp: ${server.server.getClientVersion()?.name ?? 'unknown client'}`;
  register(server, 'sessions_list', {
    title: 'List sessions',
    description:
      "Lists sessions, newest first, filtered with the app's search syntax. hasSummary false lists those with no summary yet (none saved in the vault, none recorded by their own tool); true, those with one. Pages with limit/offset.",
    input: schemas.sessionsListInput,
    output: schemas.sessionsListOutput,
    run: async (input) => tools.sessionsList(await backend, input),
  });
  register(server, 'sessions_search', {
    title: 'Search sessions',
    description:
      'Full-text search over every session (messages, titles, metadata, summaries), best match first, each hit with a snippet and the index of the matching message.',
    input: schemas.sessionsSearchInput,
    output: schemas.sessionsSearchOutput,
    run: async (input) => tools.sessionsSearch(await backend, input),
  });
  register(server, 'session_transcript', {
    title: 'Read a transcript',
    description:
      "One page of a session's conversation, at most maxChars characters, tool calls and results summarized to a line. Call again with next.fromMessage and next.fromChar until next is null.",
    input: schemas.sessionTranscriptInput,
    output: schemas.sessionTranscriptOutput,
    run: async (input) => tools.sessionTranscript(await backend, input),
  });
  register(server, 'session_update_summary', {
    title: 'Save a session summary',
    description:
      'Saves the structured summary of one session in the vault (overview: 2-3 sentences; decisions; outcomes; openItems; tags), replacing any earlier one. It is searchable at once.',
    input: schemas.sessionUpdateSummaryInput,
    output: schemas.sessionUpdateSummaryOutput,
    writes: true,
    run: async (input) => tools.sessionUpdateSummary(await backend, input, author()),
  });
  register(server, 'sessions_compare', {
    title: 'Compare two sessions',
    description:
      'Two sessions side by side, across formats: header deltas, turns aligned by prompt with word diffs, files and operations (as `session-vault diff --json`).',
    input: schemas.sessionsCompareInput,
    output: schemas.sessionsCompareOutput,
    run: async (input) => tools.sessionsCompare(await backend, input),
  });
  register(server, 'usage_report', {
    title: 'Usage report',
    description: 'Tokens and cost per day, week, month or session (optionally per model, project, source or branch), for the sessions a search query matches.',
    input: schemas.usageReportInput,
    output: schemas.usageReportOutput,
    run: async (input) => tools.usageReport(await backend, input),
  });
  return server;
}

/** Serves over this process's standard input and output until the client closes them. */
export async function serveStdio(backend: Promise<McpBackend>, version: string): Promise<McpServer> {
  const server = createMcpServer(backend, version);
  await server.connect(new StdioServerTransport());
  return server;
}
