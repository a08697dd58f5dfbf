/**
 * The events of GET /api/events (Server-Sent Events), shared by the service that sends them
 * and the renderer that listens. See docs/api.md, "Events".
 */

/** `processing`: reading an uploaded file; `scoring`: scoring traits of the stored genotype. */
export type JobKind = 'processing' | 'scoring';

/**
 * `queued` (waiting for a worker), `running`, then one of `done`, `failed` (with `detail`)
 * or `superseded` (a newer upload or a profile deletion made the job moot).
 */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'superseded';

/** `event: job` */
export interface JobEvent {
  /** Unique per service run. */
  job_id: number;
  kind: JobKind;
  profile_id: string;
  state: JobState;
  /** While running: `parsing`, `scoring` or `storing`. */
  stage?: 'parsing' | 'scoring' | 'storing';
  /** While scoring: traits scored so far and in all. */
  done?: number;
  total?: number;
  /** When queued: how many jobs wait before this one. */
  queue_position?: number;
  /** When done: markers read (processing) or results stored (scoring). */
  snp_count?: number;
  computed?: number;
  unavailable?: number;
  /** When failed: what went wrong, for people. */
  detail?: string;
}

/** `event: traits`: the profile's stored results changed; read its trait list again. */
export interface TraitsEvent {
  profile_id: string;
}
