/**
 * Modal dialog on the native <dialog> element: it traps focus, closes on Escape, makes the
 * rest of the page inert for screen readers, and returns focus where it was.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { XIcon } from './icons.js';

export interface DialogProps {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  tone?: 'default' | 'danger';
  /** Keeps the dialog open on Escape / backdrop (e.g. while saving). */
  busy?: boolean;
  testId?: string;
}

export function Dialog({
  title,
  description,
  onClose,
  children,
  footer,
  size = 'medium',
  tone = 'default',
  busy,
  testId,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  // Latest values for the native listeners registered once.
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    if (!el.open) el.showModal();
    // The first field (or the marked control, else the first footer button) gets focus,
    // never the close button: Enter must not close a form, and typing must go somewhere.
    const first =
      el.querySelector<HTMLElement>('[data-autofocus]') ??
      el.querySelector<HTMLElement>('.dialog-content :is(input:not([type=hidden]), select, textarea):not(:disabled)') ??
      el.querySelector<HTMLElement>('.dialog-footer button:not(:disabled)');
    first?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (!busyRef.current) closeRef.current();
    };
    el.addEventListener('cancel', onCancel);
    return () => {
      el.removeEventListener('cancel', onCancel);
      if (el.open) el.close();
      previouslyFocused?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size} ${tone === 'danger' ? 'dialog-danger' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      data-testid={testId}
      onMouseDown={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === ref.current && !busyRef.current) onClose();
      }}
    >
      <div className="dialog-body">
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={busy}>
            <XIcon />
          </button>
        </header>
        {description ? (
          <div id={descId} className="dialog-description">
            {description}
          </div>
        ) : null}
        <div className="dialog-content">{children}</div>
        {footer ? <footer className="dialog-footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
