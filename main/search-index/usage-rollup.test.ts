// The writer's usage totals answer the dashboard exactly as every file's own rows do: after rewrites and removals, with kept copies counted once.
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { usageDashboard } from './usage-dashboard.ts';
import { usageFacts } from './usage-facts.ts';

const call = (timestamp: string, input: number, model: string, tool?: string): Message => ({
  ...textMessage('assistant', 'ok'),
  timestamp,
  model,
  usage: { input, output: 10, cacheRead: input * 2, cacheWrite: 5, reasoning: 0 },
  cost: { usd: input / 1e5, estimated: true },
  parts: tool ? [{ type: 'tool_call', callId: `${timestamp}${tool}`, name: tool, input: {} }] : [{ type: 'text', text: 'ok' }],
});

function session(id: string, format: Session['format'], project: string, calls: Message[], parentKey: string | null = null): Session {
  return makeSession(id, {
    format,
    parentKey,
    project: { path: `/home/dev/${project}`, name: project, branch: 'main', headCommit: null },
    createdAt: calls[0]?.timestamp ?? null,
    updatedAt: calls.at(-1)?.timestamp ?? null,
    messages: [textMessage('user', `work on ${project}`), ...calls],
  });
}

/** A vault copy (its path below /vault/) stands for the live file of the same session. */
const catalogue = new IndexedCatalogue(
  new SessionIndex(':memory:'),
  (path) => (path.startsWith('/vault/') ? 'copy' : null),
  () => '',
  (path) => (path.startsWith('/vault/') ? 'vizier:kept' : null),
);
function put(path: string, s: Session): void {
  const { result, text } = readResult(s);
  catalogue.put(path, 100, 1, result.ok ? { ...result, text, usage: usageFacts(s) } : result);
}
/** The writer counts usage_days in this process's zone; another zone is added up from the hours. */
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const both = (query: string, breakdown: 'model' | 'source' = 'model', timezone = 'Asia/Kolkata') => {
  catalogue.index.flush();
  const now = Date.parse('2026-04-01T00:00:00Z');
  // Sums added in another order differ in the last bits of a float: compared to 12 significant digits.
  const pick = (d: ReturnType<typeof usageDashboard>) =>
    JSON.parse(JSON.stringify({ ...d, tookMs: 0 }), (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)) as typeof d;
  return [
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now)),
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now, true)),
  ];
};

describe("the writer's usage totals", () => {
  it('answer the dashboard as the files own rows do, by model and by source, with a source filter too', () => {
    put(
      '/roots/a.jsonl',
      session('a', 'claude-code', 'app', [
        call('2026-03-01T09:10:00Z', 1000, 'claude-opus-4-7', 'Bash'),
        call('2026-03-01T23:50:00Z', 500, 'claude-sonnet-4-5', 'Read'),
      ]),
    );
    put('/roots/b.jsonl', session('b', 'codex', 'site', [call('2026-03-02T14:05:00Z', 700, 'gpt-5-codex', 'exec')]));
    put('/roots/c.jsonl', session('c', 'claude-code', 'app', [call('2026-03-03T08:00:00Z', 300, 'claude-opus-4-7', 'Bash')], 'claude-code:a'));
    for (const [totals, files] of [
      both(''),
      both('', 'source'),
      both('source:codex'),
      both('source:claude-code'),
      both('', 'model', HERE),
      both('source:codex', 'source', HERE),
    ])
      expect(totals).toEqual(files);
    expect(both('')[0]?.totals.totalTokens).toBeGreaterThan(0);
  });

  it('stay right as files are rewritten and removed, and count a kept copy once', () => {
    put('/roots/a.jsonl', session('a', 'claude-code', 'app', [call('2026-03-01T09:10:00Z', 4000, 'claude-opus-4-7', 'Edit')]));
    catalogue.remove('/roots/b.jsonl');
    put('/roots/kept.jsonl', session('kept', 'claude-code', 'lib', [call('2026-03-05T10:00:00Z', 900, 'claude-haiku-4-5', 'Grep')]));
    put(
      '/vault/sessions/claude-code:kept/source/roots/kept.jsonl',
      session('kept', 'claude-code', 'lib', [call('2026-03-05T10:00:00Z', 900, 'claude-haiku-4-5', 'Grep')]),
    );
    const [totals, files] = both('');
    expect(totals).toEqual(files);
    const [here, hereFiles] = both('', 'model', HERE);
    expect(here).toEqual(hereFiles);
    expect(totals?.models.find((m) => m.name === 'claude-haiku-4-5')?.totalTokens).toBe(900 + 10 + 1800 + 5);
    expect(totals?.models.some((m) => m.name === 'gpt-5-codex')).toBe(false);
    expect(totals?.tools.map((t) => [t.name, t.calls])).toEqual([
      ['Bash', 1],
      ['Edit', 1],
      ['Grep', 1],
    ]);
  });

  it('draw the heatmap in the zone’s local hours: the two hours the clocks go back through are one cell', () => {
    // New York, 2026-11-01: 05:30Z is 01:30 EDT and 06:30Z 01:30 EST; two sources, several models in those hours.
    put('/roots/night-a.jsonl', session('night-a', 'claude-code', 'app', [call('2026-11-01T05:30:00Z', 100, 'claude-opus-4-7', 'Bash')]));
    put(
      '/roots/night-b.jsonl',
      session('night-b', 'codex', 'site', [call('2026-11-01T06:30:00Z', 200, 'gpt-5-codex', 'exec'), call('2026-11-01T06:40:00Z', 300, 'gpt-5.1-codex')]),
    );
    for (const [query, breakdown] of [
      ['', 'model'],
      ['source:codex', 'source'],
    ] as const) {
      const [totals, files] = both(query, breakdown, 'America/New_York');
      expect(totals).toEqual(files);
    }
    const [totals] = both('', 'model', 'America/New_York');
    expect(totals?.heatmap.find((c) => c.day === '2026-11-01' && c.hour === 1)?.calls).toBe(3);
  });
});
