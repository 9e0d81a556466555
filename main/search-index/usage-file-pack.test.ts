// A file's packed facts read back as the rows they were made from: every number exactly, the day rows in their key order, the same facts as the same bytes, packs laid end to end read one by one, and a damaged pack refused.
import { describe, expect, it } from 'vitest';
import { packFile, PackReader, type PackedDay, type PackedFile, type PackVisitor } from './usage-file-pack.ts';

/** Everything a pack gives, in order. */
function unpack(pack: Uint8Array, reader = new PackReader(), start = 0, end = pack.length): { ok: boolean; file: PackedFile | null } {
  let file: (PackedFile & { tools: Array<[string, number, number]>; days: PackedDay[] }) | null = null;
  const days: Array<{ day: string; model: string; sums: number[]; hours: Array<[number, number, number]> }> = [];
  const tools: Array<[string, number, number]> = [];
  const visit: PackVisitor = {
    file: (format, project, topLevel, lengthBucket, turns) => {
      file = { format, project, topLevel, lengthBucket, turns, tools, days };
    },
    tool: (name, calls, failures) => tools.push([name, calls, failures]),
    row: (day, model, sums) => days.push({ day, model, sums: [...sums], hours: [] }),
    hour: (hour, calls, tokens) => days.at(-1)?.hours.push([hour, calls, tokens]),
  };
  return { ok: reader.read(pack, visit, start, end), file };
}

const row = (day: string, model: string, sums: number[], hours: Array<[number, number, number]> = []): PackedDay => ({ day, model, sums, hours });
const facts = (days: PackedDay[], more: Partial<PackedFile> = {}): PackedFile => ({
  format: 'claude-code',
  project: 'proj-7\n/home/dev/src/proj-7',
  topLevel: 1,
  lengthBucket: 2,
  turns: 14,
  tools: [
    ['Bash', 12, 1],
    ['Read', 30, 0],
  ],
  days,
  ...more,
});

describe('packed file facts', () => {
  it('give back every number exactly: whole, fractional, negative, huge, -0, NaN and infinities', () => {
    const sums = [0, 1, 127, 128, 2 ** 52 + 2, 0.1 + 0.2, -3, 1e300];
    const odd = [-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, 1.5, 16_383, 16_384];
    const file = facts(
      [
        row('2026-01-02', 'claude-opus-4-7', sums, [
          [0, 3, 1234.5],
          [23, 2 ** 40, 7],
        ]),
        row('2026-01-03', 'gpt-5', odd),
      ],
      { lengthBucket: -1, turns: 2 ** 33, tools: [['exec_command', 0.5, -1]] },
    );
    const { ok, file: back } = unpack(packFile(file));
    expect(ok).toBe(true);
    expect(back).toEqual(file);
    expect(Object.is(back?.days[1]?.sums[0], -0)).toBe(true);
  });

  it('lists the day rows in their key order (day, then model, by their UTF-8 bytes), without the rows of no day', () => {
    const days = [
      row('2026-02-01', 'b', [1, 0, 0, 0, 0, 0, 0, 1]),
      row('', 'a', [9, 0, 0, 0, 0, 0, 0, 9]),
      row('2026-01-31', 'ü-model', [2, 0, 0, 0, 0, 0, 0, 1]),
      row('2026-01-31', 'z', [3, 0, 0, 0, 0, 0, 0, 1]),
      row('2026-01-31', '', [4, 0, 0, 0, 0, 0, 0, 1]),
    ];
    const { file } = unpack(packFile(facts(days)));
    expect(file?.days.map((r) => [r.day, r.model])).toEqual([
      ['2026-01-31', ''],
      ['2026-01-31', 'z'],
      ['2026-01-31', 'ü-model'],
      ['2026-02-01', 'b'],
    ]);
  });

  it('are the same bytes for the same facts, whatever order the day rows come in', () => {
    const days = [row('2026-02-01', 'b', [1, 2, 3, 4, 5, 6, 7, 8]), row('2026-01-01', 'a', [8, 7, 6, 5, 4, 3, 2, 1])];
    expect(packFile(facts(days))).toEqual(packFile(facts([...days].reverse())));
  });

  it('hold a file with no day rows and no tools (a session with no usage)', () => {
    const file = facts([], { tools: [], topLevel: 0 });
    expect(unpack(packFile(file))).toEqual({ ok: true, file });
  });

  it('are read many at a time by one reader, their strings looked up once', () => {
    const reader = new PackReader();
    for (let n = 0; n < 50; n++) {
      const file = facts(
        [row(`2026-03-${String((n % 28) + 1).padStart(2, '0')}`, n % 2 ? 'claude-sonnet-4-5' : 'claude-opus-4-7', [n, n, n, n, n, n / 3, 0, n])],
        {
          project: `proj-${n % 3}`,
        },
      );
      expect(unpack(packFile(file), reader).file).toEqual(file);
    }
  });

  it('are read from packs laid end to end (as the dashboard reads the others’ in one value), each within its bounds', () => {
    const files = [0, 1, 2].map((n) =>
      facts([row(`2026-04-0${n + 1}`, 'claude-opus-4-7', [n, 1, 2, 3, 4, 0.1 * n, 0, 1], [[n, 1, 5]])], { project: `proj-${n}`, turns: n }),
    );
    const packs = files.map(packFile);
    const all = new Uint8Array(packs.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of packs) {
      all.set(p, at);
      at += p.length;
    }
    const reader = new PackReader();
    at = 0;
    packs.forEach((p, n) => {
      expect(unpack(all, reader, at, at + p.length)).toEqual({ ok: true, file: files[n] });
      at += p.length;
    });
    // Bounds one byte off either way (the pack would end inside the next one, or before its own end), past the end, empty.
    const first = packs[0]!.length;
    expect(unpack(all, reader, 0, first + 1).ok).toBe(false);
    expect(unpack(all, reader, 0, first - 1).ok).toBe(false);
    expect(unpack(all, reader, first, all.length + 1).ok).toBe(false);
    expect(unpack(all, reader, first, first).ok).toBe(false);
  });

  it('refuse a pack of another version, one cut short and one with bytes left over', () => {
    const pack = packFile(facts([row('2026-01-02', 'm', [1, 2, 3, 4, 5, 6.5, 7, 8], [[4, 1, 2]])]));
    const other = pack.slice();
    other[0] = 2;
    expect(unpack(other).ok).toBe(false);
    for (let cut = 1; cut < pack.length; cut++) expect(unpack(pack.subarray(0, cut)).ok, `cut at ${cut}`).toBe(false);
    expect(unpack(Uint8Array.of(...pack, 0)).ok).toBe(false);
    expect(unpack(new Uint8Array(0)).ok).toBe(false);
  });
});
