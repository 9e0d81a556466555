// What the user sees with nothing to show: how to add a folder, or open the bundled demo sessions.
import { useAppStore } from '../store/store-context.ts';
import { AddRootForm } from './AddRootForm.tsx';
import { plural } from '../format.ts';

export function EmptyState() {
  const roots = useAppStore((s) => s.roots);
  const openDemo = useAppStore((s) => s.openDemo);
  const demoBusy = useAppStore((s) => s.demoBusy);
  const demoError = useAppStore((s) => s.demoError);

  return (
    <section className="empty-state" data-testid="empty-state">
      <h2>No sessions yet</h2>
      <p>
        Session Vault shows the session files that AI coding assistants (Vizier, JidoCode, Claude Code, Codex, Gemini and others) write to disk.{' '}
        {roots.length > 0 ? `None were found in the ${plural(roots.length, 'source')} checked so far.` : 'No source folders are known yet.'}
      </p>
      <h3>Add a folder</h3>
      <p className="muted">Type the path of a folder that holds session files; it is scanned and watched for changes.</p>
      <AddRootForm />
      <h3>Or look around first</h3>
      <p className="muted">A small set of demo sessions in every supported format, read-only.</p>
      <button type="button" className="primary" data-testid="open-demo" disabled={demoBusy} onClick={() => void openDemo()}>
        {demoBusy ? 'Opening…' : 'Open the demo sessions'}
      </button>
      {demoError && (
        <p className="error-text" role="alert">
          {demoError}
        </p>
      )}
    </section>
  );
}
