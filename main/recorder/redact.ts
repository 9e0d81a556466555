// Redaction before any byte reaches disk: secretlint's recommended rules, gap rules of our own, and environment values.
import type { SecretLintCoreConfig, SecretLintCoreResult, SecretLintRuleCreator } from '@secretlint/types';

export const REDACT_RULES = ['secrets', 'env'] as const;
export type RedactRule = (typeof REDACT_RULES)[number];

/** The rules named in a stored `redact` value; anything else in it is ignored. */
export function redactRulesOf(value: unknown): RedactRule[] {
  return Array.isArray(value) ? value.filter((v): v is RedactRule => (REDACT_RULES as readonly unknown[]).includes(v)) : [...REDACT_RULES];
}

const RULE_OPTIONS: Record<string, object> = {
  // Access key ids (AKIA…) are off by default in the preset; a session log should not keep them either.
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

/**
 * The recommended preset's rules, listed one by one because a preset cannot switch a member off:
 * the comment filter goes, so a "secretlint-disable" comment inside chat text cannot stop redaction.
 * Loaded on first use, so a writer with `redact: [env]` or none starts faster.
 */
let linter: Promise<(content: string) => Promise<SecretLintCoreResult>> | null = null;

function loadLinter(): Promise<(content: string) => Promise<SecretLintCoreResult>> {
  linter ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend'), import('@secretlint/profiler')]).then(
    ([core, preset, profiler]) => {
      // On by default, its profiler leaves a performance mark per rule per text in the process for good (112 per text:
      // a million after a 10,000-session team push); we never read it.
      profiler.secretLintProfiler.setEnabled(false);
      const config: SecretLintCoreConfig = {
        rules: (preset.rules as unknown as SecretLintRuleCreator[])
          .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
          .map((rule) => ({ id: rule.meta.id, rule, options: RULE_OPTIONS[rule.meta.id] ?? {} })),
      };
      return (content: string) =>
        core.lintSource({ source: { content, filePath: 'session.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } });
    },
  );
  return linter;
}

/**
 * What the preset misses (checked against 13.0.7): JWTs have no rule, and the private-key rule
 * needs 100+ characters of key body, so short or truncated PEM blocks would pass. Google API keys have no
 * rule; `.env`-style assignments (`DB_PASSWORD=…`) and passwords in connection URLs of any scheme are caught
 * by none or only by chance. A rule with a `secret` group redacts only that group (the value, not its name).
 */
const GAP_RULES: Array<{ label: string; pattern: RegExp; keep?: (secret: string) => boolean }> = [
  {
    label: 'private-key',
    pattern: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { label: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // The preset's own rules end on `\b`, so a key whose last character is `-`, `/` or `+` (one in 20 or so) goes unseen.
  { label: 'openai', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])/g },
  {
    label: 'aws',
    pattern: /(?:aws)?_?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
  },
  { label: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  // A text cut short with `…` (a reader's preview, a warning quoting a value, an agent's own truncation) can end in the
  // head of a key, which no full-key rule matches: a known key prefix and enough of its body, right before the `…`.
  {
    label: 'cut-key',
    pattern:
      /(?<![A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{12,}|gh[pousr]_[A-Za-z0-9_]{4,}|github_pat_[A-Za-z0-9_]{4,}|A[KS]IA[A-Z0-9]{4,}|AIza[0-9A-Za-z_-]{4,}|xox[abposr]-[A-Za-z0-9-]{4,}|[sr]k_(?:live|test)_[A-Za-z0-9]{4,}|npm_[A-Za-z0-9]{4,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_.-]*)(?=…)/g,
  },
  {
    label: 'env-assignment',
    pattern: /(?<![A-Za-z0-9_])[A-Z0-9_]{0,64}(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY)[A-Z0-9_]{0,64}[ \t]?=[ \t]?["']?(?<secret>[^\s"'`]{6,256})/dg,
    keep: (secret) => isPlaceholder(secret),
  },
  {
    label: 'connection-url-password',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/"'`<>]{0,256}:(?<secret>[^\s:@/"'`<>]{3,256})@[A-Za-z0-9[]/dg,
    keep: (secret) => isPlaceholder(secret),
  },
];

/** The gap rules' names, as findings and `[REDACTED:<rule>]` markers give them (a bundle's manifest lists them). */
export const GAP_RULE_NAMES: readonly string[] = [...new Set(GAP_RULES.map((r) => r.label))];

/** A value that stands for a secret without being one: `${VAR}`, `$VAR`, `<password>`, `****`, `changeme`, an earlier redaction. */
function isPlaceholder(value: string): boolean {
  if (/^\$\{?[A-Za-z_(]|^%[A-Za-z_]+%$|^<[^>]*>$|^\{\{|^\*+$|\[?REDACTED/i.test(value)) return true;
  if (
    /^(?:x+|\.+|-+|_+|(?:your|my|the)[-_].*|changeme|password|passwd|secret|token|pass|pwd|example|placeholder|dummy|null|none|undefined|true|false)$/i.test(
      value,
    )
  )
    return true;
  // A value with no letter or digit, or one character over and over, hides nothing.
  return !/[A-Za-z0-9]/.test(value) || /^(.)\1*$/.test(value);
}

/** Where each gap rule matches in `text`: the whole match, or its `secret` group when it has one (and it is no placeholder). */
function gapSpans(text: string, into: Span[]): void {
  for (const { label, pattern, keep } of GAP_RULES) {
    for (const m of text.matchAll(pattern)) {
      const group = m.indices?.groups?.secret;
      if (group) {
        if (!keep?.(text.slice(group[0], group[1]))) into.push({ start: group[0], end: group[1], label });
      } else into.push({ start: m.index, end: m.index + m[0].length, label });
    }
  }
}

/** Variables that name places and terminals, never secrets; their values are everywhere in a session. */
const NEVER_SECRET = new Set([
  'PATH',
  'HOME',
  'PWD',
  'OLDPWD',
  'SHELL',
  'USER',
  'LOGNAME',
  'USERNAME',
  'HOSTNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'COLORTERM',
  'TMPDIR',
  'TEMP',
  'TMP',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'SHLVL',
  '_',
  'DISPLAY',
  'TZ',
  'NODE_ENV',
  'INIT_CWD',
]);
const SECRET_NAME = /(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE|CREDENTIAL|AUTH)/i;
const MIN_ENV_VALUE = 8;

function looksLikePathOrList(value: string): boolean {
  if (/^(~|\/|[A-Za-z]:[\\/]|\\\\)/.test(value)) return true;
  return value.split(/[:;]/).length > 1 && value.split(/[:;]/).every((part) => part === '' || /^(~|\/|[A-Za-z]:[\\/])/.test(part));
}

/**
 * The environment values worth hiding. Skipped: names that are clearly places or terminals, locale
 * and XDG variables, npm's own script variables, values under 8 characters, plain numbers, file paths and path lists, and
 * single lowercase words ("production") — unless the name says secret (TOKEN, KEY, PASSWORD, …).
 */
export function envSecrets(env: NodeJS.ProcessEnv): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (SECRET_NAME.test(name)) {
      if (trimmed.length >= 4) out.push({ name, value: trimmed });
      continue;
    }
    // npm sets npm_package_* and npm_config_* for every script (`npm start` included): the app's own name and
    // version, registry addresses; an npm auth token's name says TOKEN and was taken above.
    if (NEVER_SECRET.has(name) || /^(LC_|XDG_|npm_)/.test(name)) continue;
    if (trimmed.length < MIN_ENV_VALUE || /^\d+$/.test(trimmed) || /^[a-z]+$/.test(trimmed) || looksLikePathOrList(trimmed)) continue;
    out.push({ name, value: trimmed });
  }
  // Longest first, so a value that contains another is replaced whole.
  return out.sort((a, b) => b.value.length - a.value.length);
}

interface Span {
  start: number;
  end: number;
  label: string;
}

/** A secret found in a text: where it is (string offsets), the rule that caught it, and the matched text. */
export interface SecretSpan {
  start: number;
  end: number;
  rule: string;
  text: string;
}

function shortRule(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

function allOccurrences(text: string, needle: string, label: string, into: Span[]): void {
  if (needle.length < 8) return;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) into.push({ start: i, end: i + needle.length, label });
}

function applySpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let out = '';
  let at = 0;
  for (const span of merged) {
    out += `${text.slice(at, span.start)}[REDACTED:${span.label}]`;
    at = span.end;
  }
  return out + text.slice(at);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Redactor {
  readonly rules: readonly RedactRule[];
  private readonly secrets: boolean;
  private readonly envValues: Array<{ name: string; value: string }>;

  constructor(rules: readonly RedactRule[], env: NodeJS.ProcessEnv = process.env) {
    this.rules = rules;
    this.secrets = rules.includes('secrets');
    this.envValues = rules.includes('env') ? envSecrets(env) : [];
  }

  get active(): boolean {
    return this.secrets || this.envValues.length > 0;
  }

  /** Secret spans in `text`: secretlint's findings (plus every other place the same secret appears) and the gap rules. */
  private async secretSpans(text: string, literals: ReadonlyMap<string, string>): Promise<Span[]> {
    const spans: Span[] = [];
    for (const [literal, label] of literals) allOccurrences(text, literal, label, spans);
    const result = await (await loadLinter())(text);
    for (const message of result.messages) {
      const label = shortRule(message.ruleId);
      spans.push({ start: message.range[0], end: message.range[1], label });
      // Some rules report a range that is not the secret itself (the AWS secret key rule points at
      // the variable name); the secret value in `data` is redacted wherever it appears.
      for (const value of Object.values(message.data ?? {})) if (typeof value === 'string') allOccurrences(text, value, label, spans);
    }
    gapSpans(text, spans);
    return spans;
  }

  /**
   * Every secret in `text`, found but not replaced, for a review before redacting (the bundle export).
   * Unlike the writer's spans, a rule that names its secret (`data`) is narrowed to that secret, so the
   * words around it (a JSON key, `aws_secret_access_key =`) stay; environment values are also found in
   * their JSON-escaped spelling, since most sources are JSON. `literals` are secrets already found elsewhere.
   */
  async findSpans(text: string, literals: ReadonlyMap<string, string> = new Map(), ruleText: string = text): Promise<SecretSpan[]> {
    const spans: Span[] = [];
    // The rules read `ruleText` (a view of `text` of the same length, e.g. with JSON escapes blanked); literals and environment values the text itself.
    const rules = ruleText.length === text.length ? ruleText : text;
    if (this.secrets && text.length > 0) {
      for (const [literal, label] of literals) allOccurrences(text, literal, label, spans);
      const result = await (await loadLinter())(rules);
      for (const message of result.messages) {
        const label = shortRule(message.ruleId);
        const [from, to] = message.range;
        // A value counts as the secret only where it lies in the reported range (`typeName` and such do not).
        const named: Span[] = [];
        for (const value of Object.values(message.data ?? {})) {
          if (typeof value !== 'string') continue;
          const found: Span[] = [];
          allOccurrences(rules, value, label, found);
          if (found.some((s) => s.start < to && s.end > from)) named.push(...found);
        }
        spans.push(...(named.length ? named : [{ start: from, end: to, label }]));
      }
      gapSpans(rules, spans);
    }
    for (const { name, value } of this.envValues) {
      // Every value envSecrets picked counts, however short (as in redactString), as written, in JSON and in HTML.
      const html = value.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
      for (const needle of new Set([value, JSON.stringify(value).slice(1, -1), html])) {
        for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
          spans.push({ start: i, end: i + needle.length, label: `ENV:${name}` });
        }
      }
    }
    return spans.map((s) => ({ start: s.start, end: s.end, rule: s.label, text: text.slice(s.start, s.end) }));
  }

  private async redactString(text: string, literals: ReadonlyMap<string, string>): Promise<string> {
    let out = text;
    if (this.secrets && out.length > 0) out = applySpans(out, await this.secretSpans(out, literals));
    for (const { name, value } of this.envValues) {
      if (out.includes(value)) out = out.split(value).join(`[REDACTED:ENV:${name}]`);
    }
    return out;
  }

  async text(text: string): Promise<string> {
    return this.active ? this.redactString(text, new Map()) : text;
  }

  /**
   * Redacts every string (and key) in a JSON value. The value is also scanned as one JSON text,
   * so rules that need context (`"aws_secret_access_key": "…"`) still see the key beside the value.
   */
  async value<T>(value: T): Promise<T> {
    if (!this.active || value === null || value === undefined) return value;
    if (typeof value === 'string') return (await this.redactString(value, new Map())) as T;
    const literals = new Map<string, string>();
    if (this.secrets && typeof value === 'object') {
      const json = JSON.stringify(value);
      const result = await (await loadLinter())(json);
      for (const message of result.messages) {
        const label = shortRule(message.ruleId);
        for (const v of Object.values(message.data ?? {})) if (typeof v === 'string') literals.set(v, label);
        const raw = json.slice(message.range[0], message.range[1]);
        try {
          literals.set(JSON.parse(`"${raw}"`) as string, label);
        } catch {
          literals.set(raw, label);
        }
      }
    }
    return (await this.walk(value, literals)) as T;
  }

  private async walk(value: unknown, literals: ReadonlyMap<string, string>): Promise<unknown> {
    if (typeof value === 'string') return this.redactString(value, literals);
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.walk(v, literals)));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[await this.redactString(key, literals)] = await this.walk(v, literals);
      return out;
    }
    return value;
  }
}
