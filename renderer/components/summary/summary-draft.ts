// The Summary card's form as text boxes: lists one item a line, tags separated by commas; to and from the contract's fields.
import type { SummaryRecord } from '../../../shared/summary-api.ts';
import type { SummaryDraft } from '../../store/store-summary.ts';

export interface SummaryForm {
  overview: string;
  decisions: string;
  outcomes: string;
  openItems: string;
  tags: string;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\[ \])\s+/, '').trim())
    .filter(Boolean);

/** The boxes filled from the summary shown (empty when there is none). */
export function formOf(summary: SummaryRecord | null): SummaryForm {
  return {
    overview: summary?.overview ?? '',
    decisions: (summary?.decisions ?? []).join('\n'),
    outcomes: (summary?.outcomes ?? []).join('\n'),
    openItems: (summary?.openItems ?? []).join('\n'),
    tags: (summary?.tags ?? []).join(', '),
  };
}

/** What the boxes say, or the reason it cannot be saved (the overview is the one field required). */
export function draftOf(form: SummaryForm): { draft: SummaryDraft } | { problem: string } {
  const overview = form.overview.trim();
  if (!overview) return { problem: 'Write an overview: two or three sentences on what the session did.' };
  const tags = [
    ...new Set(
      form.tags
        .split(/[,\n]/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  const long = tags.find((t) => t.length > 80);
  if (long) return { problem: `A tag is at most 80 characters ("${long.slice(0, 20)}…" is longer).` };
  return { draft: { overview, decisions: lines(form.decisions), outcomes: lines(form.outcomes), openItems: lines(form.openItems), tags } };
}
