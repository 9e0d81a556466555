// The Team source's settings: the store's URL (no password in it), the account's token (kept in a file only this user reads, never shown again), this machine's label, auto-push.
import { useState, type FormEvent } from 'react';
import { useAppStore } from '../../store/store-context.ts';

export function TeamSettingsForm(props: { onSaved(): void }) {
  const status = useAppStore((s) => s.team.status);
  const save = useAppStore((s) => s.saveTeamSettings);
  const error = useAppStore((s) => s.team.statusError);
  const [store, setStore] = useState(status?.store ?? '');
  const [token, setToken] = useState('');
  const [machine, setMachine] = useState(status?.machine ?? '');
  const [autoPush, setAutoPush] = useState(status?.autoPush ?? false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const ok = await save({
      store: store.trim() ? store.trim() : null,
      ...(token ? { token } : {}),
      ...(machine.trim() ? { machine: machine.trim() } : {}),
      autoPush,
    });
    setBusy(false);
    if (ok) {
      setToken('');
      props.onSaved();
    }
  };

  return (
    <form className="team-settings" data-testid="team-settings" onSubmit={(e) => void submit(e)}>
      <label>
        Store
        <input
          type="text"
          data-testid="team-store"
          placeholder="postgresql://you@host:5432/team"
          value={store}
          onChange={(e) => setStore(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label>
        Token {status?.hasToken && <span className="muted small">(one is kept; type a new one to replace it)</span>}
        <input type="password" data-testid="team-token" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
      </label>
      <label>
        This machine
        <input type="text" data-testid="team-machine" value={machine} onChange={(e) => setMachine(e.target.value)} spellCheck={false} />
      </label>
      <label className="team-auto">
        <input type="checkbox" data-testid="team-auto-push" checked={autoPush} onChange={(e) => setAutoPush(e.target.checked)} />
        Push sessions that change on their own (new ones wait for your review)
      </label>
      {error && (
        <p className="error-text" role="alert" data-testid="team-settings-error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}
