// The day rows' hours JSON read without JSON.parse gives what JSON.parse gives, whole numbers or not.
import { describe, expect, it } from 'vitest';
import { eachHour } from './usage-hours-json.ts';

const read = (rows: string[]) => {
  const hours: number[][] = [];
  eachHour(rows, (hour, calls, tokens) => hours.push([hour, calls, tokens]));
  return hours;
};
const parsed = (rows: string[]) => rows.flatMap((r) => JSON.parse(r) as number[][]);

describe('eachHour', () => {
  it('reads whole numbers, and rows of no hours', () => {
    const rows = ['[[0,1,120],[13,4,98765]]', '[]', '[[23,2,0]]'];
    expect(read(rows)).toEqual([
      [0, 1, 120],
      [13, 4, 98765],
      [23, 2, 0],
    ]);
  });

  it('gives JSON.parse’s values for what is not a plain whole number: fractions, exponents, numbers past 15 digits', () => {
    const rows = ['[[1,2,3.5]]', '[[1,2,1e+21]]', '[[4,5,6],[7,8,12345678901234567]]', '[[2,0,-1]]', '[ [1, 2, 3] ]'];
    expect(read(rows)).toEqual(parsed(rows));
  });

  it('takes nothing of a row it cannot read as plain numbers before reading it as JSON (no hour counted twice)', () => {
    const rows = ['[[1,1,10],[2,1,2.5]]'];
    expect(read(rows)).toEqual([
      [1, 1, 10],
      [2, 1, 2.5],
    ]);
  });
});
