// The demo set's sessions of every other format: one sample per format from the committed corpus (samples/), copied in its tool's layout.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Paths below samples/ (and below the demo folder they are copied into): for each format the app reads, the files of
 * one readable session in its tool's layout. Vizier and JidoCode are not here: the demo writes its own (demo-vizier.ts,
 * demo-jido.ts), with timestamps relative to now. build/electron-builder.yml ships exactly these (demo-samples.test.ts).
 */
export const DEMO_SAMPLE_FILES: readonly string[] = [
  'claude-code/projects/-tmp/ses_stage0_small.jsonl',
  'codex/sessions/2025/12/18/rollout-2025-12-18T10-00-00-019b2ea4-aaaa-bbbb-cccc-58208e1f0000.jsonl',
  'gemini/tmp/205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2/chats/session-2025-12-16T23-47-b4f17607.json',
  'opencode/.local/share/opencode/opencode.db',
  'copilot-cli/.copilot/session-state/copilot_stage0_small/events.jsonl',
  'cursor-agent/.cursor/projects/tmp-repo/agent-transcripts/5ca1ab1e-0000-4000-8000-000000000001/5ca1ab1e-0000-4000-8000-000000000001.jsonl',
  'qwen-code/.qwen/projects/-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000001.jsonl',
  'kimi/.kimi/sessions/project-hash/session-1/context.jsonl',
  'kimi/.kimi/sessions/project-hash/session-1/wire.jsonl',
  'kimi/.kimi/sessions/project-hash/session-1/state.json',
  'pi/.pi/agent/sessions/--tmp-as-agent-fixture-project--/2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl',
  'openclaw/.openclaw/agents/main/sessions/openclaw-stage0-small.jsonl',
  'grok/.grok/sessions/%2Ftmp%2Fas-agent-lab%2Fgrok%2Fproject/019f6851-7ec4-7ef0-97d3-03f3eee38755/summary.json',
  'grok/.grok/sessions/%2Ftmp%2Fas-agent-lab%2Fgrok%2Fproject/019f6851-7ec4-7ef0-97d3-03f3eee38755/chat_history.jsonl',
  'droid/.factory/projects/-tmp/sid_stage0_small.jsonl',
  'hermes/.hermes/sessions/session_20260429_hermes_small.json',
  'goose/.local/share/goose/sessions/sessions.db',
  'amp/.local/share/amp/threads/T-019ca26f-aaaa-bbbb-cccc-dddddddddddd.json',
  'aider/myrepo/.aider.chat.history.md',
  'codebuff/.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z/chat-messages.json',
  'codebuff/.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z/run-state.json',
  'codebuff/.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z/chat-meta.json',
  'cline/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1700000000000/api_conversation_history.json',
  'cline/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1700000000000/ui_messages.json',
  'cline/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1700000000000/task_metadata.json',
  'roo-code/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/5f0c6a52-1b7e-4c41-9a57-2d3f1c0e8b11/api_conversation_history.json',
  'roo-code/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/5f0c6a52-1b7e-4c41-9a57-2d3f1c0e8b11/ui_messages.json',
  'roo-code/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/5f0c6a52-1b7e-4c41-9a57-2d3f1c0e8b11/history_item.json',
  'vibe/.vibe/logs/session/session_20260613_100000_abc123de/messages.jsonl',
  'vibe/.vibe/logs/session/session_20260613_100000_abc123de/meta.json',
  'kilo/.local/share/kilo/storage/session/global/ses_kilo.json',
  'kilo/.local/share/kilo/storage/message/ses_kilo/msg_1.json',
  'kilo/.local/share/kilo/storage/part/msg_1/prt_1.json',
  'devin/.local/share/devin/cli/sessions.db',
  'antigravity/.gemini/antigravity-cli/brain/00000000-0000-4000-8000-00000000a902/.system_generated/logs/transcript.jsonl',
  'ai-agent/sessions/6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47.json.gz',
  'ai-agent-v3/session/22222222-2222-2222-2222-222222222222.jsonl',
  'projecthub/vault/sessions/2026-02-24_2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d.md',
  'projecthub/vault/.projecthub/transcripts/2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d.jsonl',
  'projecthub/vault/.projecthub/index.db',
];

/** Where the packaged app carries the files (electron-builder's extraResources, beside app.asar). */
export const DEMO_SAMPLES_RESOURCE = 'demo-samples';

/**
 * Where the sample files are: beside the packaged app (`<resources>/demo-samples`), else the checkout's samples/
 * (two folders up from this file, and from the built out/main/ bundle alike); null when neither is there.
 */
export function demoSamplesDir(resourcesPath: string | undefined = (process as { resourcesPath?: string }).resourcesPath): string | null {
  const candidates = [resourcesPath ? join(resourcesPath, DEMO_SAMPLES_RESOURCE) : null, join(import.meta.dirname, '..', '..', 'samples')];
  return candidates.find((dir): dir is string => dir !== null && existsSync(join(dir, DEMO_SAMPLE_FILES[0] as string))) ?? null;
}

/** Copies every sample into `dir` (each through a temp file and a rename, so a watcher never reads half a file). */
export async function copyDemoSamples(from: string, dir: string): Promise<void> {
  for (const file of DEMO_SAMPLE_FILES) {
    const target = join(dir, ...file.split('/'));
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.tmp`;
    try {
      await copyFile(join(from, ...file.split('/')), tmp);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
