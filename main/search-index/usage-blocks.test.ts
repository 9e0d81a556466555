// Claude's 5-hour blocks: where one starts and ends, the gaps between them, and the active block's burn rate and projection.
import { describe, expect, it } from 'vitest';
import { buildBlocks, type BlockHour } from './usage-blocks.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

/** One call of 1,000 input and 100 output tokens costing $0.01 at `ms`, in file `fileId`. */
function call(ms: number, fileId = 1, model = 'claude-sonnet-4-5'): BlockHour {
  return {
    hourMs: Math.floor(ms / H) * H,
    fileId,
    firstMs: ms,
    lastMs: ms,
    input: 1000,
    output: 100,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
    costUsd: 0.01,
    unpriced: 0,
    calls: 1,
    models: [model],
  };
}

const LATER = T0 + 1000 * H;

describe('5-hour blocks', () => {
  it('starts a block at the hour of its first call and ends it 5 hours later', () => {
    const [b] = buildBlocks([call(T0 + 25 * 60_000), call(T0 + 3 * H)], LATER);
    expect(b).toMatchObject({
      startTime: new Date(T0).toISOString(),
      endTime: new Date(T0 + 5 * H).toISOString(),
      actualEndTime: new Date(T0 + 3 * H).toISOString(),
      calls: 2,
      totalTokens: 2200,
      isActive: false,
    });
  });

  it('opens a new block for a call past the 5 hours, even with no pause before it', () => {
    const blocks = buildBlocks([call(T0 + 10 * 60_000), call(T0 + 4 * H), call(T0 + 5 * H + 60_000)], LATER);
    expect(blocks.map((b) => [b.startTime.slice(11, 16), b.calls, b.isGap])).toEqual([
      ['09:00', 2, false],
      ['14:00', 1, false],
    ]);
  });

  it('shows a pause of more than 5 hours as a gap from 5 hours after the last call to the next one', () => {
    const blocks = buildBlocks([call(T0 + 30 * 60_000), call(T0 + 12 * H + 15 * 60_000)], LATER);
    expect(blocks.map((b) => [b.id, b.endTime, b.isGap])).toEqual([
      [new Date(T0).toISOString(), new Date(T0 + 5 * H).toISOString(), false],
      [`gap-${new Date(T0 + 5.5 * H).toISOString()}`, new Date(T0 + 12.25 * H).toISOString(), true],
      [new Date(T0 + 12 * H).toISOString(), new Date(T0 + 17 * H).toISOString(), false],
    ]);
  });

  it('counts the sessions and models of a block once each', () => {
    const [b] = buildBlocks([call(T0, 1), call(T0 + 60_000, 2, 'claude-opus-4-7'), call(T0 + H, 1)], LATER);
    expect(b).toMatchObject({ sessions: 2, models: ['claude-sonnet-4-5', 'claude-opus-4-7'], costUsd: 0.03 });
  });

  it('gives the active block its burn rate and where that rate ends it', () => {
    const now = T0 + 2 * H;
    const [b] = buildBlocks([call(T0 + 30 * 60_000), call(T0 + 90 * 60_000)], now);
    expect(b?.isActive).toBe(true);
    // 2,200 tokens and $0.02 over the hour between the first and the last call.
    expect(b?.burnRate).toEqual({ tokensPerMinute: 2200 / 60, tokensPerMinuteForIndicator: 2200 / 60, costPerHour: expect.closeTo(0.02, 10) });
    // Three hours left at that rate.
    expect(b?.projection).toEqual({ totalTokens: 2200 + 180 * (2200 / 60), totalCost: 0.08, remainingMinutes: 180 });
  });

  it('has no burn rate for a block of one moment, and no projection once its last call is 5 hours old', () => {
    const [one] = buildBlocks([call(T0)], T0 + 10 * 60_000);
    expect(one).toMatchObject({ isActive: true, burnRate: null, projection: null });
    const [old] = buildBlocks([call(T0)], T0 + 5 * H + 1);
    expect(old).toMatchObject({ isActive: false, projection: null });
  });

  it('splits a block per value of a breakdown when asked', () => {
    const [b] = buildBlocks(
      [
        { ...call(T0), group: 'app' },
        { ...call(T0 + 60_000, 2), group: 'site' },
        { ...call(T0 + 2 * 60_000, 3), group: 'app' },
      ],
      LATER,
    );
    expect(b?.groups).toEqual([
      { group: 'app', totalTokens: 2200, costUsd: 0.02, unpricedCalls: 0 },
      { group: 'site', totalTokens: 1100, costUsd: 0.01, unpricedCalls: 0 },
    ]);
  });
});
