/** "Are you sure?" for actions that lose data; serious ones make the user type a word. */
import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.js';
import { Spinner } from './icons.js';

export interface ConfirmDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  tone?: 'default' | 'danger';
  /** When set, the confirm button stays disabled until this exact word is typed. */
  typeToConfirm?: string;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
  /** Extra buttons between Cancel and confirm (e.g. "Create a new profile instead"). */
  extra?: ReactNode;
  testId?: string;
}

export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  tone = 'danger',
  typeToConfirm,
  onConfirm,
  onClose,
  extra,
  testId,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = !typeToConfirm || typed.trim() === typeToConfirm;

  const confirm = async () => {
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={title}
      description={description}
      onClose={onClose}
      size="small"
      tone={tone}
      busy={busy}
      testId={testId}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          {extra}
          <button
            type="button"
            className={`button ${tone === 'danger' ? 'button-danger' : 'button-primary'}`}
            onClick={() => void confirm()}
            disabled={!ready || busy}
            data-autofocus={tone !== 'danger' && !typeToConfirm ? true : undefined}
          >
            {busy ? <Spinner size={14} /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        {typeToConfirm ? (
          <label className="field">
            <span className="field-label">
              Type <strong className="mono">{typeToConfirm}</strong> to confirm
            </span>
            <input
              className="input"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
