// One table-driven suite for a reader's malformed samples (samples/malformed): each one it selects has an expectation, and is refused with its code and phrase or read into a schema-valid session with exactly its warnings.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../shared/session.ts';
import { readDocument, type DocumentContext } from '../sources/coerce.ts';
import type { UnreadableError } from '../sources/types.ts';
import { samplesDir } from './samples.ts';
import { failure } from './reader-checks.ts';

/** Refused with this code and a message containing the phrase, or read with exactly these warnings (and the check). */
export type MalformedExpectation = { code: UnreadableError['code']; phrase: string } | { warnings: string[]; check?: (s: Session) => void };

/** A JSON document reader's parse of a file, as the app reads it (decoded, parsed, then given to the parser). */
export function parseDocumentWith(parse: (value: unknown, ctx: DocumentContext) => Session): (path: string) => Promise<Session> {
  return async (path) => {
    const { value, ctx } = await readDocument(path);
    return parse(value, ctx);
  };
}

export function describeMalformed(
  title: string,
  which: { what: string; select: (name: string) => boolean },
  table: Record<string, MalformedExpectation>,
  parse: (path: string) => Promise<Session>,
): void {
  describe(title, () => {
    const dir = join(samplesDir, 'malformed');

    it(`has an expectation for every ${which.what} sample`, () => {
      expect(readdirSync(dir).filter(which.select).sort()).toEqual(Object.keys(table).sort());
    });

    it.each(Object.entries(table))('%s', async (name, expected) => {
      const path = join(dir, name);
      if ('code' in expected) {
        const err = await failure(() => parse(path));
        expect(err.code).toBe(expected.code);
        expect(err.message).toContain(expected.phrase);
        return;
      }
      const s = await parse(path);
      expect(Session.safeParse(s).success).toBe(true);
      expect(() => JSON.stringify(s)).not.toThrow();
      expect(s.warnings.flatMap((w) => Array(w.count).fill(w.code))).toEqual(expected.warnings);
      expected.check?.(s);
    });
  });
}
