// The session rows' tools JSON read without JSON.parse gives what JSON.parse gives, for the writer's plain rows and for any other JSON.
import { describe, expect, it } from 'vitest';
import { eachTool } from './usage-tools-json.ts';

const read = (text: string) => {
  const tools: Array<[string, number, number]> = [];
  eachTool(text, (name, calls, failures) => tools.push([name, calls, failures]));
  return tools;
};

describe('eachTool', () => {
  it('reads the writer’s rows: names and whole numbers, and a row of no tools', () => {
    expect(read('[["Bash",3,0],["exec_command",12,1],["mcp__github__create_issue",1,1]]')).toEqual([
      ['Bash', 3, 0],
      ['exec_command', 12, 1],
      ['mcp__github__create_issue', 1, 1],
    ]);
    expect(read('[]')).toEqual([]);
  });

  it('gives JSON.parse’s values for what is not plain: escapes, names of any script, fractions, spaces, long numbers', () => {
    for (const text of [
      JSON.stringify([['say "hi"', 1, 0]]),
      JSON.stringify([['back\\slash', 2, 1]]),
      JSON.stringify([['tab\there', 1, 0]]),
      JSON.stringify([
        ['écrire', 4, 0],
        ['読む', 2, 2],
      ]),
      '[["Read",1.5,0]]',
      '[["Read",1e3,0]]',
      '[ ["Read", 2, 0] ]',
      '[["Read",12345678901234567,0]]',
      '[["Read",-1,0]]',
    ])
      expect(read(text), text).toEqual(JSON.parse(text));
  });

  it('takes nothing of a row it cannot read as plain before reading it as JSON (no tool counted twice)', () => {
    expect(read('[["Bash",1,0],["Read",2.5,0]]')).toEqual([
      ['Bash', 1, 0],
      ['Read', 2.5, 0],
    ]);
  });

  it('refuses what is not JSON as JSON.parse does', () => {
    expect(() => read('[["Bash",1,0]')).toThrow(SyntaxError);
    expect(() => read('[["Bash",1,0]]x')).toThrow(SyntaxError);
  });
});
