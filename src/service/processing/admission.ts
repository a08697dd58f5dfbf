/**
 * How many jobs people wait for may wait for a worker (processor.ts): at most `maxQueued`
 * beyond those a free worker takes at once; more are refused with QueueFullError (503 with
 * Retry-After, estimated from recent jobs' times). Uploads hold a place from their check
 * until their job is queued (admit), so uploads arriving together cannot all pass the check.
 */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Traitscope is busy with other jobs. Try again in ${retryAfterSeconds} s.`);
  }
}

export interface AdmissionState {
  /** Jobs people wait for that are queued now. */
  queued: () => number;
  running: () => number;
  idleWorkers: () => number;
  workers: number;
  closed: () => boolean;
}

export interface Admission {
  /** Would one more job people wait for have to wait beyond the bound? (An idle worker takes it at once.) */
  isFull: () => boolean;
  /** Throws QueueFullError when full. */
  refuseWhenFull: () => void;
  /** Holds a place until the returned function is called (once the job is queued, or the upload failed). */
  admit: () => () => void;
  retryAfterSeconds: () => number;
  /** A job people waited for took `ms`: the Retry-After estimate follows recent jobs. */
  jobTook: (ms: number) => void;
}

export function admission(maxQueued: number, state: AdmissionState): Admission {
  /** Uploads let in by admit() whose job is not queued yet. */
  let admitted = 0;
  let averageJobMs = 500;
  const isFull = () => state.closed() || state.queued() + admitted + (state.idleWorkers() > 0 ? 0 : 1) > maxQueued;
  const retryAfterSeconds = () =>
    Math.max(1, Math.ceil(((state.queued() + state.running()) * averageJobMs) / 1000 / state.workers));
  const refuseWhenFull = () => {
    if (isFull()) throw new QueueFullError(retryAfterSeconds());
  };
  return {
    isFull,
    refuseWhenFull,
    admit() {
      refuseWhenFull();
      admitted++;
      let held = true;
      return () => {
        if (held) admitted--;
        held = false;
      };
    },
    retryAfterSeconds,
    jobTook(ms) {
      averageJobMs = 0.8 * averageJobMs + 0.2 * ms;
    },
  };
}
