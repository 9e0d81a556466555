// Hermes message records become canonical parts: reasoning, images, tool calls, compaction summaries; what is skipped says so.
import { describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { readHermesTranscript } from './hermes-transcript.ts';
import { buildHermesSession } from './hermes-session.ts';

function read(messages: unknown[], extra: Record<string, unknown> = {}) {
  const warnings = new WarningList();
  const t = readHermesTranscript({ session_id: 'x', messages, ...extra }, warnings);
  return { t, warnings: warnings.list() };
}

describe('Hermes messages', () => {
  it('keeps reasoning as thinking (each distinct text once) before the reply, and a redacted mark for encrypted-only reasoning', () => {
    const { t } = read([
      {
        role: 'assistant',
        content: 'Answer',
        reasoning: 'Think.',
        reasoning_content: 'Think.',
        reasoning_details: [{ type: 'reasoning.text', text: 'Also this.' }],
      },
      { role: 'assistant', content: 'Hidden thoughts', codex_reasoning_items: [{ type: 'reasoning', encrypted_content: 'gAAA' }] },
    ]);
    expect(t.messages[0]!.parts).toEqual([
      { type: 'thinking', text: 'Think.', redacted: false },
      { type: 'thinking', text: 'Also this.', redacted: false },
      { type: 'text', text: 'Answer' },
    ]);
    expect(t.messages[1]!.parts[0]).toEqual({ type: 'thinking', text: '', redacted: true });
  });

  it('reads multimodal user content: text and an inline data-URL image', () => {
    const { t } = read([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
        ],
      },
    ]);
    expect(t.messages[0]!.parts).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0K', url: null },
    ]);
  });

  it('keeps malformed tool arguments as the text the model sent, and skips a nameless call with a warning', () => {
    const { t, warnings } = read([
      {
        role: 'assistant',
        tool_calls: [
          { id: 'c1', function: { name: 'terminal', arguments: '{"command": ' } },
          { id: 'c2', function: { arguments: '{}' } },
        ],
      },
    ]);
    expect(t.messages[0]!.parts).toEqual([{ type: 'tool_call', callId: 'c1', name: 'terminal', input: '{"command": ' }]);
    expect(warnings.map((w) => w.code)).toEqual(['missing_field']);
  });

  it('shows the summary Hermes puts in place of compressed context as a compaction, not as something the user typed', () => {
    const { t } = read([{ role: 'user', content: '[CONTEXT COMPACTION - REFERENCE ONLY] Earlier we fixed the parser.' }]);
    expect(t.messages[0]!.role).toBe('system');
    expect(t.messages[0]!.parts).toEqual([
      { type: 'compaction', summary: '[CONTEXT COMPACTION - REFERENCE ONLY] Earlier we fixed the parser.', trigger: 'compression', tokensBefore: null },
    ]);
  });

  it('never shows an empty message, and reports it, an unknown role and an unknown content item', () => {
    const { t, warnings } = read(
      [
        { role: 'assistant', content: '   ' },
        { role: 'critic', content: 'hmm' },
        {
          role: 'user',
          content: [
            { type: 'audio', data: 'x' },
            { type: 'text', text: 'and this' },
          ],
        },
      ],
      { message_count: 3 },
    );
    expect(t.messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'and this' }]]);
    expect(warnings.map((w) => w.message)).toEqual([
      'An assistant message (message 1) has no content; it was left out (the raw record is in the file).',
      'Unknown Hermes message role "critic": 1 message skipped.',
      'Unknown Hermes content item "audio" (1 item) ignored.',
      'The transcript says it holds 3 messages but 1 could be read.',
    ]);
  });

  it('notes a reply cut off by length, and takes the session header from a session_meta entry', () => {
    const { t } = read([
      {
        role: 'session_meta',
        model: 'qwen3',
        platform: 'telegram',
        timestamp: '2026-05-01T10:00:00Z',
        tools: [{ type: 'function', function: { name: 'terminal' } }],
      },
      { role: 'assistant', content: 'Partial answ', finish_reason: 'length' },
    ]);
    expect(t.messages[0]!.annotations).toEqual({ stopReason: 'length' });
    expect([t.model, t.platform, t.startedAt, t.tools]).toEqual(['qwen3', 'telegram', '2026-05-01T10:00:00.000Z', ['terminal']]);
  });

  it("titles a session by what the user asked, not by a skill's preamble", () => {
    const warnings = new WarningList();
    const preamble =
      '[SYSTEM: The user has invoked the "deploy" skill.]\n\n---\nname: deploy\n---\nSteps...\n\nThe user has provided the following instruction alongside the skill invocation: ship v2 today';
    const t = readHermesTranscript({ session_id: 'x', messages: [{ role: 'user', content: preamble }] }, warnings);
    const s = buildHermesSession({ id: 'x', formatVersion: 'transcript', sourceFiles: [], transcript: t, store: null, warnings, now: 0 });
    expect(s.title).toBe('ship v2 today');
    expect(s.messages[0]!.parts).toEqual([{ type: 'text', text: preamble }]);
  });
});
