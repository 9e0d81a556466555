// Child process for the OpenCode bench: after a first scan, every sampled session of the store is found by a phrase of its last answer (recall, not just "indexed").
import { DatabaseSync } from 'node:sqlite';
import { benchServices } from './bench-services.ts';

export interface OpenCodeRecall {
  /** Sessions sampled (spread over the store's id order), each searched for by a phrase of its last text part. */
  checked: number;
  /** Of those, the sessions the phrase search returned. */
  found: number;
  /** A few sessions it did not return, with their phrase. */
  missed: string[];
}

/** Words in a phrase: enough that the bench store's small vocabulary rarely repeats them elsewhere. */
const PHRASE_WORDS = 6;

/** For `count` sessions spread over the store: its id and a phrase from the last text part that has enough words. */
function recallPhrases(storePath: string, count: number): Array<{ id: string; phrase: string }> {
  const db = new DatabaseSync(storePath, { readOnly: true });
  try {
    const ids = (db.prepare('SELECT id FROM session ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
    const texts = db.prepare("SELECT data FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'text' ORDER BY id DESC");
    const step = Math.max(1, Math.floor(ids.length / count));
    const out: Array<{ id: string; phrase: string }> = [];
    for (let i = 0; i < ids.length && out.length < count; i += step) {
      const id = ids[i]!;
      for (const { data } of texts.all(id) as Array<{ data: string }>) {
        const words = String((JSON.parse(data) as { text?: unknown }).text ?? '').match(/\p{L}+/gu) ?? [];
        if (words.length < PHRASE_WORDS) continue;
        out.push({ id, phrase: words.slice(0, PHRASE_WORDS).join(' ') });
        break;
      }
    }
    return out;
  } finally {
    db.close();
  }
}

const [dataDir, root, storePath, countArg] = process.argv.slice(2);
if (!dataDir || !root || !storePath) throw new Error('usage: opencode-recall.ts <dataDir> <root> <store> [sessions]');
{
  const phrases = recallPhrases(storePath, Number(countArg ?? 50));
  // The index the first scan left, restored as a restart restores it (the store unchanged: nothing read again).
  const services = benchServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false });
  await services.start();
  await services.whenSearchable();
  let found = 0;
  const missed: string[] = [];
  for (const { id, phrase } of phrases) {
    const { results } = await services.client.searchSessions({ query: `"${phrase}"`, limit: 1000, offset: 0 });
    if (results.some((r) => r.summary.key === `opencode:${id}`)) found++;
    else if (missed.length < 5) missed.push(`${id}: "${phrase}"`);
  }
  await services.close();
  const recall: OpenCodeRecall = { checked: phrases.length, found, missed };
  process.stdout.write(`${JSON.stringify(recall)}\n`);
}
