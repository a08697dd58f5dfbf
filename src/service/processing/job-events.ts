/**
 * What the processor tells the rest of the service as jobs go: a job's state and progress,
 * and that a profile's stored results changed. The events route pushes these to clients
 * (Server-Sent Events); each event names the client that owns the profile, so a client only
 * ever hears about its own profiles.
 */
import type { JobEvent } from '../../shared/events.js';

export type { JobEvent, JobKind } from '../../shared/events.js';

export type ServiceEvent =
  | { type: 'job'; clientId: string; data: JobEvent }
  | { type: 'traits'; clientId: string; data: { profile_id: string } };

export interface EventBus {
  emit: (event: ServiceEvent) => void;
  /** Calls the listener with every event from now on; returns the function that stops it. */
  subscribe: (listener: (event: ServiceEvent) => void) => () => void;
}

export function eventBus(): EventBus {
  const listeners = new Set<(event: ServiceEvent) => void>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (err) {
          console.error('[traitscope] event listener failed:', err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
