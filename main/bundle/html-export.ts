// One session as a single self-contained HTML file: inline CSS, no script, no external request, every text escaped.
import type { Message, MessagePart, Session } from '../../shared/session.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Nothing may load: the policy forbids every fetch, so even a bug in escaping could not reach the network. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CSS = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5f6672; --bg: #fff; --card: #f5f6f8; --line: #dde1e6; --user: #e8f0fe; --tool: #f3f0e8; --accent: #3558c9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e6ea; --muted: #9aa2ad; --bg: #16181c; --card: #1f2228; --line: #30343c; --user: #1d2a44; --tool: #2c2a22; --accent: #8ea8ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 920px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.45em; margin: 0 0 6px; }
.meta { color: var(--muted); font-size: 0.9em; display: flex; flex-wrap: wrap; gap: 4px 18px; margin-bottom: 18px; }
.summary { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 20px; }
.msg { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 12px 0; background: var(--bg); }
.msg.user { background: var(--user); }
.msg.tool { background: var(--tool); }
.who { font-weight: 600; font-size: 0.85em; color: var(--muted); display: flex; gap: 12px; margin-bottom: 4px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 6px 0; max-height: 480px; overflow: auto; }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--accent); font-size: 0.9em; }
.error summary { color: #c2362f; }
.note { color: var(--muted); font-style: italic; }
img { max-width: 100%; border-radius: 6px; }
footer { color: var(--muted); font-size: 0.8em; margin-top: 32px; }
`;

function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

function part(p: MessagePart): string {
  switch (p.type) {
    case 'text':
      return `<div class="text">${escapeHtml(p.text)}</div>`;
    case 'thinking':
      return `<details><summary>${p.redacted ? 'Thinking (redacted by the tool)' : 'Thinking'}</summary><div class="text">${escapeHtml(p.text)}</div></details>`;
    case 'tool_call':
      return `<details><summary>Tool call: ${escapeHtml(p.name)}</summary><pre>${escapeHtml(pretty(p.input))}</pre></details>`;
    case 'tool_result':
      return `<details class="${p.isError ? 'error' : ''}"><summary>${p.isError ? 'Tool error' : 'Tool result'} (${p.output.length} characters)</summary><pre>${escapeHtml(p.output)}</pre></details>`;
    case 'image':
      // Only embedded images are shown: a URL would be a request, and the file promises none.
      if (p.data && p.mediaType && IMAGE_TYPES.test(p.mediaType) && /^[A-Za-z0-9+/=\s]+$/.test(p.data)) {
        return `<img alt="image" src="data:${p.mediaType};base64,${p.data.replace(/\s+/g, '')}">`;
      }
      return `<p class="note">[image${p.url ? `: ${escapeHtml(p.url)}` : ''}]</p>`;
    case 'compaction':
      return `<details><summary>Context compacted${p.trigger ? ` (${escapeHtml(p.trigger)})` : ''}</summary><div class="text">${escapeHtml(p.summary ?? '')}</div></details>`;
  }
}

function message(m: Message): string {
  const who = m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : m.role === 'tool' ? 'Tool' : 'System';
  const facts = [
    m.timestamp ? `<time datetime="${escapeHtml(m.timestamp)}">${escapeHtml(m.timestamp.replace('T', ' ').replace(/\.\d+/, ''))}</time>` : '',
    m.model ? escapeHtml(m.model) : '',
    m.agentId ? `sub-agent ${escapeHtml(m.agentId)}` : '',
  ]
    .filter(Boolean)
    .map((f) => `<span>${f}</span>`)
    .join('');
  return `<section class="msg ${m.role}"><div class="who"><span>${who}</span>${facts}</div>${m.parts.map(part).join('\n')}</section>`;
}

function list(title: string, items: string[]): string {
  return items.length ? `<h3>${title}</h3><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>` : '';
}

export function sessionHtml(session: Session, generatedBy: string): string {
  const meta = [
    ['Source', session.format],
    ['Project', session.project.path],
    ['Branch', session.project.branch],
    ['Model', session.model?.name ?? null],
    ['Started', session.createdAt],
    ['Updated', session.closedAt ?? session.updatedAt],
    ['Status', session.outcome ? `${session.status} · ${session.outcome.status}` : session.status],
    ['Messages', String(session.messages.length)],
  ]
    .filter(([, v]) => v)
    .map(([k, v]) => `<span>${k}: ${escapeHtml(v as string)}</span>`)
    .join('');
  const s = session.summary;
  const overview = s?.overview ?? session.outcome?.summary ?? null;
  const summary =
    overview || s?.decisions.length || s?.outcomes.length || s?.openItems.length
      ? `<div class="summary">${overview ? `<div class="text">${escapeHtml(overview)}</div>` : ''}${list('Decisions', s?.decisions ?? [])}${list('Outcomes', s?.outcomes ?? [])}${list('Open items', s?.openItems ?? [])}</div>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(session.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(session.title)}</h1>
<div class="meta">${meta}</div>
${summary}
${session.messages.map(message).join('\n')}
<footer>Session ${escapeHtml(session.key)} · exported by ${escapeHtml(generatedBy)}</footer>
</main>
</body>
</html>
`;
}
