// Hostile ai-agent snapshot files (truncated or multi-member gzip, payload refs escaping the root): clear errors, nothing looked up outside.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAiAgentSnapshot } from './ai-agent-snapshot.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { failure } from '../../test-support/reader-checks.ts';
import { parseBytes, read } from './ai-agent-test-read.ts';

const malformed = (name: string) => join(samplesDir, 'malformed', name);

describe('hostile snapshot files', () => {
  it.each([
    [
      'gzip_bad_crc__snapshot.json.gz',
      'invalid_encoding',
      'The gzip data is corrupt: its CRC-32 checksum does not match (the file was damaged after it was written).',
    ],
    [
      'gzip_truncated_stream__snapshot.json.gz',
      'invalid_encoding',
      'The gzip stream ends early (unexpected end of file): the file was cut off while being written.',
    ],
    [
      'not_gzip__snapshot.json.gz',
      'invalid_encoding',
      'Not gzip data: the file does not start with the gzip signature (1f 8b). It holds plain, uncompressed JSON under a .json.gz name.',
    ],
    [
      'gzip_valid_but_unsupported_version_3__snapshot.json.gz',
      'unsupported_version',
      'ai-agent snapshot version 3 is not supported (this app reads snapshot versions 1 and 2).',
    ],
  ])('%s is unreadable: %s', async (name, code, message) => {
    const err = await failure(() => readAiAgentSnapshot(malformed(name)));
    expect([err.code, err.message]).toEqual([code, message]);
  });

  it('gzip of truncated JSON is invalid_json and says where it ends', async () => {
    const err = await failure(() => readAiAgentSnapshot(malformed('gzip_of_invalid_json__snapshot.json.gz')));
    expect(err.code).toBe('invalid_json');
    expect(err.message).toBe('Invalid JSON: Unexpected end of JSON input. The file ends early: it was probably cut off while being written.');
  });

  it('reads every member of a multi-member gzip', async () => {
    const s = await parseBytes(malformed('gzip_multi_member__snapshot.json.gz'));
    expect([s.id, s.title, s.createdAt, s.status, s.operations]).toEqual([
      'd1e2f3a4-0000-4000-8000-00000000000c',
      'a',
      '1970-01-01T00:00:00.001Z',
      'unknown',
      [],
    ]);
  });

  it('refuses payload refs that escape the sessions root, naming them, and never looks them up', async () => {
    const s = await read(malformed('v2_payload_ref_path_escape__snapshot.json.gz'));
    expect(s.warnings).toEqual([
      {
        code: 'unsafe_payload_path',
        message: 'A payload reference points outside the sessions folder ("../../../../etc/passwd"); it was not opened.',
        count: 1,
      },
      { code: 'unsafe_payload_path', message: 'A payload reference points outside the sessions folder ("/etc/shadow"); it was not opened.', count: 1 },
    ]);
    const detail = s.operations[1]?.detail as {
      request: { payload: { refs: Array<{ state: string; size?: number }> } };
      response: { payload: { refs: Array<{ state: string }> } };
    };
    expect([detail.request.payload.refs[0], detail.response.payload.refs[0]].map((r) => r?.state)).toEqual(['refused', 'refused']);
    expect(detail.request.payload.refs[0]?.size).toBeUndefined();
    expect(s.messages[0]?.annotations).toEqual({ note: 'The response body is stored in /etc/shadow; it is not shown here.' });
  });
});
