import { navigate } from '../state/router.js';

export function NotFound({ what }: { what: string }) {
  return (
    <main className="page empty-page">
      <h1>This {what} doesn’t exist</h1>
      <p className="muted">
        It may have been deleted. Choose a profile on the left, or start again from the home screen.
      </p>
      <button
        type="button"
        className="button button-primary"
        onClick={() => navigate({ name: 'home' }, { replace: true })}
      >
        Go to home
      </button>
    </main>
  );
}
