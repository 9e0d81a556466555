// Checks every reader test makes: a read session is schema-valid plain JSON; a refused file fails with an UnreadableError.
import { expect } from 'vitest';
import { Session } from '../../shared/session.ts';
import { UnreadableError } from '../sources/types.ts';

/** The session, after checking it matches the canonical schema and survives a JSON round trip unchanged. */
export function valid(session: Session): Session {
  expect(Session.safeParse(session).success).toBe(true);
  expect(JSON.parse(JSON.stringify(session))).toEqual(session);
  return session;
}

/** The UnreadableError `run` fails with; any other outcome fails the test. */
export async function failure(run: () => unknown): Promise<UnreadableError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof UnreadableError) return err;
    throw err;
  }
  throw new Error('expected an UnreadableError');
}
