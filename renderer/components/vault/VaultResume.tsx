// How to pick a session up again in its own tool: the command to copy and where to run it, or why it cannot be resumed now.
import { useRef, useState } from 'react';
import type { ResumeInfo } from '../../../shared/vault-api.ts';
import { useAppStore } from '../../store/store-context.ts';

type Copied = 'copied' | 'select' | null;

/** Copies through the clipboard API; where that is refused, selects the text so Ctrl+C does it. */
export async function copyText(text: string, field: HTMLInputElement | null): Promise<Copied> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    field?.focus();
    field?.select();
    return 'select';
  }
}

export function VaultResume(props: { info: ResumeInfo | null; loading: boolean; onClose(): void }) {
  const { info, loading, onClose } = props;
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<Copied>(null);
  const openTerminal = useAppStore((s) => s.resumeInTerminal);
  const [launch, setLaunch] = useState<{ ok: boolean; text: string } | 'busy' | null>(null);

  return (
    <div className="vault-popover" data-testid="resume-panel">
      <div className="panel-header">
        <span>Resume in its own tool</span>
        <button type="button" className="icon-button" aria-label="Close" title="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {loading && <p className="muted">Checking the project folder…</p>}
      {info && !info.available && (
        <p className="warn-text" data-testid="resume-reason">
          {info.reason ?? 'This session cannot be resumed.'}
        </p>
      )}
      {info?.available && info.command && (
        <>
          <div className="resume-line">
            <input
              ref={field}
              type="text"
              readOnly
              className="mono resume-command"
              data-testid="resume-command"
              aria-label="Resume command"
              value={info.command}
              onFocus={(e) => e.target.select()}
            />
            <button type="button" data-testid="resume-copy" onClick={() => void copyText(info.command ?? '', field.current).then(setCopied)}>
              Copy
            </button>
            <button
              type="button"
              data-testid="resume-terminal"
              disabled={launch === 'busy'}
              title="Open a terminal in the project folder running this command (SESSION_VAULT_TERMINAL chooses the terminal)"
              onClick={() => {
                setLaunch('busy');
                void openTerminal().then(setLaunch);
              }}
            >
              Open in terminal
            </button>
          </div>
          {launch !== null && launch !== 'busy' && (
            <p className={launch.ok ? 'ok-text' : 'warn-text'} role="status" data-testid="resume-terminal-status">
              {launch.text}
            </p>
          )}
          {info.cwd && (
            <p className="muted">
              Run it in{' '}
              <span className="mono" data-testid="resume-cwd">
                {info.cwd}
              </span>
            </p>
          )}
          {copied === 'copied' && (
            <p className="ok-text" role="status">
              Copied to the clipboard.
            </p>
          )}
          {copied === 'select' && (
            <p className="muted" role="status">
              The clipboard is not available here: the command is selected, press Ctrl+C to copy it.
            </p>
          )}
        </>
      )}
    </div>
  );
}
