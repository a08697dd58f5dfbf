/**
 * A profile's read-only resource (findings, drug–gene results) fetched once per profile and
 * session and kept in a module cache, so the profile page and the report share one request.
 */
import { useEffect, useState } from 'react';

export function useProfileResource<T>(
  cache: Map<string, T>,
  fetchFor: (profileId: string) => Promise<T>,
  profileId: string,
  enabled = true,
): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(cache.get(profileId) ?? null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetchFor(profileId)
      .then((d) => {
        cache.set(profileId, d);
        if (live) setData(d);
      })
      .catch((err: Error) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [cache, fetchFor, profileId, enabled]);
  return { data, error };
}
