// Tests for reading replies out of LLM payloads: Anthropic / OpenAI / ai-agent shapes, SSE streams, HTTP captures, size limits.
import { describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { captureReplyParts, decodeCapture, describeInline, MAX_CAPTURE_BYTES, outputText, replyParts, splitHttp, sseReplyParts } from './ai-agent-content.ts';

describe('replyParts', () => {
  it('reads an Anthropic message: thinking, text and tool_use blocks', () => {
    expect(
      replyParts({
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'redacted_thinking', data: 'xx' },
          { type: 'text', text: 'Hello' },
          { type: 'tool_use', id: 'toolu_1', name: 'grep', input: { q: 'x' } },
          { type: 'server_future_block' },
        ],
      }),
    ).toEqual([
      { type: 'thinking', text: 'hmm', redacted: false },
      { type: 'thinking', text: '', redacted: true },
      { type: 'text', text: 'Hello' },
      { type: 'tool_call', callId: 'toolu_1', name: 'grep', input: { q: 'x' } },
    ]);
  });

  it('reads an OpenAI completion with reasoning and JSON-text tool arguments', () => {
    expect(
      replyParts({
        choices: [
          {
            message: {
              content: 'Done',
              reasoning_content: 'think',
              tool_calls: [{ id: 'c1', function: { name: 'ls', arguments: '{"dir":"/"}' } }, { function: { name: 'echo', arguments: 'not json' } }],
            },
          },
        ],
      }),
    ).toEqual([
      { type: 'thinking', text: 'think', redacted: false },
      { type: 'text', text: 'Done' },
      { type: 'tool_call', callId: 'c1', name: 'ls', input: { dir: '/' } },
      { type: 'tool_call', callId: null, name: 'echo', input: 'not json' },
    ]);
  });

  it("reads ai-agent's own {tool_calls[{name, arguments}]} and plain or JSON strings", () => {
    expect(replyParts({ tool_calls: [{ name: 'fetch__get', arguments: { url: 'u' } }] })).toEqual([
      { type: 'tool_call', callId: null, name: 'fetch__get', input: { url: 'u' } },
    ]);
    expect(replyParts('Plain answer')).toEqual([{ type: 'text', text: 'Plain answer' }]);
    expect(replyParts('{"content":"from JSON text"}')).toEqual([{ type: 'text', text: 'from JSON text' }]);
    expect(replyParts('{"unrelated":1}')).toEqual([{ type: 'text', text: '{"unrelated":1}' }]);
    expect(replyParts({ unrelated: 1 })).toEqual([]);
    expect(replyParts(undefined)).toEqual([]);
  });
});

describe('sseReplyParts', () => {
  it('folds an Anthropic stream back into thinking, text and a tool call with its streamed input', () => {
    const stream = [
      'event: content_block_start',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking"}}',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Need "}}',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"docs."}}',
      'data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Fetching."}}',
      'data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_9","name":"fetch"}}',
      'data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"url\\":"}}',
      'data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\\"u\\"}"}}',
      'data: not json',
    ].join('\n');
    expect(sseReplyParts(stream)).toEqual([
      { type: 'thinking', text: 'Need docs.', redacted: false },
      { type: 'text', text: 'Fetching.' },
      { type: 'tool_call', callId: 'toolu_9', name: 'fetch', input: { url: 'u' } },
    ]);
  });

  it('folds OpenAI chunks, including tool calls split across chunks', () => {
    const stream = [
      'data: {"choices":[{"delta":{"content":"Hi "}}]}',
      'data: {"choices":[{"delta":{"content":"there"}}]}',
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"ls","arguments":"{\\"d"}}]}}]}',
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\":1}"}}]}}]}',
      'data: [DONE]',
    ].join('\r\n');
    expect(sseReplyParts(stream)).toEqual([
      { type: 'text', text: 'Hi there' },
      { type: 'tool_call', callId: 'call_1', name: 'ls', input: { d: 1 } },
    ]);
  });
});

describe('HTTP captures', () => {
  it('drops the headers (they can hold credentials) and keeps the start line and body', () => {
    expect(splitHttp('POST /v1/messages HTTP/1.1\r\nauthorization: secret\r\n\r\n{"a":1}')).toEqual({
      startLine: 'POST /v1/messages HTTP/1.1',
      body: '{"a":1}',
    });
    expect(splitHttp('{"a":1}')).toEqual({ startLine: null, body: '{"a":1}' });
    expect(captureReplyParts('HTTP/1.1 200 OK\r\n\r\n{"content":[{"type":"text","text":"ok"}]}', 'http')).toEqual([{ type: 'text', text: 'ok' }]);
    expect(captureReplyParts('HTTP/1.1 200 OK\n\ndata: {"choices":[{"delta":{"content":"s"}}]}\n', 'sse')).toEqual([{ type: 'text', text: 's' }]);
  });

  it('decodes base64 bodies but refuses ones over 1 MiB with a warning', () => {
    const warnings = new WarningList();
    expect(decodeCapture(Buffer.from('héllo').toString('base64'), warnings, 'LLM response')).toBe('héllo');
    expect(decodeCapture('A'.repeat(Math.ceil((MAX_CAPTURE_BYTES * 4) / 3) + 8), warnings, 'LLM response')).toBeNull();
    expect(warnings.list()).toEqual([
      { code: 'payload_too_large', message: 'A captured LLM response body is larger than 1 MiB; it was not decoded.', count: 1 },
    ]);
  });
});

describe('describeInline and outputText', () => {
  it('describes payloads briefly and renders tool output as text', () => {
    expect(describeInline('x'.repeat(200))).toMatchObject({ type: 'text', chars: 200 });
    expect((describeInline('x'.repeat(200)) as { preview: string }).preview).toHaveLength(160);
    expect(describeInline({ a: 1, b: [1] })).toEqual({ type: 'json', keys: ['a', 'b'], chars: 15 });
    expect(describeInline(null)).toBeNull();
    expect(outputText({ rows: 2 })).toBe('{\n  "rows": 2\n}');
    expect(outputText(undefined)).toBe('');
  });
});
