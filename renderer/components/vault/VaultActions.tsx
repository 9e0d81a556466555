// The vault strip of the detail header (keep, star, resume and delete, where the copy lives), and the tags and note of the Info tab; a team session shows only what the team store allows.
import { useEffect, useState } from 'react';
import { relativeTime } from '../../../shared/relative-time.ts';
import type { Session } from '../../../shared/session.ts';
import type { VaultStatus } from '../../../shared/vault-api.ts';
import { formatTimestamp } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';
import type { VaultControl, VaultView } from '../../store/store-vault.ts';
import { useSessionAccess } from '../team/team-access.ts';
import { NoteEditor, TagsEditor } from './AnnotationEditor.tsx';
import { VaultDeleteDialog, type DeleteTarget } from './VaultDeleteDialog.tsx';
import { VaultResume } from './VaultResume.tsx';

/** live: only the tool has it; kept: the vault has a copy and the source exists; gone: only the copy is left; owned: the vault's own (a fork). */
export type Keeping = 'live' | 'kept' | 'gone' | 'owned';

export function keepingOf(status: VaultStatus): Keeping {
  if (!status.keptPath) return 'live';
  if (!status.keptAt && status.keptPath === status.liveSourcePath) return 'owned';
  return status.liveSourcePath ? 'kept' : 'gone';
}

const FAILED: Record<VaultControl, string> = {
  status: 'Could not load the vault status',
  keep: 'Could not keep this session',
  star: 'Could not change the star',
  tags: 'Could not save the tags',
  note: 'Could not save the note',
  resume: 'Could not check how to resume',
  delete: 'Could not delete',
};

function ControlError({ view, controls }: { view: VaultView; controls: VaultControl[] }) {
  if (!view.error || !controls.includes(view.error.control)) return null;
  return (
    <p className="error-text" role="alert" data-testid="vault-error">
      {FAILED[view.error.control]}: {view.error.message}
    </p>
  );
}

function KeepState({ view, keeping }: { view: VaultView; keeping: Keeping | null }) {
  const keep = useAppStore((s) => s.keepOpen);
  const status = view.status;
  if (!status || !keeping) return <span className="muted">{view.loading ? 'Checking the vault…' : ''}</span>;
  if (keeping === 'owned') {
    return (
      <span className="badge kept-badge" data-testid="kept-status" title={status.keptPath ?? undefined}>
        In the vault
      </span>
    );
  }
  if (keeping === 'live') {
    return (
      <button
        type="button"
        data-testid="keep-button"
        disabled={view.busy === 'keep'}
        title="Copy this session into the vault, safe from tools that delete old sessions"
        onClick={() => void keep()}
      >
        {view.busy === 'keep' ? 'Keeping…' : 'Keep'}
      </button>
    );
  }
  return (
    <span className="badge kept-badge" data-testid="kept-status" title={status.keptPath ?? undefined}>
      Kept{' '}
      {status.keptAt ? (
        <time dateTime={status.keptAt} title={formatTimestamp(status.keptAt)}>
          {relativeTime(status.keptAt)}
        </time>
      ) : (
        ''
      )}
    </span>
  );
}

/** Render with `key={session.key}` so the resume and delete panels close when another session opens. */
export function VaultActions({ session }: { session: Session }) {
  const key = session.key;
  const view = useAppStore((s) => (s.vault?.key === key ? s.vault : null));
  const row = useAppStore((s) => s.sessions.find((x) => x.key === key));
  const loadVault = useAppStore((s) => s.loadVault);
  const setStar = useAppStore((s) => s.setStar);
  const loadResume = useAppStore((s) => s.loadResume);
  const deleteOpen = useAppStore((s) => s.deleteOpen);
  const [resumeOpen, setResumeOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // A team session is kept in the team store: keeping, starring and deleting are this machine's vault's, not offered.
  const { team } = useSessionAccess(key);
  const rowKept = row?.kept;
  const rowGone = row?.sourceGone;
  const rowMtime = row?.mtimeMs;

  // Opening a session, and any change of its list row (kept, source gone, rewritten), refreshes where it stands.
  useEffect(() => {
    void loadVault(key);
  }, [key, rowKept, rowGone, rowMtime, loadVault]);

  if (!view)
    return (
      <div className="vault-actions muted" data-testid="vault-actions">
        Checking the vault…
      </div>
    );
  const status = view.status;
  const keeping = status ? keepingOf(status) : null;
  const annotations = status?.annotations ?? null;
  const starred = annotations?.starred ?? row?.starred ?? false;
  const target: DeleteTarget = {
    title: session.title,
    inVault: keeping !== null && keeping !== 'live',
    // A kept copy's own files are the vault's business; the tool's files are offered only while they exist.
    sourceFiles: keeping === 'live' || keeping === 'kept' ? session.sourceFiles : [],
  };

  return (
    <div className="vault-actions" data-testid="vault-actions" data-keeping={keeping ?? undefined}>
      {keeping === 'gone' && (
        <div className="warn-banner" data-testid="source-gone" role="status">
          Source deleted — showing the vault’s copy.
        </div>
      )}
      <div className="vault-toolbar">
        {!team && <KeepState view={view} keeping={keeping} />}
        {!team && (
          <button
            type="button"
            className={starred ? 'star-toggle starred' : 'star-toggle'}
            data-testid="star-toggle"
            aria-pressed={starred}
            title={starred ? 'Remove the star (s)' : 'Star this session (s)'}
            disabled={!status}
            onClick={() => void setStar(!starred)}
          >
            {starred ? '★ Starred' : '☆ Star'}
          </button>
        )}
        <button
          type="button"
          data-testid="resume-button"
          aria-expanded={resumeOpen}
          disabled={!status}
          onClick={() => {
            if (!resumeOpen) void loadResume();
            setResumeOpen(!resumeOpen);
          }}
        >
          Resume…
        </button>
        {!team && (
          <button type="button" data-testid="delete-button" disabled={!status} onClick={() => setDeleting(true)}>
            Delete…
          </button>
        )}
        {keeping === 'kept' && status?.liveSourcePath && (
          <span className="muted live-source" data-testid="live-source" title={status.liveSourcePath}>
            Live source: <span className="mono">{status.liveSourcePath}</span>
          </span>
        )}
      </div>
      <ControlError view={view} controls={['status', 'keep', 'star', 'resume']} />
      {view.notice && (
        <p className="ok-text" role="status" data-testid="vault-notice">
          {view.notice}
        </p>
      )}
      {resumeOpen && <VaultResume info={view.resume} loading={view.busy === 'resume'} onClose={() => setResumeOpen(false)} />}
      {deleting && !team && (
        <VaultDeleteDialog
          target={target}
          busy={view.busy === 'delete'}
          error={view.error?.control === 'delete' ? view.error.message : null}
          onCancel={() => setDeleting(false)}
          onConfirm={(files) => void deleteOpen(files).then((ok) => ok && setDeleting(false))}
        />
      )}
    </div>
  );
}

/** A team session's shared tags and note for an account that may only read them (a viewer): shown, not offered for editing. */
function ReadOnlyNotes({ tags, note }: { tags: readonly string[]; note: string }) {
  return (
    <div className="vault-notes" data-testid="vault-notes" data-readonly="true">
      <div className="tags-editor" data-testid="tags-readonly">
        <span className="muted vault-label">Tags</span>
        {tags.length ? (
          tags.map((t) => (
            <span key={t} className="tag-chip" data-testid="tag-chip">
              {t}
            </span>
          ))
        ) : (
          <span className="muted">none</span>
        )}
      </div>
      <div className="note-editor">
        <span className="muted vault-label">Note</span>
        {note ? (
          <p className="note-readonly" data-testid="note-readonly">
            {note}
          </p>
        ) : (
          <span className="muted">none</span>
        )}
      </div>
      <p className="muted small">The team's notes and tags are written by its members; this account may read them.</p>
    </div>
  );
}

/** The session's tags and note (the Info tab): the same vault view the header's strip loads. */
export function VaultNotes({ session }: { session: Session }) {
  const key = session.key;
  const view = useAppStore((s) => (s.vault?.key === key ? s.vault : null));
  const setTags = useAppStore((s) => s.setTags);
  const saveNote = useAppStore((s) => s.saveNote);
  const annotations = view?.status?.annotations ?? null;
  const { canWrite } = useSessionAccess(key);
  if (!view || !annotations) return <p className="muted">Checking the vault…</p>;
  if (!canWrite) return <ReadOnlyNotes tags={annotations.tags} note={annotations.note} />;
  return (
    <div className="vault-notes" data-testid="vault-notes">
      <TagsEditor tags={annotations.tags} onChange={(tags) => void setTags(tags)} />
      <ControlError view={view} controls={['tags']} />
      <NoteEditor key={key} note={annotations.note} saving={view.busy === 'note'} savedAt={view.noteSavedAt} onSave={(n) => void saveNote(n)} />
      <ControlError view={view} controls={['note']} />
    </div>
  );
}
