// A planted-secrets corpus: every secret type in every place, written in each session format the app reads, from a seeded PRNG.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Prng } from './prng.ts';
import { addIndexRow, ledgerFiles, projecthubFiles } from './redaction-formats.ts';

export const SECRET_TYPES = [
  'aws-key-id',
  'aws-secret',
  'github-classic',
  'github-fine-grained',
  'anthropic',
  'openai',
  'stripe',
  'slack',
  'jwt',
  'google-api-key',
  'private-key',
  'db-url',
  'env-password',
  'env-secret',
  'npm',
] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

export const PLACES = ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title', 'gzip-source', 'base64-payload'] as const;
export type Place = (typeof PLACES)[number];

export const FORMATS = ['claude-code', 'codex', 'gemini', 'ai-agent', 'ai-agent-v3', 'vizier', 'jido-code', 'projecthub'] as const;
export type Format = (typeof FORMATS)[number];

/** One planted secret: `needle` is the part that must not leave (a password, not the URL around it). */
export interface Plant {
  type: SecretType;
  place: Place;
  format: Format;
  needle: string;
}

/** Types that are one token, so they can stand in a file path. */
const TOKEN_TYPES = new Set<SecretType>([
  'aws-key-id',
  'github-classic',
  'github-fine-grained',
  'anthropic',
  'openai',
  'stripe',
  'slack',
  'jwt',
  'google-api-key',
  'npm',
]);

/**
 * Where each format can hold a plant (gzip-source: the whole ai-agent snapshot is gzipped; base64-payload: its captured LLM body).
 * An ai-agent v3 ledger's payload files are not among its source files (never shared), so none is planted there.
 */
const FORMAT_PLACES: Record<Format, Place[]> = {
  'claude-code': ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  codex: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  gemini: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  'ai-agent': ['tool-input', 'tool-output', 'file-path', 'gzip-source', 'base64-payload'],
  vizier: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'title'],
  'jido-code': ['line-start', 'after-tab', 'mid-sentence', 'title'],
  'ai-agent-v3': ['line-start', 'tool-input', 'tool-output', 'file-path', 'title'],
  projecthub: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
};

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function chars(rng: Prng, count: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

/** A fresh secret of `type` and the text it is written as (an assignment, a URL, a PEM block). */
export function secretOf(rng: Prng, type: SecretType): { needle: string; written: string } {
  const b64url = `${ALNUM}_-`;
  const token = (needle: string) => ({ needle, written: needle });
  switch (type) {
    case 'aws-key-id':
      return token(`AKIA${chars(rng, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`);
    case 'aws-secret': {
      const needle = chars(rng, 40, `${ALNUM}/+`);
      return { needle, written: `aws_secret_access_key = ${needle}` };
    }
    case 'github-classic':
      return token(`ghp_${chars(rng, 36)}`);
    case 'github-fine-grained':
      return token(`github_pat_${chars(rng, 82, `${ALNUM}_`)}`);
    case 'anthropic':
      return token(`sk-ant-api03-${chars(rng, 93, b64url)}AA`);
    case 'openai':
      return token(`sk-proj-${chars(rng, 74, b64url)}T3BlbkFJ${chars(rng, 74, b64url)}`);
    case 'stripe':
      return token(`sk_live_${chars(rng, 32)}`);
    case 'slack':
      return token(`xoxb-${chars(rng, 12, '0123456789')}-${chars(rng, 13, '0123456789')}-${chars(rng, 24)}`);
    case 'jwt':
      return token(`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${chars(rng, 30, b64url)}.${chars(rng, 43, b64url)}`);
    case 'google-api-key':
      return token(`AIza${chars(rng, 35, b64url)}`);
    case 'private-key': {
      const body = Array.from({ length: 4 }, () => chars(rng, 64, `${ALNUM}+/`));
      return { needle: body[1] as string, written: ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'].join('\n') };
    }
    case 'db-url': {
      const needle = chars(rng, 18);
      return { needle, written: `postgres://app_user:${needle}@db.internal:5432/prod` };
    }
    case 'env-password': {
      const needle = chars(rng, 20, `${ALNUM}!#%^*-_`);
      return { needle, written: `DB_PASSWORD=${needle}` };
    }
    case 'env-secret': {
      const needle = chars(rng, 32);
      return { needle, written: `SECRET_KEY_BASE=${needle}` };
    }
    case 'npm':
      return token(`npm_${chars(rng, 36)}`);
  }
}

/** The text a place puts around a written secret. */
function around(place: Place, written: string, rng: Prng): string {
  switch (place) {
    case 'line-start':
    case 'gzip-source':
    case 'base64-payload':
      return `Here is what I have:\n${written}\nplease check it`;
    case 'after-tab':
      return `name\tvalue\nprod\t${written}`;
    case 'mid-sentence':
      return `we deploy with ${written} every ${rng.text(20)}`;
    case 'tool-input':
      return `cat <<'EOF' > .env.local\n${written}\nEOF`;
    case 'tool-output':
      return `$ cat config\n${written}\n\texit 0`;
    case 'file-path':
      return `/home/dev/keys/${written}.txt`;
    case 'title':
      return `Set up ${written} for the deploy\nand then run the tests`;
  }
}

/** Where a session puts its plants: text for the prompts and replies, a command, its output and a path, each possibly empty. */
export interface Slots {
  title: string;
  texts: string[];
  toolInput: string;
  toolOutput: string;
  path: string;
  payload: string;
}

const ISO = '2026-03-01T10:00:00.000Z';

function uuid(rng: Prng): string {
  const h = chars(rng, 32, '0123456789abcdef');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The files of one session in `format`, relative to the corpus root. */
function sessionFiles(format: Format, id: string, s: Slots): Array<[string, Buffer]> {
  const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);
  const jsonl = (records: unknown[]) => Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  switch (format) {
    case 'claude-code': {
      const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/proj', sessionId: id, version: '1.0.62', gitBranch: 'main', timestamp: ISO };
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
        records.push(
          rec('user', { role: 'user', content: t }),
          rec('assistant', { role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'text', text: t }] }),
        );
      records.push(
        rec('assistant', {
          role: 'assistant',
          model: 'claude-opus-4-1',
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
      return [[`.claude/projects/-home-dev-proj/${id}.jsonl`, jsonl(records)]];
    }
    case 'codex': {
      const item = (payload: unknown) => ({ timestamp: ISO, type: 'response_item', payload });
      const records: unknown[] = [
        {
          timestamp: ISO,
          type: 'session_meta',
          payload: { id, timestamp: ISO, cwd: '/home/dev/proj', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli', model_provider: 'openai' },
        },
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: s.title || 'Look at the deploy config.' }] }),
      ];
      for (const t of s.texts)
        records.push(
          item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] }),
          item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t }] }),
        );
      records.push(
        item({
          type: 'function_call',
          name: 'shell',
          call_id: 'call_1',
          arguments: JSON.stringify({ command: ['bash', '-lc', s.toolInput || 'ls'], workdir: s.path || '/home/dev/proj' }),
        }),
        item({ type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: s.toolOutput || 'ok', metadata: { exit_code: 0 } }) }),
      );
      return [[`.codex/sessions/2026/03/01/rollout-2026-03-01T10-00-00-${id}.jsonl`, jsonl(records)]];
    }
    case 'gemini': {
      const messages: unknown[] = [{ id: 'm0', timestamp: ISO, type: 'user', content: s.title || 'Look at the deploy config.' }];
      s.texts.forEach((t, i) =>
        messages.push(
          { id: `u${i}`, timestamp: ISO, type: 'user', content: t },
          { id: `g${i}`, timestamp: ISO, type: 'gemini', content: [{ text: t }], model: 'gemini-2.5-pro' },
        ),
      );
      messages.push({
        id: 'tool',
        timestamp: ISO,
        type: 'gemini',
        content: [{ text: 'Running it.' }],
        model: 'gemini-2.5-pro',
        toolCalls: [
          {
            id: 'call-1',
            name: 'run_shell_command',
            args: { command: s.toolInput || 'ls', dir_path: s.path || '/home/dev/proj' },
            result: [{ functionResponse: { id: 'call-1', name: 'run_shell_command', response: { output: s.toolOutput || 'ok' } } }],
            status: 'success',
            timestamp: ISO,
          },
        ],
      });
      const hash = chars(new Prng(id.length + id.charCodeAt(0)), 64, '0123456789abcdef');
      return [
        [
          `.gemini/tmp/${hash}/chats/session-2026-03-01T10-00-${id.slice(0, 8)}.json`,
          json({ sessionId: id, projectHash: hash, startTime: ISO, lastUpdated: ISO, messages }),
        ],
      ];
    }
    case 'ai-agent': {
      const http = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ choices: [{ message: { role: 'assistant', content: s.payload || 'Done.' } }] })}`;
      const snapshot = {
        version: 1,
        reason: 'final',
        opTree: {
          id: 'root',
          traceId: id,
          agentId: 'deployer',
          callPath: 'deployer',
          startedAt: 1772359200000,
          turns: [
            {
              id: 't1',
              index: 1,
              startedAt: 1772359200100,
              ops: [
                {
                  opId: 'llm-1',
                  kind: 'llm',
                  startedAt: 1772359200200,
                  endedAt: 1772359201000,
                  status: 'ok',
                  attributes: { provider: 'openai', model: 'gpt-4o' },
                  logs: [
                    {
                      timestamp: 1772359201000,
                      severity: 'TRC',
                      message: 'LLM response',
                      llmResponsePayload: { format: 'http', body: Buffer.from(http).toString('base64') },
                    },
                  ],
                },
                {
                  opId: 'tool-1',
                  kind: 'tool',
                  startedAt: 1772359201100,
                  endedAt: 1772359201900,
                  status: 'ok',
                  attributes: { name: 'shell__run', provider: 'shell', kind: 'mcp' },
                  request: { kind: 'tool', payload: { command: s.toolInput || 'ls', path: s.path || '/srv/app' } },
                  response: { payload: { output: s.toolOutput || 'ok' } },
                  logs: [],
                  accounting: [],
                },
              ],
              endedAt: 1772359202000,
            },
          ],
          endedAt: 1772359202100,
          success: true,
        },
      };
      return [[`.ai-agent/sessions/${id}.json.gz`, gzipSync(JSON.stringify(snapshot))]];
    }
    case 'vizier': {
      const messages = [
        { role: 'System', content: 'Work inside the worktree only.' },
        { role: 'User', content: `<instruction>${s.title || 'Look at the deploy config.'}</instruction>` },
      ];
      for (const t of s.texts) messages.push({ role: 'User', content: t }, { role: 'Assistant', content: t });
      const session = {
        schema: 'vizier.session.v1',
        id,
        created_at: ISO,
        updated_at: ISO,
        tool_version: '0.2.1',
        workflow_type: 'ask',
        mode: 'default',
        repo: { root: '/home/dev/proj', branch: 'main', head: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9' },
        model: { provider: 'agent', name: 'codex', scope: 'ask' },
        messages,
        agent: { command: ['bash', '-c', s.toolInput || 'ls'], output: 'wrapped', exit_code: 0, stdout: s.toolOutput || 'ok\n', stderr: [], duration_ms: 1000 },
        operations: [],
      };
      return [[`proj/.vizier/sessions/${id}/session.json`, json(session)]];
    }
    case 'ai-agent-v3':
      return ledgerFiles(id, s);
    case 'projecthub':
      return projecthubFiles(id, s);
    case 'jido-code': {
      const conversation = [{ content: s.title || 'Look at the deploy config.', id: 'c0', role: 'user', timestamp: ISO }];
      s.texts.forEach((t, i) =>
        conversation.push({ content: t, id: `u${i}`, role: 'user', timestamp: ISO }, { content: t, id: `a${i}`, role: 'assistant', timestamp: ISO }),
      );
      const session = {
        closed_at: ISO,
        config: { model: 'claude-3-5-haiku', provider: 'anthropic' },
        conversation,
        created_at: ISO,
        id,
        name: 'deploy',
        project_path: '/home/dev/proj',
        todos: [],
        updated_at: ISO,
        version: 1,
      };
      return [[`.jido_code/sessions/${id}.json`, json(session)]];
    }
  }
}

/**
 * Writes the corpus under `root`: per format and secret type, one session holding that type in every place the
 * format has (each plant a fresh secret, so one place's finding cannot help another's). `types` narrows it.
 */
export async function writeRedactionCorpus(
  root: string,
  seed: number,
  types: readonly SecretType[] = SECRET_TYPES,
): Promise<{ plants: Plant[]; files: string[] }> {
  const rng = new Prng(seed);
  const plants: Plant[] = [];
  const files: string[] = [];
  for (const format of FORMATS) {
    for (const type of types) {
      const slots: Slots = { title: '', texts: [], toolInput: '', toolOutput: '', path: '', payload: '' };
      for (const place of FORMAT_PLACES[format]) {
        if (place === 'file-path' && !TOKEN_TYPES.has(type)) continue;
        if (place === 'title' && type === 'private-key') continue; // a title is one line
        const { needle, written } = secretOf(rng, type);
        plants.push({ type, place, format, needle });
        const text = around(place, written, rng);
        if (place === 'title') slots.title = text;
        else if (place === 'tool-input') slots.toolInput = text;
        else if (place === 'tool-output') slots.toolOutput = text;
        else if (place === 'file-path') slots.path = text;
        else if (place === 'base64-payload') slots.payload = text;
        else if (place === 'gzip-source') slots.toolOutput = `${slots.toolOutput}\n${text}`;
        else slots.texts.push(text);
      }
      const id = uuid(rng);
      // ProjectHub keeps every session's row in one index.db beside the Markdown: a source file of each.
      if (format === 'projecthub') addIndexRow(join(root, 'proj/vault/.projecthub/index.db'), id, slots, type === types[0]);
      // The session's own file comes first; its companions (a transcript, payload files) are found by its reader.
      const written = sessionFiles(format, id, slots);
      for (const [path, bytes] of written) {
        const abs = join(root, path);
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, bytes);
        if (path === written[0]?.[0]) files.push(abs);
      }
    }
  }
  return { plants, files };
}
