/**
 * The one listener of the service's events (api/events.ts) for the cached data: each event
 * marks what it changed as stale, and what a screen shows is read again once. Processing
 * of a file changes the profile's genotype (and with it everything read from it), `traits`
 * says the stored results changed, and the scoring `job` events carry the progress of the
 * background scoring shown as "Computing N of M".
 */
import { subscribeEvents, type ServiceEvent } from '../api/events.js';
import { markStep } from '../lib/timeline.js';
import { queryClient, queryKeys } from './query-client.js';
import { useScoring } from './traits.js';

/** The stream opened before: a later `ready` is a reconnection, after which events may have been missed. */
let connectedBefore = false;

function onServiceEvent(event: ServiceEvent): void {
  if (event.type === 'ready') {
    if (connectedBefore) {
      // Whatever happened while the stream was down: read again what is shown; the lists'
      // entity tags make an unchanged one cost a 304.
      useScoring.setState({ progress: {} });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    }
    connectedBefore = true;
    return;
  }
  if (event.type === 'traits') {
    const id = event.data.profile_id;
    void queryClient.invalidateQueries({ queryKey: queryKeys.results(id) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.assessments(id) });
    return;
  }
  const job = event.data;
  const id = job.profile_id;
  if (job.kind === 'processing') {
    if (job.state === 'queued') {
      // A new file: the genotype reads "processing" until it ends.
      void queryClient.invalidateQueries({ queryKey: queryKeys.genotype(id), refetchType: 'all' });
    } else if (job.state !== 'running') {
      // Ended: a new genotype is in use (or the file failed); everything read from the old one is stale.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.profile(id),
        predicate: (query) => query.queryKey[2] !== 'genotype',
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.genotype(id), refetchType: 'all' });
    }
    return;
  }
  // Scoring, from the moment it is queued: the worker reads the genotype before it reports a total.
  const before = useScoring.getState().progress[id];
  if (job.state === 'queued' || job.state === 'running')
    useScoring.getState().set(id, { done: job.done ?? before?.done ?? 0, total: job.total ?? before?.total ?? 0 });
  else {
    if (job.state === 'done') markStep('scored', id);
    useScoring.getState().set(id, undefined);
  }
}

/** Starts following the service's events; called once when the app starts. */
export function followServiceEvents(): void {
  subscribeEvents(onServiceEvent);
}
