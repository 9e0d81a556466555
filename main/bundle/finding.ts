// A secret found in a file headed for a bundle: what a person reviews, and how it is shown without the secret.
import { createHash } from 'node:crypto';

export interface Finding {
  /** Stable for the same file content: the review sends back the ids it wants kept. */
  id: string;
  /** The rule that caught it: a secretlint rule (aws, github, …), private-key, jwt, or ENV:<variable>. */
  rule: string;
  /** The file's path inside the bundle. */
  file: string;
  /** 1-based line of the secret's first byte. */
  line: number;
  /** The text around the secret with the secret masked, for judging a false positive. */
  preview: string;
  /** False when the user kept it (a false positive): reported, not redacted. */
  redacted: boolean;
}

export function findingId(file: string, byteOffset: number, rule: string): string {
  return createHash('sha256').update(`${file}\0${byteOffset}\0${rule}`).digest('hex').slice(0, 16);
}

/** Enough of the start to recognise the kind of key (AKIA, ghp_, sk-ant-), never of a value from the environment. */
export function maskSecret(secret: string, rule: string): string {
  const shown = rule.startsWith('ENV:') || secret.length < 16 ? 0 : 4;
  return `${secret.slice(0, shown)}${'*'.repeat(Math.min(Math.max(secret.length - shown, 4), 12))}`;
}

/** Letters safe inside a JSON string and a file name, for the `[REDACTED:<rule>]` marker. */
export function markerLabel(rule: string): string {
  return rule.replace(/[^A-Za-z0-9_.:-]/g, '_');
}

/**
 * Rules that catch any value by what surrounds it (an assignment, a URL, the `…` a cut key ends in); a specific rule
 * that names the same secret names it instead.
 */
const GENERIC_RULES = new Set(['env-assignment', 'connection-url-password', 'cut-key']);

export function isGenericRule(rule: string): boolean {
  return GENERIC_RULES.has(rule);
}

/** Which of two rules names a secret both caught: a specific rule before a generic one, then by name. */
export function ruleOrder(a: string, b: string): number {
  return Number(GENERIC_RULES.has(a)) - Number(GENERIC_RULES.has(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

const CONTEXT = 40;

/**
 * One line of context around `[start, end)` in `text`, the secret masked and any other secret in the
 * context starred out, control characters shown as spaces.
 */
export function previewOf(text: string, start: number, end: number, rule: string, others: Array<{ start: number; end: number }>): string {
  const lineStart = Math.max(text.lastIndexOf('\n', start - 1) + 1, start - CONTEXT);
  const nl = text.indexOf('\n', end);
  const lineEnd = Math.min(nl === -1 ? text.length : nl, end + CONTEXT);
  const hide = (from: number, to: number): string => {
    let out = '';
    let at = from;
    for (const o of others.filter((s) => s.end > from && s.start < to).sort((a, b) => a.start - b.start)) {
      const s = Math.max(o.start, at);
      const e = Math.min(o.end, to);
      if (e <= s) continue;
      out += `${text.slice(at, s)}${'*'.repeat(Math.min(e - s, 8))}`;
      at = e;
    }
    return out + text.slice(at, to);
  };
  const body = `${hide(lineStart, start)}${maskSecret(text.slice(start, end), rule)}${hide(end, lineEnd)}`.replace(/\p{Cc}/gu, ' ');
  const cutBefore = lineStart > 0 && text[lineStart - 1] !== '\n';
  const cutAfter = lineEnd < text.length && text[lineEnd] !== '\n';
  return `${cutBefore ? '…' : ''}${body}${cutAfter ? '…' : ''}`;
}
