/**
 * Settings → API access → Browser access: the web origins whose pages may call the API
 * (CORS). Empty by default; origins fixed for this run (TRAITSCOPE_CORS_ORIGINS,
 * `serve --cors-origin`) are shown but not editable here.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { CorsSettings } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { PlusIcon, TrashIcon } from './icons.js';

export function CorsOrigins() {
  const [settings, setSettings] = useState<CorsSettings | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.corsSettings().then(setSettings, (err: Error) => setError(err.message));
  }, []);

  const save = async (origins: string[]) => {
    setBusy(true);
    try {
      setSettings(await api.saveCorsSettings(origins));
      setError(null);
      return true;
    } catch (err) {
      setError((err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim() && settings && (await save([...settings.origins, draft.trim()]))) setDraft('');
  };

  return (
    <div data-testid="cors-origins">
      <h3 className="subheading">Browser access</h3>
      <p className="muted">
        Web pages may call the API only from the origins listed here (for example a notebook at{' '}
        <code>http://localhost:8888</code>). They still need a client’s credentials.
      </p>
      {settings ? (
        <ul className="cors-list">
          {settings.fixed.map((o) => (
            <li key={`fixed-${o}`}>
              <code>{o}</code> <span className="muted">(set when the service was started)</span>
            </li>
          ))}
          {settings.origins.map((o) => (
            <li key={o}>
              <code>{o}</code>
              <button
                type="button"
                className="icon-button small danger"
                aria-label={`Remove ${o}`}
                disabled={busy}
                onClick={() => void save(settings.origins.filter((x) => x !== o))}
              >
                <TrashIcon size={14} />
              </button>
            </li>
          ))}
          {settings.fixed.length + settings.origins.length === 0 ? (
            <li className="muted">No origins: no web page can call the API.</li>
          ) : null}
        </ul>
      ) : null}
      <form className="cors-add" onSubmit={(e) => void add(e)}>
        <label className="field">
          <span className="field-label">Allow an origin</span>
          <input
            className="input"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="http://localhost:3000"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? 'true' : undefined}
          />
        </label>
        <button type="submit" className="button" disabled={busy || !draft.trim() || !settings}>
          <PlusIcon size={16} /> Allow
        </button>
      </form>
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
