// The ai-agent snapshot parser on wrong types, other shapes and deep nesting: warnings and clear refusals, never exceptions.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DocumentContext } from '../coerce.ts';
import { parseGzipJson } from './ai-agent-gzip.ts';
import { parseAiAgentSnapshot } from './ai-agent-snapshot.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { LONG_AGO } from './ai-agent-test-read.ts';

describe('tolerance', () => {
  const ctx: DocumentContext = { path: '/home/u/.ai-agent/sessions/ab.json.gz', size: 1, mtimeMs: LONG_AGO, warnings: [] };

  it('wrong types everywhere become warnings, never exceptions', () => {
    const s = valid(
      parseAiAgentSnapshot(
        {
          version: 2,
          reason: 7,
          opTree: {
            traceId: 'tr-1',
            agentId: ['x'],
            startedAt: 'yesterday',
            endedAt: 1700000000000,
            success: 'yes',
            turns: [
              5,
              {
                index: 'one',
                attributes: { prompts: 'hi' },
                ops: [
                  null,
                  {
                    opId: 3,
                    kind: 'llm',
                    accounting: [{ type: 'llm', tokens: { inputTokens: '10', outputTokens: -4 } }],
                    reasoning: { chunks: 'x' },
                    logs: {},
                  },
                ],
              },
            ],
            steps: 'none',
            totals: { tokensIn: 'many' },
          },
        },
        ctx,
      ),
    );
    expect([s.id, s.title, s.status]).toEqual(['tr-1', 'ai-agent session tr-1', 'closed']);
    expect(s.operations.map((o) => [o.id, o.type])).toEqual([
      ['turn-1', 'turn'],
      ['op-1', 'llm'],
    ]);
    expect(s.operations[1]?.usage).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    const codes = new Set(s.warnings.map((w) => w.code));
    expect([...codes].sort()).toEqual(['bad_timestamp', 'wrong_type']);
    expect(
      s.warnings.some((w) =>
        w.message.includes('Field "opTree.turns[].ops[].accounting[].tokens.outputTokens" is a negative token count (-4); it was read as 0.'),
      ),
    ).toBe(true);
  });

  it('a snapshot with no opTree or of another shape is wrong_shape; a non-object is wrong_shape', async () => {
    expect((await failure(async () => parseAiAgentSnapshot({ version: 2, reason: 'final' }, ctx))).message).toBe(
      'Not an ai-agent snapshot: there is no "opTree" object (its fields are version, reason).',
    );
    expect((await failure(async () => parseAiAgentSnapshot([1], ctx))).code).toBe('wrong_shape');
    expect((await failure(async () => parseAiAgentSnapshot({ version: '3', opTree: {} }, ctx))).code).toBe('unsupported_version');
    const wordy = valid(parseAiAgentSnapshot({ version: 'two', opTree: { traceId: 't' } }, ctx));
    expect([wordy.formatVersion, wordy.warnings.map((w) => w.code)]).toEqual(['2', ['wrong_type', 'missing_field', 'incomplete_session']]);
  });

  it('reads the nested {snapshot: {version, opTree}} event payload form as well', () => {
    const s = valid(
      parseAiAgentSnapshot(
        {
          reason: 'final',
          sessionId: 's',
          originId: 'o-1',
          timestamp: 5,
          snapshot: { version: 1, opTree: { traceId: 'o-1', agentId: 'nested', endedAt: 5, success: true, turns: [] } },
        },
        ctx,
      ),
    );
    expect([s.id, s.formatVersion, s.title, s.status]).toEqual(['o-1', '1', 'nested', 'closed']);
  });

  it('stops walking sub-agents nested more than 16 levels deep, with a warning', () => {
    let node: Record<string, unknown> = { traceId: 'leaf', turns: [] };
    for (let i = 0; i < 30; i++) node = { traceId: `n${i}`, turns: [{ index: 1, ops: [{ opId: `o${i}`, kind: 'session', childSession: node }] }] };
    const s = valid(parseAiAgentSnapshot({ version: 2, opTree: node }, ctx));
    expect(s.warnings.map((w) => w.code)).toContain('too_deep');
    expect(s.operations.filter((o) => o.type === 'session')).toHaveLength(17);
  });

  it('parses gzip bytes built here, so the suite stands without the shared samples', async () => {
    const { value } = await parseGzipJson(gzipSync(Buffer.from(JSON.stringify({ version: 2, opTree: { traceId: 'g', agentId: 'g-agent', turns: [] } }))));
    expect(valid(parseAiAgentSnapshot(value, ctx)).title).toBe('g-agent');
  });
});
