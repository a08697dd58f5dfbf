import { useToasts } from '../state/toasts.js';
import { AlertIcon, CheckIcon, InfoIcon, XIcon } from './icons.js';

export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : undefined}>
          {t.kind === 'success' ? (
            <CheckIcon size={16} />
          ) : t.kind === 'error' ? (
            <AlertIcon size={16} />
          ) : (
            <InfoIcon size={16} />
          )}
          <span>{t.message}</span>
          <button type="button" className="icon-button small" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            <XIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
