/** The question asked once per profile before any disease, cancer or psychiatric result is shown. */
import { usePreferences } from '../state/preferences.js';

export function SensitiveQuestion({ profileId, name }: { profileId: string; name: string }) {
  const setSensitive = usePreferences((s) => s.setSensitive);
  // The question goes away with the answer: focus moves on to the summary, never lost.
  const set = (id: string, choice: 'show' | 'hide') => {
    setSensitive(id, choice);
    requestAnimationFrame(() => document.getElementById('summary-title')?.focus());
  };
  return (
    <section className="card question-card" aria-labelledby="sensitive-title" data-testid="sensitive-question">
      <h2 id="sensitive-title">Show disease and cancer results?</h2>
      <p>
        {name}’s file can also be read for diseases, cancers and psychiatric conditions, including single variants such
        as APOE (Alzheimer’s disease) and Factor V Leiden (blood clots). Some people prefer not to know, or not yet.
        Until you choose, these results stay hidden.
      </p>
      <p className="muted small">
        You can change this later, in “Disease results” on this page. It is remembered for this profile on this
        computer.
      </p>
      <div className="question-actions">
        <button type="button" className="button button-primary" onClick={() => set(profileId, 'show')}>
          Show them
        </button>
        <button type="button" className="button" onClick={() => set(profileId, 'hide')}>
          Keep them hidden
        </button>
      </div>
    </section>
  );
}
