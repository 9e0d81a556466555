// A Claude Code on the web session document ({loglines}) opens wherever it lies, with the same conversation as the transcript it mirrors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { resolveReader } from '../recognize.ts';
import { readClaudeCodeFile } from './claude-code.ts';

// The web API answers a session as {loglines: [...]} holding the records a local transcript has one per line
// (see simonw/claude-code-transcripts, which renders both); this builds one from a sample transcript.
const SAMPLE = join(samplesDir, 'claude-code/projects/-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl');
const loglines = () =>
  readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);

describe('Claude Code web session documents', () => {
  it('are recognised in a plain folder and read into the same conversation as the transcript, each record pointed at in the document', async () => {
    const path = join(testTempDir('sv-cc-web-'), 'session from the web.json');
    writeFileSync(path, JSON.stringify({ loglines: loglines() }, null, 2));
    const reader = await resolveReader(path);
    expect(reader?.format).toBe('claude-code');
    const session = await reader!.read(path);
    expect(() => Session.parse(session)).not.toThrow();
    const local = await readClaudeCodeFile(SAMPLE);
    expect(session.key).toBe(local.key);
    expect(session.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual(local.messages.map((m) => [m.role, m.parts.map((p) => p.type)]));
    expect(session.messages[0]?.origin).toEqual({ fileIndex: 0, line: null, pointer: '/loglines/0' });
    expect(session.usage).toEqual(local.usage);
  });

  it('are recognised from the head of a document too long to parse whole', async () => {
    const padding = Array.from({ length: 400 }, (_, i) => ({ type: 'progress', uuid: `p-${i}`, data: 'x'.repeat(200) }));
    const path = join(testTempDir('sv-cc-web-'), 'long.json');
    writeFileSync(path, JSON.stringify({ loglines: [...loglines(), ...padding] }));
    expect((await resolveReader(path))?.format).toBe('claude-code');
  });

  it('leave other JSON documents with a loglines key alone', async () => {
    const path = join(testTempDir('sv-cc-web-'), 'film.json');
    writeFileSync(path, JSON.stringify({ primaryTitle: 'Heist', loglines: ['A crew of thieves…', 'One last job.'] }));
    expect((await resolveReader(path))?.format).toBeUndefined();
  });
});
