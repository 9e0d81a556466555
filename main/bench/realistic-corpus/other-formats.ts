// The few sessions of the app's other formats a machine holds beside the big three: JidoCode and Vizier documents, with real text.
import { join } from 'node:path';
import type { Prng } from '../prng.ts';
import type { CorpusWriter } from './corpus-writer.ts';
import { hex, uuid } from './ids.ts';
import type { TextSource } from './text-source.ts';

export interface DocumentPlan {
  root: string;
  project: string;
  cwd: string;
  branch: string;
  startMs: number;
  model: string;
  targetBytes: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function turns(text: TextSource, rng: Prng, plan: DocumentPlan): Array<{ role: string; content: string; ts: string }> {
  const out: Array<{ role: string; content: string; ts: string }> = [];
  let size = 800;
  let clock = plan.startMs;
  for (let i = 0; size < plan.targetBytes; i++) {
    clock += rng.int(5000, 300_000);
    const content = i % 2 ? text.prose(rng, rng.int(200, 3000)) : text.prose(rng, rng.int(40, 600));
    out.push({ role: i % 2 ? 'assistant' : 'user', content, ts: iso(clock) });
    size += JSON.stringify(content).length + 120;
  }
  return out;
}

/** `~/.jido_code/sessions/<uuid>.json`, pretty-printed as Jason writes it. */
export function writeJidoSession(w: CorpusWriter, text: TextSource, rng: Prng, plan: DocumentPlan): void {
  const id = uuid(rng);
  const messages = turns(text, rng, plan);
  const last = messages[messages.length - 1]?.ts ?? iso(plan.startMs);
  const doc = {
    closed_at: last,
    config: { model: plan.model, provider: 'anthropic', temperature: 0.2 },
    conversation: messages.map((m) => ({ content: m.content, id: hex(rng, 16), role: m.role, timestamp: m.ts })),
    created_at: iso(plan.startMs),
    id,
    name: plan.project,
    project_path: plan.cwd,
    todos: [{ active_form: 'Working', content: text.line(rng, 60), status: 'completed' }],
    updated_at: last,
    version: 1,
  };
  w.document(
    join(plan.root, '.jido_code', 'sessions', `${id}.json`),
    'jido-code',
    doc,
    messages.map(() => 'conversation message'),
    true,
  );
}

/** `<repo>/.vizier/sessions/<uuid>/session.json` in the design document's schema. */
export function writeVizierSession(w: CorpusWriter, text: TextSource, rng: Prng, plan: DocumentPlan): void {
  const id = uuid(rng);
  const messages = turns(text, rng, plan);
  const doc = {
    id,
    created_at: iso(plan.startMs),
    updated_at: messages[messages.length - 1]?.ts ?? iso(plan.startMs),
    tool_version: '0.1.0',
    repo: { root: plan.cwd, current_branch: plan.branch, head_sha: hex(rng, 40) },
    model: { provider: 'anthropic', name: plan.model, temperature: 0.2 },
    chat: messages,
    operations: [],
    artifacts: [],
    outcome: { status: rng.pick(['accepted', 'rejected', 'open']), summary: text.line(rng, 120), commit_sha: hex(rng, 40) },
  };
  w.document(
    join(plan.root, plan.project, '.vizier', 'sessions', id, 'session.json'),
    'vizier',
    doc,
    messages.map(() => 'chat message'),
    true,
  );
}
