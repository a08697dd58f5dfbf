/**
 * A dialog whose body is one form: Cancel and the form's submit button in the footer (a
 * spinner while it saves), Enter submits.
 */
import type { ReactNode } from 'react';
import { Dialog, type DialogProps } from './Dialog.js';
import { Spinner } from './icons.js';

interface FormDialogProps extends Omit<DialogProps, 'footer'> {
  /** The form's id, so the footer's submit button (outside the form) belongs to it. */
  formId: string;
  formClassName: string;
  /** The submit button's text (it may change while busy). */
  submitLabel: ReactNode;
  onSubmit: () => void;
  /** Leave validation to onSubmit (its messages match the service's). */
  noValidate?: boolean;
  /** Shown below the form (an error of the whole form). */
  below?: ReactNode;
}

export function FormDialog({
  formId,
  formClassName,
  submitLabel,
  onSubmit,
  noValidate,
  below,
  children,
  ...dialog
}: FormDialogProps) {
  return (
    <Dialog
      {...dialog}
      footer={
        <>
          <button type="button" className="button" onClick={dialog.onClose} disabled={dialog.busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={dialog.busy}>
            {dialog.busy ? <Spinner size={14} /> : null}
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className={formClassName}
        noValidate={noValidate}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {below}
    </Dialog>
  );
}
