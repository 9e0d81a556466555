// Where a key was pressed, for the window-wide shortcuts: in a text field (the key is text) or in a dialog (the key is the dialog's).

/** A field the user types in: its keys are text, never shortcuts. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable;
}

/**
 * Inside a dialog: a modal `<dialog>`, or a `role=dialog` panel (the Vault panel, the shortcut help). Its keys are its
 * own: on one of its buttons `s` had starred the session behind it and Esc had cleared the search too.
 */
export function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog, [role="dialog"]') !== null;
}

/** Whether a key pressed at `target` is for the view's shortcuts: not typed into a field, not pressed in a dialog. */
export const isShortcutTarget = (target: EventTarget | null): boolean => !isTextEntry(target) && !inDialog(target);
