// "Fork from here" on a transcript message: a new vault session with the messages up to this one, opened once written; not offered on a team session.
import type { Message } from '../../../shared/session.ts';
import { useAppStore } from '../../store/store-context.ts';
import { useSessionAccess } from '../team/team-access.ts';

export function VaultForkButton({ message }: { message: Message }) {
  const forkFrom = useAppStore((s) => s.forkFrom);
  const fork = useAppStore((s) => (s.fork?.messageId === message.id ? s.fork : null));
  const canFork = useAppStore((s) => s.open?.session != null);
  // A fork is a new session of this machine's vault: the team store serves its sessions read-only.
  const { team } = useSessionAccess(useAppStore((s) => s.open?.key ?? ''));
  if (!canFork || team) return null;
  return (
    <>
      {fork?.error && (
        <span className="error-text fork-error" role="alert" data-testid="fork-error">
          Could not fork: {fork.error}
        </span>
      )}
      <button
        type="button"
        className="raw-action fork-action"
        data-testid="fork-button"
        title="Start a new session in the vault with the messages up to and including this one"
        disabled={fork?.busy ?? false}
        onClick={() => void forkFrom(message.id)}
      >
        {fork?.busy ? 'Forking…' : 'Fork from here'}
      </button>
    </>
  );
}
