// The planted corpus's ai-agent v3 ledger and ProjectHub sessions, in their tools' real layouts (ledger + payload files; Markdown + transcript + index.db).
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { gzipSync } from 'node:zlib';
import type { Slots } from './redaction-corpus.ts';

const ISO = '2026-03-01T10:00:00.000Z';
const MS = Date.parse(ISO);

/**
 * An ai-agent v3 ledger `session/<id>.jsonl`: the agent id is the title, a failed session's error holds the texts
 * (the ledger's own free text), a tool op's attributes its input and its error its output, a payload ref's path the
 * path; the captured payload files are written beside it (`payloads/<id>/turn-0001/…`, gzip) as ai-agent writes them.
 */
export function ledgerFiles(id: string, s: Slots): Array<[string, Buffer]> {
  const head = { version: 3, originId: id, sessionId: id };
  let seq = 0;
  const rec = (recordType: string, fields: Record<string, unknown>) => ({ ...head, seq: ++seq, ts: ISO, recordType, ...fields });
  const payloadDir = `payloads/${id}/turn-0001`;
  const request = `POST /v1/messages HTTP/1.1\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ messages: [{ role: 'user', content: s.payload || 'Deploy it.' }] })}`;
  // A path plant goes where other formats put it (`…/keys/<secret>.txt`), kept below the payloads folder as ai-agent does.
  const payloadPath = `${payloadDir}/${s.path ? s.path.replace(/^\/+/, '') : 'llm-0001'}-request.http.gz`;
  const ref = {
    kind: 'llm_request',
    opId: 'op-1',
    turn: 1,
    opIndex: 1,
    format: 'http',
    compression: 'gzip',
    path: payloadPath,
    originalBytes: request.length,
    captured: true,
    truncated: false,
    redacted: false,
  };
  const records = [
    rec('session_start', {
      agentId: s.title || 'deployer',
      callPath: 'cli:deployer',
      headendId: 'cli',
      capturePayloads: true,
      attributes: { ledgerPath: `session/${id}.jsonl` },
    }),
    rec('turn_start', { turn: 1 }),
    rec('turn_end', {
      turn: 1,
      status: 'failed',
      ops: [
        {
          opId: 'op-1',
          opIndex: 1,
          kind: 'llm',
          status: 'ok',
          startedAt: ISO,
          endedAt: ISO,
          durationMs: 1000,
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          payloadRefs: [ref],
          accounting: { tokensIn: 500, tokensOut: 80 },
        },
        {
          opId: 'op-2',
          opIndex: 2,
          kind: 'tool',
          name: 'shell__run',
          status: 'failed',
          startedAt: ISO,
          endedAt: ISO,
          durationMs: 300,
          provider: 'shell',
          attributes: { provider: 'shell', name: 'shell__run', kind: 'mcp', arguments: s.toolInput || 'ls' },
          error: s.toolOutput || 'exit 1',
        },
      ],
      warnings: [],
      errors: [],
    }),
    rec('session_error', { error: s.texts.join('\n\n') || 'unhandled exception' }),
  ];
  return [
    [`.ai-agent/sessions/session/${id}.jsonl`, Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`)],
    [`.ai-agent/sessions/${payloadPath}`, gzipSync(request)],
  ];
}

/**
 * A session's Claude Code records (a prompt, each text as a prompt and its reply, a Bash and a Read call with their
 * results), written by `version` with `model`: the Claude Code session itself, and the transcript ProjectHub's
 * `session capture` copies into `.projecthub/transcripts/<id>.jsonl`.
 */
export function claudeCodeLines(id: string, s: Slots, version: string, model: string): Buffer {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/proj', sessionId: id, version, gitBranch: 'main', timestamp: ISO };
  let n = 0;
  const rec = (type: 'user' | 'assistant', message: unknown) => ({
    ...base,
    parentUuid: n ? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` : null,
    type,
    message,
    uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const records = [rec('user', { role: 'user', content: s.title || 'Look at the deploy config.' })];
  for (const t of s.texts)
    records.push(rec('user', { role: 'user', content: t }), rec('assistant', { role: 'assistant', model, content: [{ type: 'text', text: t }] }));
  records.push(
    rec('assistant', {
      role: 'assistant',
      model,
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: s.toolInput || 'ls' } },
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: s.path || '/home/dev/proj/a.txt' } },
      ],
    }),
    rec('user', {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: s.toolOutput || 'ok' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'read' },
      ],
    }),
  );
  return Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

/** The rolling summary ProjectHub writes into both the Markdown and index.db: every prompt and reply, one line each. */
function rollingSummary(s: Slots): string {
  return [s.title || 'Look at the deploy config.', ...s.texts].map((t, i) => `**${i % 2 ? 'Assistant' : 'User'}**: ${t}`).join('\n');
}

/** A ProjectHub vault session: `vault/sessions/<date>_<id>.md`, its transcript, and its row in `vault/.projecthub/index.db`. */
export function projecthubFiles(id: string, s: Slots): Array<[string, Buffer]> {
  const summary = rollingSummary(s);
  const md = [
    '---',
    `session_id: "${id}"`,
    'project_dir: "/home/dev/proj"',
    `started_at: ${MS}`,
    `last_saved_at: ${MS + 60_000}`,
    `turn_count: ${s.texts.length + 1}`,
    'status: closed',
    '---',
    '',
    `# Session: ${id}`,
    '',
    '## Rolling Summary',
    '',
    summary,
    '',
  ].join('\n');
  return [
    [`proj/vault/sessions/2026-03-01_${id}.md`, Buffer.from(md)],
    [`proj/vault/.projecthub/transcripts/${id}.jsonl`, claudeCodeLines(id, s, '2.1.47', 'claude-sonnet-4-5')],
  ];
}

/** Adds `id`'s row (with the same rolling summary) to the index.db at `path`, made with ProjectHub's schema when new. */
export function addIndexRow(path: string, id: string, s: Slots, fresh: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  if (fresh) rmSync(path, { force: true });
  const db = new DatabaseSync(path);
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT OR IGNORE INTO schema_meta VALUES ('schema_version', '1');
      CREATE TABLE IF NOT EXISTS sessions (session_id TEXT PRIMARY KEY, project_dir TEXT NOT NULL, started_at INTEGER NOT NULL, last_saved_at INTEGER NOT NULL,
        turn_count INTEGER NOT NULL DEFAULT 0, estimated_tokens INTEGER NOT NULL DEFAULT 0, rolling_summary TEXT, decisions_json TEXT, search_footprint_json TEXT,
        summary_json TEXT, status TEXT NOT NULL DEFAULT 'active' CHECK(status IN ('active','compacted','closed')));`);
    db.prepare(
      'INSERT INTO sessions (session_id, project_dir, started_at, last_saved_at, turn_count, rolling_summary, status) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, '/home/dev/proj', MS, MS + 60_000, s.texts.length + 1, rollingSummary(s), 'closed');
  } finally {
    db.close();
  }
}
