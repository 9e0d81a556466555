// The review before a first push to the team store: every finding in the sessions the store does not have yet, each a false positive to untick, then Push or Cancel.
import { useAppStore } from '../../store/store-context.ts';
import { ModalDialog } from '../ModalDialog.tsx';
import { plural } from '../../format.ts';

export function TeamPushReview() {
  const review = useAppStore((s) => s.team.review);
  const pushing = useAppStore((s) => s.team.pushing);
  const store = useAppStore((s) => s.team.status?.store ?? '');
  const toggle = useAppStore((s) => s.toggleTeamKeep);
  const confirm = useAppStore((s) => s.confirmTeamPush);
  const cancel = useAppStore((s) => s.cancelTeamPush);
  if (!review) return null;
  const kept = new Set(review.keep);
  const n = review.held.length;
  return (
    <ModalDialog labelledBy="team-review-title" testId="team-review" onEscape={pushing ? null : cancel}>
      <h2 id="team-review-title">Push {plural(n, 'session')} to the team for the first time?</h2>
      <p className="muted small">
        <bdi>{store}</bdi> does not have {n === 1 ? 'it' : 'them'} yet. Everything is sent as Share would bundle it: the session and its files, every finding
        below redacted unless you untick it.
      </p>
      {review.findings.length === 0 ? (
        <p className="ok-text" data-testid="team-review-clean">
          No secrets found.
        </p>
      ) : (
        <ul className="vault-list findings-list">
          {review.findings.map((f) => (
            <li key={f.id}>
              <label className="delete-file" data-testid="team-finding" data-rule={f.rule}>
                <input type="checkbox" checked={!kept.has(f.id)} onChange={() => toggle(f.id)} />
                <span>
                  {f.rule} · <bdi>{f.file}</bdi>:{f.line}
                  <span className="mono small"> {f.preview}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={cancel} disabled={pushing}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="team-review-push" onClick={() => void confirm()} disabled={pushing}>
          {pushing ? 'Pushing…' : 'Push'}
        </button>
      </div>
    </ModalDialog>
  );
}
