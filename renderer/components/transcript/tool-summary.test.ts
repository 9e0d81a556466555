// The one-line argument summary a tool card shows, and clipping long output.
import { describe, expect, it } from 'vitest';
import { clipOutput, prettyArguments, summarizeToolInput } from './tool-summary.ts';

describe('summarizeToolInput', () => {
  it('shows the path, command, pattern or URL a call works on', () => {
    expect(summarizeToolInput({ file_path: '/src/a.ts', limit: 20 })).toBe('/src/a.ts');
    expect(summarizeToolInput({ command: 'npm test', description: 'Run tests' })).toBe('npm test');
    expect(summarizeToolInput({ pattern: 'Date.now', path: 'src' })).toBe('Date.now · src');
    expect(summarizeToolInput({ url: 'https://example.com', prompt: 'summarize' })).toBe('https://example.com');
    expect(summarizeToolInput({ description: 'Find uses', subagent_type: 'Explore', prompt: 'long' })).toBe('Find uses · Explore');
  });

  it('reads Codex argv and JSON-string arguments, and apply_patch bodies', () => {
    expect(summarizeToolInput({ command: ['bash', '-lc', 'ls -la src'] })).toBe('ls -la src');
    expect(summarizeToolInput('{"cmd":"cargo build"}')).toBe('cargo build');
    expect(summarizeToolInput('*** Begin Patch\n*** Update File: src/a.rs\n@@\n*** Add File: src/b.rs\n')).toBe('src/a.rs, src/b.rs');
  });

  it('falls back to the first readable value, then compact JSON, and stays on one short line', () => {
    expect(summarizeToolInput({ depth: 3, nested: { a: 1 } })).toBe('3');
    expect(summarizeToolInput({ nested: { a: 1 } })).toBe('{"nested":{"a":1}}');
    expect(summarizeToolInput({})).toBe('');
    expect(summarizeToolInput(null)).toBe('');
    const long = summarizeToolInput({ command: `echo ${'x'.repeat(500)}\nsecond line` });
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long.endsWith('…')).toBe(true);
    expect(long).not.toContain('\n');
  });

  it('pretty-prints arguments, unpacking a JSON string', () => {
    expect(prettyArguments('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArguments('plain text')).toBe('plain text');
  });
});

describe('clipOutput', () => {
  it('cuts at a line boundary and reports what is hidden', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const c = clipOutput(text, 40, 100_000);
    expect(c.text.split('\n')).toHaveLength(40);
    expect(c.hiddenLines).toBe(60);
    expect(clipOutput('short')).toEqual({ text: 'short', hiddenLines: 0, hiddenChars: 0 });
  });

  it('also cuts one enormous line by characters', () => {
    const c = clipOutput('y'.repeat(10_000), 40, 4000);
    expect(c.text).toHaveLength(4000);
    expect(c.hiddenChars).toBe(6000);
  });
});
