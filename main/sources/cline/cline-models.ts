// Which model a Cline-family task had in use at a given time, from task_metadata.json's model_usage (one entry each time the model or mode changed).
export type ModelTimeline = ReadonlyArray<{ atMs: number; model: string }>;

/** The entries that name a model at a time, oldest first (an entry without either says nothing about when). */
export function modelTimeline(entries: ReadonlyArray<{ atMs: number | null; model: string | null }>): ModelTimeline {
  return entries.flatMap((e) => (e.atMs !== null && e.model !== null ? [{ atMs: e.atMs, model: e.model }] : [])).sort((a, b) => a.atMs - b.atMs);
}

/**
 * The model in use at `at` (ISO time): the last switch at or before it; before the first switch, the first model (the
 * task's opening requests come a moment before Cline records the model they used). Null with no timeline or no time.
 */
export function modelAt(timeline: ModelTimeline, at: string | null): string | null {
  if (!timeline.length || at === null) return null;
  const t = Date.parse(at);
  if (Number.isNaN(t)) return null;
  let model = timeline[0]!.model;
  for (const entry of timeline) {
    if (entry.atMs > t) break;
    model = entry.model;
  }
  return model;
}
