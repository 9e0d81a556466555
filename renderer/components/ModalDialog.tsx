// The app's modal dialog, on the platform's <dialog>: focus moves in and stays in, Esc closes from anywhere (unless a step is running), and focus goes back to what opened it.
import { useEffect, useRef, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** Tab past the last control comes back to the first (and Shift+Tab the other way): focus never leaves for the browser's own bar. */
function cycleFocus(dialog: HTMLDialogElement, e: { shiftKey: boolean; preventDefault(): void }): void {
  const controls = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !dialog.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

export function ModalDialog(props: {
  /** The id of the heading inside that names the dialog. */
  labelledBy: string;
  testId: string;
  /** Esc calls this; null while the dialog cannot be closed (a step is running). */
  onEscape: (() => void) | null;
  children: ReactNode;
}) {
  const { labelledBy, testId, onEscape, children } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const escape = useRef(onEscape);
  useEffect(() => {
    escape.current = onEscape;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // showModal makes the page behind inert: Tab walks only the dialog, and the first control takes focus.
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="vault-dialog"
      aria-labelledby={labelledBy}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Tab' && ref.current) cycleFocus(ref.current, e);
      }}
      onCancel={(e) => {
        // The browser's own Esc would close the dialog behind React's back: the app decides.
        e.preventDefault();
        escape.current?.();
      }}
    >
      {children}
    </dialog>
  );
}
