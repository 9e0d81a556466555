// Words only indexed (cut from the stored body by its caps, or in a tool payload) are found, and cost no read of the stored body.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionIndex } from './index-store.ts';
import { searchIndex } from './index-search.ts';
import { TOOL_OUTPUT_CAP } from './index-text.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { locateStored, SNIPPET_READ_PIECES } from './stored-snippet.ts';
import { parseQuery } from './query-parser.ts';

const index = new SessionIndex(':memory:');
afterAll(() => index.close());

// Forty tool outputs of 8 KB each (a stored body of ten pieces), the last one running past its cap into a rare word.
const outputs = Array.from({ length: 40 }, (_, i) => ({
  ...textMessage('tool', ''),
  parts: [{ type: 'tool_result' as const, callId: `t${i}`, output: `${'log line '.repeat(TOOL_OUTPUT_CAP / 9)}${i === 39 ? ' axolotl' : ''}`, isError: false }],
}));
const session = makeSession('long', {
  title: 'Build logs',
  messages: [textMessage('user', 'why does the build fail'), ...outputs],
  extra: { summaries: ['We looked at the capybara config'] },
});
const { result, text } = readResult(session);
index.put('/roots/long.json', 100, 1, session.key, result, text);

describe('words the stored body does not hold', () => {
  it('finds a word cut from the stored body, and one in a format extra, each without a body snippet', () => {
    for (const word of ['axolotl', 'capybara']) {
      const page = searchIndex(index, word);
      expect(
        page.hits.map((h) => h.key),
        word,
      ).toEqual(['vizier:long']);
      expect(page.hits[0]?.messageIndex).toBeNull();
    }
  });

  it('finds a word only an operation (a gate note, a command run) or a todo in progress holds, as the session shows them', () => {
    const gated = makeSession('gated', {
      messages: [textMessage('user', 'tidy the branch')],
      todos: [{ content: 'Profile the insert loop', status: 'in_progress', activeForm: 'Profiling the quokka loop' }],
      operations: [
        {
          id: 'op1',
          type: 'gate_accept',
          name: 'commit gate',
          timestamp: null,
          endedAt: null,
          status: 'ok',
          latencyMs: null,
          detail: { note: 'reviewed by the wombat team', command: ['git', 'restore', '--staged', '--worktree', '.'] },
          vcs: null,
          usage: null,
          cost: null,
          parentId: null,
          childSessionKey: null,
          origin: null,
        },
      ],
    });
    const read = readResult(gated);
    index.put('/roots/gated.json', 100, 1, gated.key, read.result, read.text);
    for (const word of ['wombat', 'worktree', 'quokka'])
      expect(
        searchIndex(index, word).hits.map((h) => h.key),
        word,
      ).toEqual(['vizier:gated']);
  });

  it('still shows the stored message when every term is in it', () => {
    const [hit] = searchIndex(index, 'does fail').hits;
    expect(hit?.messageIndex).toBe(0);
    expect(hit?.snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase())).toEqual(expect.arrayContaining(['does', 'fail']));
  });

  it('reads at most a few pieces for a snippet when no message holds every term, and shows the best of them', () => {
    const prose = (i: number) => `${'plain words here '.repeat(600)}${i === 1 ? ' tapir' : ''}${i === 38 ? ' okapi' : ''}`;
    const apart = makeSession('apart', { messages: Array.from({ length: 40 }, (_, i) => textMessage(i % 2 ? 'assistant' : 'user', prose(i))) });
    const read = readResult(apart);
    index.put('/roots/apart.json', 100, 1, apart.key, read.result, read.text);
    const [hit] = searchIndex(index, 'tapir okapi').hits;
    expect(hit?.key).toBe('vizier:apart');
    // Count the stored pieces the snippet reads.
    let pieces = 0;
    const counting = {
      statement: (sql: string) => {
        const st = index.statement(sql);
        if (!sql.includes('first_message')) return st;
        return {
          all: (...args: unknown[]) => {
            const rows = (st.all as (...a: unknown[]) => unknown[])(...args);
            pieces += rows.length;
            return rows;
          },
        } as unknown as ReturnType<typeof index.statement>;
      },
    };
    const where = locateStored(counting, hit!.id, parseQuery('tapir okapi').terms);
    expect(pieces).toBeLessThanOrEqual(SNIPPET_READ_PIECES);
    expect(where.messageIndex).toBe(38);
    expect(where.snippet.some((p) => p.hit && p.text === 'okapi')).toBe(true);
  });
});
