// Schema steps 9 -> 10 and 13 -> 14 (schema.ts): the usage tables those schemas add, filled from the rows the index already holds (no file is read again).
import type { DatabaseSync } from 'node:sqlite';
import { CREATE_FILE_MODELS } from './usage-file-models.ts';
import { CREATE_NAME_TOTALS } from './usage-name-totals.ts';
import { CREATE_FILE_DAYS, CREATE_FILE_PACKS, CREATE_PROJECT_DAY_TOTALS, CREATE_PROJECT_DAYS, USAGE_SUMS } from './usage-schema.ts';
import { packFile, type PackedDay, type PackedFile } from './usage-file-pack.ts';
import { UsageWrites } from './usage-write.ts';

/** Schema 9 -> 10 (usage-schema.ts): every file's day rows and tools worked out from the rows the index has (no file is read again). */
export function addFileDays(db: DatabaseSync): void {
  db.exec(CREATE_FILE_DAYS);
  // Schema 11's table, which the writes below prepare statements for (the 10 -> 11 step fills it).
  db.exec(CREATE_FILE_MODELS);
  // And schema 12's (the 11 -> 12 step fills them).
  db.exec(CREATE_NAME_TOTALS);
  db.exec(CREATE_PROJECT_DAYS);
  db.exec('DELETE FROM usage_project_days');
  const columns = db.prepare('PRAGMA table_info(usage_sessions)').all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'tools')) db.exec('ALTER TABLE usage_sessions ADD COLUMN tools TEXT');
  // Schema 14's and 15's tables, which the writes below prepare statements for (the 13 -> 14 and 14 -> 15 steps fill them).
  db.exec(CREATE_FILE_PACKS);
  db.exec(CREATE_PROJECT_DAY_TOTALS);
  db.exec('DELETE FROM usage_file_days');
  const writes = new UsageWrites(db);
  for (const { id } of db.prepare('SELECT file_id AS id FROM usage_sessions').all() as Array<{ id: number }>) writes.addDays(id, 1, false);
  db.exec(`INSERT INTO usage_project_days (zone, day, project, format, ${USAGE_SUMS.join(', ')})
    SELECT s.zone, d.day, CASE WHEN instr(s.project, char(10)) > 0 THEN substr(s.project, 1, instr(s.project, char(10)) - 1) ELSE s.project END, s.format, ${USAGE_SUMS.map((c) => `sum(d.${c})`).join(', ')}
    FROM usage_file_days d JOIN usage_sessions s ON s.file_id = d.file_id GROUP BY 1, 2, 3, 4`);
  db.exec(`UPDATE usage_sessions SET tools = (SELECT json_group_array(json_array(t.name, t.calls, t.failures)) FROM usage_tools t WHERE t.file_id = usage_sessions.file_id)
    WHERE EXISTS (SELECT 1 FROM usage_tools t WHERE t.file_id = usage_sessions.file_id)`);
}

/** Schema 13 -> 14 (usage-schema.ts): each file's facts packed, from its session row and day rows (no file is read again). */
export function addFilePacks(db: DatabaseSync): void {
  db.exec(CREATE_FILE_PACKS);
  db.exec('DELETE FROM usage_file_packs');
  const write = db.prepare('INSERT INTO usage_file_packs (file_id, pack) VALUES (?, ?)');
  // Each session row with its day rows (file by file, in key order), the day rows' hours JSON parsed back.
  const rows =
    db.prepare(`SELECT s.file_id, s.format, s.project, s.top_level, s.length_bucket, s.turns, s.tools, d.day, d.model, ${USAGE_SUMS.map((c) => `d.${c}`).join(', ')}, d.hours
    FROM usage_sessions s LEFT JOIN usage_file_days d ON d.file_id = s.file_id ORDER BY s.file_id, d.day, d.model`);
  rows.setReturnArrays(true);
  let file: PackedFile | null = null;
  let id = 0;
  for (const r of rows.iterate() as Iterable<unknown[]>) {
    if (!file || r[0] !== id) {
      if (file) write.run(id, packFile(file));
      id = r[0] as number;
      const tools = r[6] === null ? [] : (JSON.parse(r[6] as string) as Array<[string, number, number]>);
      file = {
        format: r[1] as string,
        project: r[2] as string,
        topLevel: r[3] as number,
        lengthBucket: r[4] as number,
        turns: r[5] as number,
        tools,
        days: [],
      };
    }
    if (r[7] === null) continue;
    const days = file.days as PackedDay[];
    days.push({
      day: r[7] as string,
      model: r[8] as string,
      sums: r.slice(9, 9 + USAGE_SUMS.length) as number[],
      hours: JSON.parse(r[9 + USAGE_SUMS.length] as string) as Array<[number, number, number]>,
    });
  }
  if (file) write.run(id, packFile(file));
}
