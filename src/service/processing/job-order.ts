/**
 * Which queued job starts next on a free worker (processor.ts):
 * - a profile runs one job at a time, and no job overtakes an earlier processing job of its
 *   profile (nothing is scored on a genotype about to be replaced);
 * - jobs people wait for (the interactive lane) before background scoring;
 * - parses start in queue order and only while their expected memory fits the budget: once
 *   one must wait, later ones wait too, so none starves.
 */
export type Lane = 'interactive' | 'background';

/** What the order needs to know of a queued job. */
export interface QueuedJob {
  profileId: string | null;
  kind: string;
  lane: Lane;
}

/** May the job at `index` start now? Not while its profile runs a job or has an earlier processing job waiting. */
export function runnable(queue: readonly QueuedJob[], index: number, busyProfiles: ReadonlySet<string>): boolean {
  const profileId = queue[index].profileId;
  if (!profileId) return true;
  if (busyProfiles.has(profileId)) return false;
  for (let i = 0; i < index; i++) if (queue[i].profileId === profileId && queue[i].kind === 'processing') return false;
  return true;
}

/**
 * The queued job to start next and the parse memory it takes from the budget (0 for jobs
 * that are not parses), or null when none may start. `parseMemory` estimates a processing
 * job's parse; `fits` says whether that much fits the budget now.
 */
export function nextJob<J extends QueuedJob>(
  queue: readonly J[],
  busyProfiles: ReadonlySet<string>,
  parseMemory: (job: J) => number,
  fits: (bytes: number) => boolean,
): { index: number; memory: number } | null {
  let parseWaits = false;
  let memory = 0;
  const startable = (job: J, index: number): boolean => {
    if (!runnable(queue, index, busyProfiles)) return false;
    if (job.kind !== 'processing') return true;
    if (parseWaits) return false;
    memory = parseMemory(job);
    parseWaits = !fits(memory);
    return !parseWaits;
  };
  for (const lane of ['interactive', 'background'] as const) {
    const index = queue.findIndex((job, i) => job.lane === lane && startable(job, i));
    if (index >= 0) return { index, memory: queue[index].kind === 'processing' ? memory : 0 };
  }
  return null;
}
