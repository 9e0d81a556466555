// Views of a window's text with its escape sequences blanked (same length), so a secret right after a `\n` stands on a word boundary and every offset still names the raw bytes.
import type { Redactor, SecretSpan } from '../recorder/redact.ts';

/** How a file's text is escaped: json (JSON, JSON Lines), or text and html (rendered documents, which may quote JSON). */
export type EscapeMode = 'json' | 'html' | 'text';

/** One JSON escape: `\uXXXX` or a backslash and the character after it (`\\` included, so `\\n` is a backslash then a letter). */
const JSON_ESCAPE = /\\(?:u[0-9A-Fa-f]{4}|[^])/g;
/** JSON inside a JSON string (Codex's tool arguments): `\\n` there is an escaped `\n`; blanked with the single escapes. */
const NESTED_ESCAPE = /\\\\[nrtbf]|\\(?:u[0-9A-Fa-f]{4}|[^])/g;
const HAS_NESTED = /\\\\[nrtbf]/;

const blank = (match: string) => ' '.repeat(match.length);

/**
 * An underscore glued to the front of a key (`keys_AKIA…`, `token_ghp_…`, `jwt_eyJ…`): `_` is a word character, so
 * the rules' left boundary fails there. A view with that underscore blanked is scanned too (added, never replacing
 * the others, so a key that merely contains such a run is still found whole).
 */
const GLUED = /_(?=AKIA|ASIA|gh[pousr]_|github_pat_|sk-|xox[abprs]-|AIza|eyJ|npm_|[sr]k_(?:live|test)_)/g;
const HAS_GLUED = /_(?=AKIA|ASIA|gh[pousr]_|github_pat_|sk-|xox[abprs]-|AIza|eyJ|npm_|[sr]k_(?:live|test)_)/;

function withUnglued(views: string[]): string[] {
  if (!HAS_GLUED.test(views[0] ?? '')) return views;
  return [...views, ...views.map((view) => view.replace(GLUED, ' '))];
}

/**
 * The texts the rules read for `text`, each as long as it: in JSON the text with its escapes blanked (and, when it
 * holds JSON inside strings, with the inner escapes blanked too); in other text the text as it is, plus the same
 * blanked views when it holds backslashes (a rendered document quotes JSON, a YAML title has `\n`). A blanked
 * `\\` in a Windows path could hide a letter a rule needs, hence both views where no grammar says which is meant.
 */
export function ruleViews(text: string, mode: EscapeMode): string[] {
  if (!text.includes('\\')) return withUnglued([text]);
  const views = mode === 'json' ? [] : [text];
  views.push(text.replace(JSON_ESCAPE, blank));
  if (HAS_NESTED.test(text)) views.push(text.replace(NESTED_ESCAPE, blank));
  return withUnglued(views);
}

/** Every span the rules find in any view of `text` (literals and environment values are looked for in `text` itself); duplicates are the caller's to merge. */
export async function findSpansInViews(redactor: Redactor, text: string, literals: ReadonlyMap<string, string>, mode: EscapeMode): Promise<SecretSpan[]> {
  const views = ruleViews(text, mode);
  if (views.length === 1) return redactor.findSpans(text, literals, views[0]);
  const out: SecretSpan[] = [];
  for (const view of views) out.push(...(await redactor.findSpans(text, literals, view)));
  return out;
}
