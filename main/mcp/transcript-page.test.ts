// Transcript pages for assistants: never over their character budget (the largest sample file and the longest sample transcript), nothing lost between pages.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../shared/session.ts';
import { resolveReader } from '../sources/recognize.ts';
import { samplesDir } from '../test-support/samples.ts';
import { transcriptPage, type MessageSource, type TranscriptCursor } from './transcript-page.ts';
import { messageText } from './transcript-text.ts';

const sourceOf = (messages: Message[]): MessageSource => ({ total: messages.length, read: async (offset, limit) => messages.slice(offset, offset + limit) });

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every session the sample corpus holds (a store's one by one), each with its file; the malformed samples that fail are none. */
async function sampleSessions(): Promise<Array<{ path: string; session: Session }>> {
  const found: Array<{ path: string; session: Session }> = [];
  for (const path of files(samplesDir)) {
    const reader = await resolveReader(path);
    if (!reader) continue;
    try {
      const store = reader.container && (reader.container.isStore?.(path) ?? true) ? reader.container : null;
      const sessions = store ? await Promise.all((await store.list(path)).map((s) => store.readOne(path, s.id))) : [await reader.read(path)];
      for (const session of sessions) if (session.messages.length) found.push({ path, session });
    } catch {
      // Unreadable samples (the malformed ones) are no session to page through.
    }
  }
  return found;
}

const transcriptLength = (session: Session) => session.messages.reduce((n, m, i) => n + messageText(m, i).length, 0);

async function allPages(messages: Message[], maxChars: number, header = '') {
  const pages = [];
  let cursor: TranscriptCursor | null = { fromMessage: 0, fromChar: 0 };
  while (cursor) {
    const page = await transcriptPage(sourceOf(messages), cursor, maxChars, header);
    pages.push(page);
    expect(pages.length).toBeLessThan(100_000);
    cursor = page.next;
  }
  return pages;
}

const message = (id: string, role: Message['role'], parts: Message['parts']): Message => ({
  id,
  role,
  timestamp: null,
  model: null,
  usage: null,
  cost: null,
  parts,
  agentId: null,
  origin: null,
});

describe('transcript pages', () => {
  it('never exceed their budget on the largest sample sessions, and together hold every character of them', async () => {
    const sessions = await sampleSessions();
    const bySize = [...sessions].sort((a, b) => statSync(b.path).size - statSync(a.path).size);
    const byText = [...sessions].sort((a, b) => transcriptLength(b.session) - transcriptLength(a.session));
    // The largest file (its 2 MB line is a tool result, a line in a transcript), and the longest transcript.
    const largestFile = bySize[0] as { path: string; session: Session };
    const longest = byText[0] as { path: string; session: Session };
    expect(statSync(largestFile.path).size).toBeGreaterThan(1_000_000);
    expect(transcriptLength(longest.session)).toBeGreaterThan(2000);
    // 1,000 is the tool's smallest budget; 100 is below it, so the real messages are cut across pages too.
    for (const { session } of [largestFile, longest]) {
      const whole = session.messages.map((m, i) => messageText(m, i)).join('');
      for (const maxChars of [100, 1000, 8000]) {
        const pages = await allPages(session.messages, maxChars, 'Title line');
        for (const page of pages) expect(page.text.length).toBeLessThanOrEqual(maxChars);
        // Without the header and the continuation markers, the pages are the transcript, in order.
        const joined = pages.map((p) => p.text.replace(/^Title line\n\n/, '').replace(/^\(#\d+ continued from character \d+\)\n/, '')).join('');
        expect(joined).toBe(whole);
        expect(pages.length).toBeGreaterThan(whole.length / maxChars);
      }
    }
    const small = await allPages(longest.session.messages, 100, 'Title line');
    expect(small.some((p) => /^\(#\d+ continued from character \d+\)\n/.test(p.text))).toBe(true);
  });

  it('keeps a message whole when it fits a page, and cuts a longer one, saying where it goes on', async () => {
    const fitsAlone = 'word '.repeat(395);
    const long = 'word '.repeat(900);
    const messages = [
      message('1', 'user', [{ type: 'text', text: 'short question' }]),
      message('2', 'assistant', [{ type: 'text', text: fitsAlone }]),
      message('3', 'assistant', [{ type: 'text', text: long }]),
      message('4', 'user', [{ type: 'text', text: 'thanks' }]),
    ];
    const pages = await allPages(messages, 2000);
    expect(pages[0]?.text).toBe(messageText(messages[0] as Message, 0));
    expect(pages[0]?.next).toEqual({ fromMessage: 1, fromChar: 0 });
    expect(pages[1]?.text).toBe(messageText(messages[1] as Message, 1));
    expect(pages[2]?.throughMessage).toBe(2);
    expect(pages[2]?.next?.fromMessage).toBe(2);
    expect(pages[3]?.text.startsWith(`(#2 continued from character ${pages[2]?.next?.fromChar})`)).toBe(true);
    expect(pages.at(-1)?.text).toContain('thanks');
    expect(pages.at(-1)?.next).toBeNull();
  });

  it('summarizes tool calls and results to a line and leaves thinking out', () => {
    const text = messageText(
      message('1', 'assistant', [
        { type: 'thinking', text: 'secret plan '.repeat(500), redacted: false },
        { type: 'tool_call', callId: 'c1', name: 'Bash', input: { command: 'ls -la /srv', timeout: 5 } },
        { type: 'tool_result', callId: 'c1', output: `total 12\n${'drwxr-xr-x 2 root root 4096 file\n'.repeat(2000)}`, isError: false },
      ]),
      7,
    );
    expect(text).toContain('### #7 assistant');
    expect(text).toContain('[tool call Bash] command: ls -la /srv');
    expect(text).toMatch(/\[tool result, 6[\d,]+ characters\] total 12 drwxr-xr-x/);
    expect(text).toContain('[thinking: 6,000 characters, left out]');
    expect(text.length).toBeLessThan(700);
  });
});
