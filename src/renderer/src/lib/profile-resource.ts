/**
 * A profile's read-only resource (findings, drug–gene results), read once per genotype
 * through the query cache, so the profile page and the report share one request; a new
 * genotype or a changed reference reads it again (state/service-events.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { errorText, queryKeys } from '../state/query-client.js';

export function useProfileResource<T>(
  name: 'findings' | 'pharmacogenes',
  fetchFor: (profileId: string) => Promise<T>,
  profileId: string,
  enabled = true,
): { data: T | null; error: string | null } {
  const { data, error } = useQuery({
    queryKey: queryKeys.resource(profileId, name),
    queryFn: () => fetchFor(profileId),
    enabled,
  });
  return { data: data ?? null, error: errorText(error) };
}
