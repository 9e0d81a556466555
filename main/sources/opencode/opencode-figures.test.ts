// OpenCode's figures and endings: the title while OpenCode's placeholder stands, tokens from the steps (OpenCode keeps only the last on the message), recorded costs, commands that failed, and how a session whose last answer failed ends.
import { describe, expect, it } from 'vitest';
import { testStoreRows } from './opencode-test-rows.ts';
import { openCodeReader } from './opencode.ts';

const container = openCodeReader.container!;
const { store, message, part, session } = testStoreRows();

describe('OpenCode tokens and costs', () => {
  it('takes the first prompt as the title while OpenCode’s placeholder stands, and tokens from step-finish parts when the message has none', async () => {
    const { path, db } = store();
    session(db, 'ses_p', 'New session - 2026-01-01T00:00:00.000Z', 1767225600000);
    message(db, 'msg_u', 'ses_p', 1767225601000, { role: 'user', time: { created: 1767225601000 } });
    part(db, 'prt_u', 'msg_u', 'ses_p', 1767225601000, { type: 'text', text: 'Rename the ledger module\nand its tests' });
    message(db, 'msg_a', 'ses_p', 1767225602000, {
      role: 'assistant',
      modelID: 'gpt-5',
      providerID: 'openai',
      time: { created: 1767225602000, completed: 1767225609000 },
    });
    part(db, 'prt_1', 'msg_a', 'ses_p', 1767225602001, { type: 'text', text: 'Done.' });
    part(db, 'prt_2', 'msg_a', 'ses_p', 1767225605000, {
      type: 'step-finish',
      tokens: { input: 10, output: 5, reasoning: 1, cache: { read: 100, write: 2 } },
      cost: 0.5,
    });
    part(db, 'prt_3', 'msg_a', 'ses_p', 1767225608000, {
      type: 'step-finish',
      tokens: { input: 20, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
      cost: 0.25,
    });
    const s = await container.readOne(path, 'ses_p');
    expect(s.title).toBe('Rename the ledger module');
    expect(s.messages[1]).toMatchObject({
      usage: { input: 30, output: 10, reasoning: 1, cacheRead: 100, cacheWrite: 2 },
      cost: { usd: 0.75, estimated: false },
      model: 'gpt-5',
    });
    expect(s.model).toEqual({ provider: 'openai', name: 'gpt-5', parameters: {} });
  });

  // OpenCode's processor, at each step's end: `assistantMessage.cost += usage.cost; assistantMessage.tokens = usage.tokens`,
  // and a step-finish part with that step's tokens and cost. A message of several steps keeps only its last step's tokens.
  it('counts a message of several steps by its steps’ tokens, summed, not by the last step’s the message keeps', async () => {
    const { path, db } = store();
    session(db, 'ses_s', 'Steps', 1767225600000);
    message(db, 'msg_u', 'ses_s', 1767225601000, { role: 'user', time: { created: 1767225601000 } });
    part(db, 'prt_u', 'msg_u', 'ses_s', 1767225601000, { type: 'text', text: 'Fix the build' });
    message(db, 'msg_a', 'ses_s', 1767225602000, {
      role: 'assistant',
      modelID: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      cost: 0.03,
      tokens: { input: 410, output: 90, reasoning: 0, cache: { read: 2000, write: 0 } },
      time: { created: 1767225602000, completed: 1767225609000 },
    });
    const step = (id: string, at: number, input: number, output: number, read: number) =>
      part(db, id, 'msg_a', 'ses_s', at, { type: 'step-finish', tokens: { input, output, reasoning: 0, cache: { read, write: 0 } }, cost: 0.01 });
    step('prt_1', 1767225603000, 100, 20, 0);
    step('prt_2', 1767225605000, 250, 50, 1000);
    step('prt_3', 1767225608000, 410, 90, 2000);
    const s = await container.readOne(path, 'ses_s');
    expect(s.messages[1]).toMatchObject({
      usage: { input: 760, output: 160, reasoning: 0, cacheRead: 3000, cacheWrite: 0 },
      cost: { usd: 0.03, estimated: false },
    });
    expect(s.usage).toMatchObject({ input: 760, output: 160, cacheRead: 3000 });
  });

  it('ends as aborted when its last answer was stopped, as failed on any other error, and with no outcome once answered again', async () => {
    const { path, db } = store();
    const answer = (sid: string, mid: string, at: number, error?: Record<string, unknown>) => {
      message(db, mid, sid, at, { role: 'assistant', modelID: 'claude-x', providerID: 'anthropic', time: { created: at }, ...(error ? { error } : {}) });
      part(db, `${mid}_t`, mid, sid, at + 1, { type: 'text', text: 'Working on it' });
    };
    const aborted = { name: 'MessageAbortedError', data: { message: 'request was aborted by the user' } };
    session(db, 'ses_ab', 'Stopped', 1767225600000);
    answer('ses_ab', 'msg_ab', 1767225602000, aborted);
    session(db, 'ses_api', 'Broken', 1767225600000);
    answer('ses_api', 'msg_api', 1767225602000, { name: 'APIError', data: { message: 'Overloaded', statusCode: 529 } });
    session(db, 'ses_on', 'Went on', 1767225600000);
    answer('ses_on', 'msg_on1', 1767225602000, aborted);
    answer('ses_on', 'msg_on2', 1767225603000);
    const outcome = async (id: string) => (await container.readOne(path, id)).outcome;
    expect(await outcome('ses_ab')).toEqual({ status: 'aborted', summary: 'request was aborted by the user', commitSha: null });
    expect(await outcome('ses_api')).toEqual({ status: 'failed', summary: 'Overloaded', commitSha: null });
    expect(await outcome('ses_on')).toBeNull();
  });
});

describe('OpenCode failed commands', () => {
  // OpenCode's bash tool ends "completed" whatever the command's exit, which it keeps in metadata.exit; a call to a tool
  // that does not exist is answered by the tool "invalid".
  it('shows a command that exited non-zero, and a call to a tool that does not exist, as failed', async () => {
    const { path, db } = store();
    session(db, 'ses_x', 'Exits', 1767225600000);
    message(db, 'msg_1', 'ses_x', 1767225601000, { role: 'assistant', time: { created: 1767225601000, completed: 1767225605000 } });
    const tool = (id: string, name: string, metadata: object) =>
      part(db, id, 'msg_1', 'ses_x', 1767225601001, {
        type: 'tool',
        tool: name,
        callID: id,
        state: { status: 'completed', input: {}, output: 'out', metadata },
      });
    tool('c_ok', 'bash', { exit: 0, description: 'List' });
    tool('c_fail', 'bash', { exit: 127, description: 'Run' });
    tool('c_invalid', 'invalid', {});
    const s = await container.readOne(path, 'ses_x');
    const failed = s.messages[0]!.parts.flatMap((p) => (p.type === 'tool_result' ? [[p.callId, p.isError]] : []));
    // Parts written in the same millisecond come in id order.
    expect(failed).toEqual([
      ['c_fail', true],
      ['c_invalid', true],
      ['c_ok', false],
    ]);
  });
});
