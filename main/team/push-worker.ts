// What the loader's read worker does for one session of a push: Share's preparation, the roots check against the push's real roots, then everything the push sends, so the main thread only writes.
import type { JsonScan, PreparedSession, ShareSpec } from '../bundle/prepare-session.ts';
import { scanContext } from '../bundle/prepare-session.ts';
import { prepareGated } from '../bundle/session-gate.ts';
import { PushFileCheck } from './push-file-check.ts';
import { readyToPush, type PushGate, type PushReady, type PushSpec } from './push-prepare.ts';

/**
 * `prepare` parses nothing again: it serializes and scans the session this worker parsed, with its files named
 * as `share` says. With a gate, the session's files pass the same roots check as every bundle's (session-gate.ts),
 * against roots the push resolved once; a session refused whole is skipped with the check's reason.
 */
export async function preparePushHere(
  key: string,
  prepare: (share: ShareSpec | undefined) => Promise<PreparedSession>,
  scan: JsonScan,
  spec: PushSpec,
  gate: PushGate | null,
  letGo: (json: Buffer) => void,
): Promise<PushReady> {
  let prepared: PreparedSession;
  try {
    prepared = gate ? await prepareGated(key, prepare, new PushFileCheck(gate.roots), gate.vault, (p) => p.json && letGo(p.json)) : await prepare(undefined);
  } catch (err) {
    return { kind: 'skipped', reason: (err as Error).message ?? String(err), findings: [] };
  }
  return readyToPush(prepared, spec, scanContext(scan.env, scan.keep), letGo);
}
