// The demo set's JidoCode sessions: a signed one with usage and todos, an early unsigned one, one with tool output.
import { join } from 'node:path';
import { DAY, HOUR, json, type DemoClock, type DemoFile } from './demo-clock.ts';

interface Turn {
  id: string;
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: string;
  minutesAgo: number;
  usage?: { input_tokens: number; output_tokens: number; total_cost: number };
}

function conversation(turns: Turn[], t: DemoClock) {
  return turns.map(({ minutesAgo, ...turn }) => ({ ...turn, timestamp: t.micros(minutesAgo) }));
}

/** What JidoCode adds up itself when any message carries usage (cumulative_usage). */
function cumulative(turns: Turn[]) {
  const sum = { input_tokens: 0, output_tokens: 0, total_cost: 0 };
  for (const turn of turns) {
    if (!turn.usage) continue;
    sum.input_tokens += turn.usage.input_tokens;
    sum.output_tokens += turn.usage.output_tokens;
    sum.total_cost = Math.round((sum.total_cost + turn.usage.total_cost) * 1e6) / 1e6;
  }
  return sum;
}

function weatherStation(dir: string, t: DemoClock): DemoFile {
  const id = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
  const start = 95;
  const turns: Turn[] = [
    {
      id: '5ea1000000000001',
      role: 'user',
      content: 'Readings from the rain gauge arrive twice after a reconnect. De-duplicate them in `Station.Ingest`.',
      minutesAgo: start - 1,
    },
    {
      id: '5ea1000000000002',
      role: 'assistant',
      content: 'I will check how readings are keyed first.',
      minutesAgo: start - 1.5,
      usage: { input_tokens: 2480, output_tokens: 36, total_cost: 0.00798 },
    },
    {
      id: '5ea1000000000003',
      role: 'tool',
      content: 'grep -n "insert_all" lib/station/ingest.ex\n42:    Repo.insert_all(Reading, rows)',
      minutesAgo: start - 1.6,
    },
    {
      id: '5ea1000000000004',
      role: 'assistant',
      content:
        'Readings have no unique key, so replays insert again. Added a unique index on (sensor_id, measured_at) and `on_conflict: :nothing` in `Station.Ingest.store/1`; `mix test` passes (58 tests).',
      minutesAgo: 41,
      usage: { input_tokens: 6120, output_tokens: 402, total_cost: 0.02439 },
    },
  ];
  const session = {
    closed_at: t.micros(40),
    config: { base_url: null, max_tokens: 4096, model: 'claude-sonnet-4-5-20250929', provider: 'anthropic', temperature: 0.5 },
    conversation: conversation(turns, t),
    created_at: t.micros(start),
    cumulative_usage: cumulative(turns),
    id,
    language: 'elixir',
    name: 'weather-station',
    project_path: join(dir, 'weather-station'),
    prompt_history: ['De-duplicate rain gauge readings after reconnect', 'mix test test/station/ingest_test.exs'],
    signature: 'ZGVtby1zaWduYXR1cmUtbm90LXZlcmlmaWFibGUtMDE=',
    todos: [
      { active_form: 'Adding a unique index on readings', content: 'Add a unique index on readings', status: 'completed' },
      { active_form: 'Ignoring duplicate inserts', content: 'Ignore duplicate inserts', status: 'completed' },
      { active_form: 'Backfilling duplicates in production', content: 'Backfill duplicates in production', status: 'pending' },
    ],
    updated_at: t.micros(41),
    version: 1,
  };
  return { path: `.jido_code/sessions/${id}.json`, content: json(session) };
}

function dotfiles(dir: string, t: DemoClock): DemoFile {
  const id = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
  const start = 6 * DAY + 3 * HOUR;
  const turns: Turn[] = [
    { id: 'd0t0000000000001', role: 'user', content: 'Make tmux use vi keys in copy mode and copy to the system clipboard.', minutesAgo: start - 0.5 },
    {
      id: 'd0t0000000000002',
      role: 'assistant',
      content: "Add to ~/.tmux.conf:\n\n```\nsetw -g mode-keys vi\nbind -T copy-mode-vi y send -X copy-pipe-and-cancel 'wl-copy'\n```",
      minutesAgo: start - 1.2,
    },
  ];
  const session = {
    closed_at: t.micros(start - 9),
    config: { max_tokens: 4096, model: 'gpt-4o', provider: 'openai', temperature: 0.2 },
    conversation: conversation(turns, t),
    created_at: t.micros(start),
    id,
    name: 'dotfiles',
    project_path: join(dir, 'dotfiles'),
    todos: [{ active_form: 'Configuring tmux copy mode', content: 'Configure tmux copy mode', status: 'completed' }],
    updated_at: t.micros(start - 1.2),
    version: 1,
  };
  return { path: `.jido_code/sessions/${id}.json`, content: json(session) };
}

function nightlyReport(dir: string, t: DemoClock): DemoFile {
  const id = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
  const start = 2 * DAY + 4 * HOUR;
  const turns: Turn[] = [
    { id: 'a9e0000000000001', role: 'system', content: 'Session resumed. Project language detected: python.', minutesAgo: start },
    { id: 'a9e0000000000002', role: 'user', content: 'The nightly sales report emails an empty PDF on Mondays. Why?', minutesAgo: start - 1 },
    {
      id: 'a9e0000000000003',
      role: 'assistant',
      content: 'The query window is "yesterday", and on Mondays that is Sunday with no sales. It should cover Friday to Sunday.',
      minutesAgo: start - 3,
      usage: { input_tokens: 3310, output_tokens: 95, total_cost: 0.011355 },
    },
    { id: 'a9e0000000000004', role: 'user', content: 'Fix it and add a test for a Monday run.', minutesAgo: start - 5 },
    {
      id: 'a9e0000000000005',
      role: 'assistant',
      content: 'Added `report_window(today)` returning Fri–Sun on Mondays; `pytest` passes (23 tests).',
      minutesAgo: start - 18,
      usage: { input_tokens: 5020, output_tokens: 288, total_cost: 0.01938 },
    },
  ];
  const session = {
    closed_at: t.micros(start - 20),
    config: { max_tokens: 8192, model: 'claude-3-5-haiku-20241022', provider: 'anthropic', temperature: 0.3 },
    conversation: conversation(turns, t),
    created_at: t.micros(start + 0.5),
    cumulative_usage: cumulative(turns),
    id,
    language: 'python',
    name: 'nightly-report',
    project_path: join(dir, 'nightly-report'),
    signature: 'ZGVtby1zaWduYXR1cmUtbm90LXZlcmlmaWFibGUtMDI=',
    todos: [
      { active_form: 'Fixing the Monday report window', content: 'Fix the Monday report window', status: 'completed' },
      { active_form: 'Testing a Monday run', content: 'Test a Monday run', status: 'completed' },
      { active_form: 'Checking public holidays', content: 'Check public holidays', status: 'in_progress' },
    ],
    updated_at: t.micros(start - 18),
    version: 1,
  };
  return { path: `.jido_code/sessions/${id}.json`, content: json(session) };
}

/** JidoCode files of the demo set, under `.jido_code/sessions/` like the tool's home folder. */
export function jidoDemoFiles(dir: string, t: DemoClock): DemoFile[] {
  return [weatherStation(dir, t), dotfiles(dir, t), nightlyReport(dir, t)];
}
