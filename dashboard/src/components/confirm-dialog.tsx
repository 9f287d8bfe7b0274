// A modal question before an action that cannot be undone: the browser's <dialog>, which keeps focus
// inside and closes on Escape.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly children: ComponentChildren;
  /** The confirming button's name, e.g. "Revoke key". */
  readonly confirmLabel: string;
  /** The button that backs out: "Cancel" unless that would read as the action itself. */
  readonly dismissLabel?: string;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancel",
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={onCancel} class="confirm">
      <h2 id="confirm-title">{title}</h2>
      {children}
      <div class="actions">
        <button type="button" onClick={onCancel}>
          {dismissLabel}
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
