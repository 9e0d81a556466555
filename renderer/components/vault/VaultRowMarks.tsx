// What the vault adds to a list row: the star, the kept mark (or "vault copy" once the source is gone), a note mark and tag chips.
import type { SessionSummary } from '../../../shared/session.ts';
import { useAppStore } from '../../store/store-context.ts';

export function VaultRowMarks({ s }: { s: SessionSummary }) {
  return (
    <>
      {s.hasNote && (
        <span className="row-note muted" role="img" title="Has a note" aria-label="Has a note">
          ✎
        </span>
      )}
      {s.kept && (
        <span
          className={s.sourceGone ? 'badge kept-badge gone' : 'badge kept-badge'}
          data-testid="row-kept"
          title={s.sourceGone ? 'The source file is gone; this is the vault’s copy' : 'Kept in the vault'}
        >
          {s.sourceGone ? 'vault copy' : 'kept'}
        </span>
      )}
      {s.starred && (
        <span className="row-star" data-testid="row-star" role="img" title="Starred" aria-label="Starred">
          ★
        </span>
      )}
    </>
  );
}

/** Tag chips under the row; a click lists only the sessions with that tag. */
export function VaultRowTags({ s }: { s: SessionSummary }) {
  const setListFilters = useAppStore((st) => st.setListFilters);
  if (s.tags.length === 0) return null;
  return (
    <div className="row-line row-tags">
      {s.tags.map((t) => (
        <button
          key={t}
          type="button"
          className="tag-chip small"
          data-testid="row-tag"
          title={`Show only sessions tagged “${t}”`}
          onClick={(e) => {
            e.stopPropagation();
            setListFilters({ tag: t });
          }}
        >
          {t}
        </button>
      ))}
    </div>
  );
}
