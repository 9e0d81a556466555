// Every MCP tool called with arguments made from its own input schema (odd strings and numbers, real session keys): structured content its output schema accepts (the SDK refuses any other), or a refusal with the contract's code, never INTERNAL.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createServices } from '../app/services.ts';
import { arbitraryFor } from '../../shared/test-support/schema-arbitrary.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import * as schemas from './mcp-schemas.ts';
import * as tools from './mcp-tools.ts';
import type { McpBackend, ToolAnswer } from './mcp-tools.ts';

interface Tool {
  input: z.ZodType;
  output: z.ZodType;
  run(backend: McpBackend, input: never): Promise<ToolAnswer<unknown>>;
}

const TOOLS: Record<string, Tool> = {
  sessions_list: { input: schemas.sessionsListInput, output: schemas.sessionsListOutput, run: tools.sessionsList },
  sessions_search: { input: schemas.sessionsSearchInput, output: schemas.sessionsSearchOutput, run: tools.sessionsSearch },
  session_transcript: { input: schemas.sessionTranscriptInput, output: schemas.sessionTranscriptOutput, run: tools.sessionTranscript },
  session_update_summary: {
    input: schemas.sessionUpdateSummaryInput,
    output: schemas.sessionUpdateSummaryOutput,
    run: (b, input) => tools.sessionUpdateSummary(b, input, 'mcp: fuzz'),
  },
  sessions_compare: { input: schemas.sessionsCompareInput, output: schemas.sessionsCompareOutput, run: tools.sessionsCompare },
  usage_report: { input: schemas.usageReportInput, output: schemas.usageReportOutput, run: tools.usageReport },
};

describe('the MCP tools under odd arguments', () => {
  it('answer with content their output schema accepts, or refuse with a code other than INTERNAL', async () => {
    const base = testTempDir('sv-mcp-fuzz-');
    const root = join(base, 'samples');
    cpSync(samplesDir, root, { recursive: true });
    const services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
    const failures: string[] = [];
    try {
      await services.start();
      await services.whenScanned();
      const backend: McpBackend = { client: services.client, whenListed: () => services.whenListed(), whenScanned: () => services.whenScanned() };
      const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 500 });
      const seen = new Set<string>();
      const keys = sessions.filter((s) => !seen.has(s.format) && seen.add(s.format)).map((s) => s.key);
      const pools = { strings: [...keys, 'claude-code', 'codex', 'today'], numbers: [3, 20, 100, 4000] };
      for (const [name, tool] of Object.entries(TOOLS)) {
        await fc.assert(
          fc.asyncProperty(arbitraryFor(tool.input, pools), async (raw) => {
            // The SDK checks the arguments first; a refusal there names the field, and the tool never runs.
            const args = tool.input.safeParse(raw);
            if (!args.success) return;
            const shown = JSON.stringify(raw)?.slice(0, 200);
            try {
              const answer = await tool.run(backend, args.data as never);
              const checked = tool.output.safeParse(answer.structured);
              if (!checked.success) failures.push(`${name}(${shown}) answered outside its output schema: ${checked.error.message.slice(0, 300)}`);
            } catch (err) {
              const text = tools.errorText(err);
              if (text.startsWith('INTERNAL')) failures.push(`${name}(${shown}): ${text.slice(0, 300)}`);
            }
          }),
          { numRuns: Number(process.env.SV_CONTRACT_RUNS ?? 25), ...(process.env.SV_CONTRACT_RUNS ? {} : { seed: 2026 }) },
        );
      }
    } finally {
      await services.close();
    }
    expect([...new Set(failures)]).toEqual([]);
  }, 300_000);
});
