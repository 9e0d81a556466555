// `usage` from the index as it is, when nothing below the roots changed since a full scan (index-current.ts): no services, no workers, no scan.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { join, sep } from 'node:path';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import { parseQuery } from '../search-index/query-parser.ts';
import { hasVaultFilter } from '../search-index/search-service.ts';
import { blocksFrom } from '../search-index/usage-block-report.ts';
import type { UsageSource } from '../search-index/usage-match.ts';
import { reportFrom } from '../search-index/usage-report.ts';
import { openCurrentIndex } from './index-current.ts';

export type Asked = { report: 'blocks'; input: MethodInput<'usageBlocks'> } | { report: 'period'; input: MethodInput<'usageReport'> };
export type Answer = MethodOutput<'usageReport'> | MethodOutput<'usageBlocks'>;

/**
 * The index file opened read-only as a usage source. A kept copy is left out when its session's live file is indexed
 * too (the same key outside the vault's copies): what the app's catalogue calls shadowed.
 */
function readOnlySource(db: DatabaseSync, copiesDir: string): UsageSource {
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  const lo = copiesDir + sep;
  const hi = `${copiesDir}${String.fromCharCode(sep.charCodeAt(0) + 1)}`;
  return {
    index: { prepared },
    shadowed: () =>
      (
        prepared(
          'SELECT c.id AS id FROM files c WHERE c.path >= ? AND c.path < ? AND EXISTS (SELECT 1 FROM files l WHERE l.key = c.key AND l.id != c.id AND NOT (l.path >= ? AND l.path < ?))',
        ).all(lo, hi, lo, hi) as Array<{ id: number }>
      ).map((r) => r.id),
    vaultKeys: () => {
      throw new Error('the vault filters need the app’s vault');
    },
  };
}

/**
 * The report from the index alone, or null when a full start is needed: no snapshot yet, the roots' configuration or
 * anything below them changed, the index has another schema, or the query filters on what only the vault knows.
 */
export async function fastUsage(
  dataDir: string,
  options: { roots: readonly string[]; noDefaults: boolean },
  env: NodeJS.ProcessEnv,
  asked: Asked,
): Promise<Answer | null> {
  if (hasVaultFilter(parseQuery(asked.input.query ?? '').filters)) return null;
  const current = await openCurrentIndex(dataDir, options, env);
  if (!current) return null;
  try {
    // A list-only run left text for the full-text tables: a query's words would miss it.
    if (current.textPending) return null;
    const source = readOnlySource(current.db, join(dataDir, 'vault', 'sessions'));
    return asked.report === 'blocks' ? blocksFrom(source, asked.input) : reportFrom(source, asked.input);
  } catch {
    // Whatever went wrong reading it this way, the full start reads it the usual way.
    return null;
  } finally {
    current.db.close();
  }
}
