// Every malformed file of the sample corpus that imitates Claude Code, through the Claude Code parser: all stay readable, with the warnings they deserve.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { parseClaudeCode } from './claude-code.ts';
import { readJsonLines } from '../jsonl.ts';
import { isRecord } from '../coerce.ts';

const DAY = 24 * 3600_000;

interface Expectation {
  warnings: string[];
  messages: number;
  check?: (s: Session) => void;
}

/** Every malformed file that imitates Claude Code, parsed as a session named after the file: all stay readable. */
const MALFORMED: Record<string, Expectation> = {
  'blank_lines_between_records__claude_code.jsonl': { warnings: [], messages: 2 },
  'crlf_line_endings__claude_code.jsonl': {
    warnings: [],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: 'hi there' }]),
  },
  'invalid_utf8_bytes__claude_code.jsonl': {
    warnings: ['invalid_utf8'],
    messages: 3,
    check: (s) => expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: expect.stringMatching(/^bad bytes: \uFFFD+ .* end$/) }),
  },
  'lone_surrogate_escape__claude_code.jsonl': {
    warnings: ['lone_surrogate'],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: 'half an emoji: \uFFFD and a reversed pair \uFFFD\uFFFD' }),
  },
  'torn_last_line__claude_code.jsonl': { warnings: ['torn_line'], messages: 2, check: (s) => expect(s.usage?.output).toBe(3) },
  'unknown_record_types__claude_code.jsonl': {
    warnings: ['unknown_record_type', 'unknown_block_type'],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: 'still readable' }]),
  },
  'utf8_bom__claude_code.jsonl': { warnings: ['bom'], messages: 2, check: (s) => expect(s.title).toBe('hello') },
  'wrong_types__claude_code_content_and_usage.jsonl': {
    warnings: [
      'wrong_type',
      'wrong_type',
      'missing_content',
      'bad_timestamp',
      'wrong_type',
      'wrong_type',
      'bad_value',
      'bad_value',
      'missing_content',
      'missing_type',
      'not_a_record',
      'not_a_record',
      'not_a_record',
    ],
    // Neither turn holds content of a usable type, nor the reply a usable model or token count: both are left out,
    // each with a warning, never shown as empty messages.
    messages: 0,
    check: (s) => {
      expect(s.warnings.filter((w) => w.code === 'missing_content').map((w) => w.message)).toEqual([
        'A user message has no content (none of it can be shown); it was left out (the raw record is in the file).',
        'An assistant message has no content (none of it can be shown); it was left out (the raw record is in the file).',
      ]);
      expect(s.usage).toBeNull();
      expect(s.warnings.find((w) => w.code === 'bad_value')?.message).toBe(
        'Field "message.usage.output_tokens" should be a whole number of tokens of at least 0 but is -5; it was skipped.',
      );
    },
  },
};

describe('malformed inputs through the Claude Code parser', () => {
  const dir = join(samplesDir, 'malformed');

  it('has an expectation for every Claude Code-like sample', () => {
    expect(
      readdirSync(dir)
        .filter((n) => n.includes('__claude_code'))
        .sort(),
    ).toEqual(Object.keys(MALFORMED).sort());
  });

  it.each(Object.entries(MALFORMED))('%s', async (name, expected) => {
    const path = join(dir, name);
    const { records, warnings } = await readJsonLines(path);
    const s = parseClaudeCode(records, { path, size: 1, mtimeMs: 0, now: DAY, warnings, layout: null, meta: null, children: [], extraFiles: [] });
    expect(Session.safeParse(s).success).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.warnings.flatMap((w) => Array(w.count).fill(w.code))).toEqual(expected.warnings);
    expect(s.messages).toHaveLength(expected.messages);
    // Loose files: the session their records name, else the file's name.
    const named = records.some((r) => isRecord(r.value) && typeof r.value.sessionId === 'string');
    expect(s.key).toBe(named ? 'claude-code:m0000000-0000-4000-8000-00000000aaaa' : `claude-code:${name.replace(/\.jsonl$/, '')}`);
    expected.check?.(s);
  });
});
