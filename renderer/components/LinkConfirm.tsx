// Links leave the app only after a modal names the full URL and the user chooses Open; only http(s) and mailto ever leave.
import { useEffect, useRef, useState } from 'react';
import { externalLinkTarget } from '../../shared/external-link.ts';

/** The app's own downloads: a temporary link to an object URL it clicks itself. */
function isOwnDownload(a: HTMLAnchorElement): boolean {
  return a.protocol === 'blob:' && a.hasAttribute('download');
}

/**
 * Catches every click (and middle click) on a link anywhere in the window, before the browser follows it:
 * session content is untrusted, so a link it holds never opens a tab or the system browser on one click.
 */
export function LinkConfirm() {
  const [url, setUrl] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!(a instanceof HTMLAnchorElement) || isOwnDownload(a) || a.getAttribute('href')?.startsWith('#')) return;
      e.preventDefault();
      const target = externalLinkTarget(a.href);
      if (!target) return; // file:, javascript:, custom schemes: never followed
      returnTo.current = a;
      setUrl(target);
    };
    document.addEventListener('click', onClick, true);
    document.addEventListener('auxclick', onClick, true);
    return () => {
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('auxclick', onClick, true);
    };
  }, []);

  useEffect(() => {
    const box = dialog.current;
    if (!url || !box || box.open) return;
    box.showModal();
    cancel.current?.focus();
  }, [url]);

  const close = () => dialog.current?.close();
  return (
    <dialog
      ref={dialog}
      className="vault-dialog link-confirm"
      aria-labelledby="link-confirm-title"
      data-testid="link-confirm"
      onClose={() => {
        setUrl(null);
        returnTo.current?.focus();
        returnTo.current = null;
      }}
    >
      <h2 id="link-confirm-title">Open this link outside Session Vault?</h2>
      <p className="muted small">It comes from the session's content. Check where it really goes:</p>
      <p className="mono link-confirm-url" data-testid="link-confirm-url">
        {url}
      </p>
      <div className="dialog-buttons">
        <button type="button" ref={cancel} data-testid="link-confirm-cancel" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          data-testid="link-confirm-open"
          onClick={() => {
            // A new browsing context with no opener: a browser tab, or the system browser (Electron's open handler).
            if (url) window.open(url, '_blank', 'noopener,noreferrer');
            close();
          }}
        >
          {url?.startsWith('mailto:') ? 'Write email' : 'Open in browser'}
        </button>
      </div>
    </dialog>
  );
}
