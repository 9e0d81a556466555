// Malformed files of the sample corpus that imitate a Vizier session or a generic session.json, through the Vizier parser: clear refusals or readable sessions with warnings.
import { expect } from 'vitest';
import { parseVizierDocument } from './vizier.ts';
import { describeMalformed, parseDocumentWith, type MalformedExpectation } from '../../test-support/malformed-suite.ts';

/** Malformed files that imitate a Vizier session or a generic session.json, fed to the parser directly. */
const MALFORMED: Record<string, MalformedExpectation> = {
  'concatenated_json_documents__session.json': { code: 'invalid_json', phrase: 'Unexpected non-whitespace character after JSON' },
  'control_chars_raw_in_string__session.json': { code: 'invalid_json', phrase: 'Bad control character in string literal' },
  'deep_nesting_10000_arrays__session.json': { code: 'wrong_shape', phrase: 'the file holds an array (1 item) where a JSON object is expected' },
  'deep_nesting_10000_objects__session.json': {
    warnings: ['unknown_field'],
    check: (s) => expect(s.id).toBe('deep0000-0000-4000-8000-000000000001'),
  },
  'html_error_page_instead_of_json__session.json': { code: 'invalid_json', phrase: 'it starts with "<"' },
  'json_comments_and_trailing_commas__session.json': { code: 'invalid_json', phrase: 'line 2, column 3' },
  'nan_infinity_literals__session.json': { code: 'invalid_json', phrase: "Unexpected token 'N'" },
  'numbers_out_of_range__session.json': { code: 'wrong_shape', phrase: 'no known field has a usable value (unknown fields version, turn_count' },
  'trailing_garbage_after_json__vizier_session.json': { code: 'invalid_json', phrase: 'line 10, column 1' },
  'truncated_json__vizier_session_cut_after_key.json': { code: 'invalid_json', phrase: 'it was probably cut off while being written' },
  'unknown_future_version__vizier_session_v9.json': {
    code: 'unsupported_version',
    phrase: 'Vizier schema "vizier.session.v9" is newer than this app understands.',
  },
  'utf8_bom__vizier_session.json': {
    warnings: ['bom'],
    check: (s) =>
      expect([s.id, s.outcome?.status, s.messages.length, s.title]).toEqual(['b0b0b0b0-0000-4000-8000-000000000001', 'completed', 0, 'Vizier session']),
  },
  'whitespace_only__session.json': { code: 'empty_file', phrase: 'File contains only whitespace.' },
  'wrong_top_level__array_instead_of_object.json': { code: 'wrong_shape', phrase: 'Not a Vizier session: the file holds an array (2 items)' },
  'wrong_types__vizier_messages_is_object.json': {
    warnings: Array(13).fill('wrong_type'),
    check: (s) => {
      expect(s.id).toBe('wrong_types__vizier_messages_is_object');
      expect([s.messages, s.operations, s.outcome, s.model, s.config]).toEqual([[], [], null, null, []]);
      const text = s.warnings.map((w) => w.message);
      expect(text).toContain('Field "messages" should be a list but is an object; it was skipped.');
      expect(text).toContain('Field "id" should be a string but is a number (42); it was skipped.');
      expect(text).toContain('Field "outcome" should be an object but is a string ("completed"); it was skipped.');
    },
  },
  'zero_byte__session.json': { code: 'empty_file', phrase: 'File is empty (0 bytes).' },
};

describeMalformed(
  'malformed inputs through the Vizier parser',
  {
    what: 'Vizier-like or generic session.json',
    select: (n) => n.endsWith('__session.json') || n.includes('vizier') || n === 'wrong_top_level__array_instead_of_object.json',
  },
  MALFORMED,
  parseDocumentWith(parseVizierDocument),
);
