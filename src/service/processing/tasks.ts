/**
 * The tasks an engine worker runs, as the messages the service sends it, and the one
 * function that runs them.
 */
import type { ArrivingFile } from './arriving-file.js';
import { importScore, type ImportOutcome, type ImportRequest } from './import-job.js';
import { processFile, type ProcessingOutcome } from './process-job.js';
import { scoreTraits, type ScoringOutcome, type ScoringRequest } from './score-job.js';
import type { WorkerContext } from './worker-context.js';

export type Task =
  /** `arriving`: the upload is still being received, `size` bytes long (arriving-file.ts). */
  | { kind: 'process'; profileId: string; fileName: string; arriving?: { size: number } }
  | ({ kind: 'score' } & ScoringRequest)
  | ({ kind: 'import' } & ImportRequest);

/** A job that could not finish: its worker crashed or timed out, or the task threw. */
export type JobFailed = { kind: 'failed'; reason: string };

export type TaskOutcome = ProcessingOutcome | ScoringOutcome | ImportOutcome | JobFailed;

export async function runTask(ctx: WorkerContext, task: Task, arriving?: ArrivingFile): Promise<TaskOutcome> {
  switch (task.kind) {
    case 'process':
      return processFile(ctx, task.profileId, task.fileName, arriving);
    case 'score':
      return scoreTraits(ctx, task);
    case 'import':
      return importScore(ctx, task);
  }
}
