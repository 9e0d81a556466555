// The share dialog's list of files a session names that the export leaves out (outside every folder added), never read.
import { useAppStore } from '../../store/store-context.ts';
import { plural } from '../../format.ts';

export function BundleRefusedFiles() {
  const share = useAppStore((s) => s.share);
  const refused = share?.result?.refused ?? share?.refused ?? [];
  if (!refused.length) return null;
  return (
    <fieldset className="delete-files" data-testid="bundle-refused">
      <legend>
        {plural(refused.length, 'file')} left out: {refused.length === 1 ? 'it is' : 'they are'} not the session’s own, so{' '}
        {refused.length === 1 ? 'it is' : 'they are'} never read or shared.
      </legend>
      <ul className="vault-list">
        {refused.map((r) => (
          <li key={`${r.session}\u0000${r.path}`} data-testid="bundle-refused-file">
            <span className="mono small">{r.path}</span> <span className="muted small">{r.reason}</span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
