/**
 * Reading the profile's file again at the person's answer (how its sites are read, whose
 * sample it is): the request, then the genotype's metadata read back, with what the person
 * sees meanwhile and if it fails.
 */
import { useState } from 'react';
import { readGenotype } from '../state/profiles.js';

interface ReadAgainState {
  busy: boolean;
  error: string | null;
}

/** `run(request)`: sends the request that reads the file again, then reads the genotype's metadata back. */
export function useReadAgain(profileId: string): {
  state: ReadAgainState;
  run: (request: () => Promise<unknown>) => Promise<void>;
} {
  const [state, setState] = useState<ReadAgainState>({ busy: false, error: null });
  const run = async (request: () => Promise<unknown>) => {
    setState({ busy: true, error: null });
    try {
      await request();
      await readGenotype(profileId);
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: (err as Error).message });
    }
  };
  return { state, run };
}

export function ReadAgainStatus({ state }: { state: ReadAgainState }) {
  return (
    <>
      {state.busy ? (
        <p className="muted small" role="status">
          Reading the file again…
        </p>
      ) : null}
      {state.error ? (
        <p className="inline-warning" role="alert">
          The file could not be read again: {state.error}
        </p>
      ) : null}
    </>
  );
}
