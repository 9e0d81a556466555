// Copilot CLI, Cursor and Qwen Code end to end: one sample of each opens from the list with its own structure.
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { expect } from './vault-fixture.ts';

const CASES: AgentCase[] = [
  {
    name: 'copilot-cli',
    key: 'copilot-cli:copilot_stage0_small',
    search: 'e0_small',
    check: async (page) => {
      // Tool requests paired with their executions, encrypted reasoning, the sub-agent's own thread, a truncation divider.
      await expect(page.getByTestId('tool-card').first()).toBeVisible();
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('agent-group')).toHaveCount(1);
      await expect(page.getByTestId('compaction').first()).toBeVisible();
    },
  },
  {
    name: 'cursor',
    key: 'cursor:a1b2c3d4-e5f6-7890-abcd-ef1234567890',
    search: '34567890',
    check: async (page) => {
      // The chat store names the session; its sub-agent transcript is listed under it.
      await expect(page.getByTestId('detail-title')).toContainText('Test Session');
      await expect(page.getByTestId('tool-card')).toHaveCount(2);
      await expect(page.getByTestId('subagent')).toHaveCount(1);
      await expect(page.getByTestId('subagent')).toContainText('Run ls -la in the workspace directory');
    },
  },
  {
    name: 'qwen-code',
    key: 'qwen-code:019f0000-0000-7000-8000-000000000001',
    search: '00000001',
    check: async (page) => {
      // Gemini-style parts: a thought, a function call with its response, and the prompt without its hook context.
      await expect(page.getByTestId('thinking').first()).toBeVisible();
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('detail')).not.toContainText('Synthetic hook context');
    },
  },
];

testAgentSamples(CASES);
