// The app's modal dialog: a backdrop, a labelled dialog box, and Esc to close (unless the dialog says it cannot now).
import type { ReactNode } from 'react';

export function ModalDialog(props: {
  /** The id of the heading inside that names the dialog. */
  labelledBy: string;
  testId: string;
  /** Esc calls this; null while the dialog cannot be closed (a step is running). */
  onEscape: (() => void) | null;
  children: ReactNode;
}) {
  const { labelledBy, testId, onEscape, children } = props;
  return (
    <div className="vault-backdrop">
      <div
        className="vault-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onEscape) {
            e.preventDefault();
            onEscape();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
