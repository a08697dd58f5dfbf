/**
 * The renderer's cache of what the service serves (TanStack Query): one key per thing —
 * the catalog, the profiles, and per profile its genotype, its result lists, each full
 * result, its findings and drug–gene results. What is cached stays fresh until the
 * service's events say it changed (state/service-events.ts): no refetch on a timer, on
 * focus or when a screen opens again. Requests for one key at the same moment share one.
 */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      // A failed read shows the service's sentence with "Try again"; asking again by itself
      // would only delay that answer.
      retry: false,
    },
  },
});

/** Every profile key starts with ['profile', id], so a deleted profile is forgotten at once. */
export const queryKeys = {
  catalog: ['catalog'] as const,
  profiles: ['profile-list'] as const,
  profile: (id: string) => ['profile', id] as const,
  genotype: (id: string) => ['profile', id, 'genotype'] as const,
  /** The two lists a profile's page is drawn from: statuses of every trait, and the scored results. */
  results: (id: string) => ['profile', id, 'results'] as const,
  /** Full results (markers, distribution) of a profile, under one prefix. */
  assessments: (id: string) => ['profile', id, 'assessment'] as const,
  assessment: (id: string, code: string) => ['profile', id, 'assessment', code] as const,
  /** A read-only resource of the genotype in use: findings, drug–gene results. */
  resource: (id: string, name: 'findings' | 'pharmacogenes') => ['profile', id, name] as const,
};

/** The message of a failed query, for people. */
export function errorText(error: Error | null): string | null {
  return error ? error.message : null;
}
