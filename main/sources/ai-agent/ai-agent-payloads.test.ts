// Tests for payload references: paths that leave the sessions root are refused, captured ones are looked up by stat only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { PayloadRefs, resolveInside } from './ai-agent-payloads.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';

describe('resolveInside', () => {
  it('keeps producer-relative paths inside the root', () => {
    expect(resolveInside('/r', 'payloads/a/turn-0001/llm-0001-request.http.gz')).toBe('/r/payloads/a/turn-0001/llm-0001-request.http.gz');
    expect(resolveInside('/r', 'payloads/a/../b/./x.gz')).toBe('/r/payloads/b/x.gz');
  });

  it.each(['../../../../etc/passwd', '/etc/shadow', 'payloads/../../x', 'C:\\Windows\\win.ini', 'c:/x', '\\\\server\\share\\x', 'payloads/x\0.gz', '..', '.'])(
    'refuses %j',
    (p) => expect(resolveInside('/r', p)).toBeNull(),
  );
});

describe('PayloadRefs', () => {
  it('marks a present file with its size, a missing one with one merged warning, and never probes a refused path', async () => {
    const root = testTempDir('ai-agent-payloads-');
    mkdirSync(join(root, 'payloads/s1/turn-0001'), { recursive: true });
    writeFileSync(join(root, 'payloads/s1/turn-0001/llm-0001-request.http.gz'), Buffer.alloc(77));
    const warnings = new WarningList();
    const refs = new PayloadRefs(root, warnings);
    const present = refs.read({ kind: 'llm_request', path: 'payloads/s1/turn-0001/llm-0001-request.http.gz', captured: true, sha256: 'ab' }, 'ref');
    const missing1 = refs.read({ kind: 'llm_response', path: 'payloads/s1/turn-0001/llm-0001-response.sse.gz', captured: true }, 'ref');
    const missing2 = refs.read({ kind: 'llm_response', path: 'payloads/s1/turn-0002/llm-0002-response.sse.gz' }, 'ref');
    const uncaptured = refs.read({ kind: 'llm_request', path: 'payloads/s1/turn-0003/x.gz', captured: false }, 'ref');
    const refused = refs.read({ kind: 'llm_request', path: '../outside.gz', captured: true }, 'ref');
    expect(refs.read({ note: 'no path, no capture flag' }, 'ref')).toBeNull();
    await refs.probe();
    expect(present).toMatchObject({ state: 'present', size: 77, sha256: 'ab' });
    expect([missing1?.state, missing2?.state, uncaptured?.state, refused?.state]).toEqual(['missing', 'missing', 'not_captured', 'refused']);
    expect(warnings.list()).toEqual([
      { code: 'unsafe_payload_path', message: 'A payload reference points outside the sessions folder ("../outside.gz"); it was not opened.', count: 1 },
      {
        code: 'missing_payload',
        message:
          'Payload files referenced by the session are not on disk (first: payloads/s1/turn-0001/llm-0001-response.sse.gz); only their recorded size and checksum are shown.',
        count: 2,
      },
    ]);
  });

  it('warns about a reference that is not an object and a capture flag of the wrong type', () => {
    const warnings = new WarningList();
    const refs = new PayloadRefs('/r', warnings);
    expect(refs.read('payloads/x.gz', 'request.payload.ref')).toBeNull();
    expect(refs.read({ path: 'payloads/x.gz', captured: 'yes' }, 'request.payload.ref')?.captured).toBeNull();
    expect(warnings.list().map((w) => w.code)).toEqual(['wrong_type', 'wrong_type']);
  });
});
