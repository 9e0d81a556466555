// Cline and Roo Code end to end: a VS Code task folder of each opens from the list with its own structure.
import { testAgentSamples, type AgentCase } from './agent-samples.ts';
import { expect } from './vault-fixture.ts';

const CASES: AgentCase[] = [
  {
    name: 'cline',
    key: 'cline:1700000000000',
    search: 'Explain what src/main.ts does',
    check: async (page) => {
      // The task unwrapped from <task>, read_file paired with its result, the completion as the answer's text (not a
      // tool card with no result), and the cost Cline recorded.
      await expect(page.getByTestId('detail-title')).toHaveText('Explain what src/main.ts does');
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.getByTestId('tool-card').filter({ hasText: 'read_file' })).toHaveAttribute('data-status', 'ok');
      await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toHaveText(/main returns 1\./);
      await expect(page.getByTestId('usage-totals')).toContainText('$0.02');
      await expect(page.getByTestId('detail')).not.toContainText('environment_details');
      // Each request to the model at its own time, with the tokens and cost Cline recorded for it.
      await page.getByRole('tab', { name: /Operations/ }).click();
      await expect(page.locator('[data-testid="operation"][data-type="llm"]')).toHaveCount(2);
      await expect(page.locator('[data-testid="operation"]').first()).toContainText('claude-sonnet-4-5');
      // Its raw record is the api_req_started line of ui_messages.json it was read from.
      await page.locator('[data-testid="operation"]').first().getByRole('button', { name: 'raw' }).click();
      await expect(page.getByTestId('raw-record')).toContainText('api_req_started');
      await expect(page.getByTestId('raw-record')).toContainText('ui_messages.json');
    },
  },
  {
    name: 'roo-code',
    key: 'roo-code:5f0c6a52-1b7e-4c41-9a57-2d3f1c0e8b11',
    search: 'Summarise src/main.ts',
    check: async (page) => {
      await expect(page.getByTestId('detail-title')).toHaveText('Summarise src/main.ts');
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      await expect(page.locator('[data-testid="tool-card"][data-status="pending"]')).toHaveCount(0);
      await expect(page.getByTestId('usage-totals')).toBeVisible();
    },
  },
];

testAgentSamples(CASES);
