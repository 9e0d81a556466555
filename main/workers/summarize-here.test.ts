// A scan's read on the calling thread answers what a read worker answers for the same file: summary, companions, usage, index text, and the same failure for a file no reader can read.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { samplesDir } from '../test-support/samples.ts';
import { ReadPool } from './read-pool.ts';
import { summarizeHere } from './summarize-here.ts';

const pool = new ReadPool(1);
afterAll(() => pool.close());

const FILES = [
  'claude-code/projects/-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
  'claude-code/projects/-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl',
  'claude-code/projects/-tmp-project/ses_stage0_drift.jsonl',
  'loose/rollout.jsonl',
  'loose/chat.json',
  'malformed/torn_last_line__claude_code.jsonl',
  'malformed/html_error_page_instead_of_json__session.json',
];

/** An answer without the request's id, which each side numbers its own way. */
const withoutId = (response: { id: number }) => ({ ...response, id: 0 });

it.each(FILES)('%s: the same answer as a read worker, with and without the index text', async (file) => {
  const path = join(samplesDir, file);
  for (const textLater of [false, true]) {
    const here = await summarizeHere(path, textLater);
    const there = await pool.summarize(path, 'background', false, textLater);
    expect(withoutId(here)).toEqual(withoutId(there));
  }
});
