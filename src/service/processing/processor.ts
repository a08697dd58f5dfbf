/**
 * Decides which job runs next on the worker pool, and tells everyone how jobs go.
 *
 * - A profile runs one job at a time; a job never overtakes an earlier processing job of
 *   its profile, so nothing is scored on a genotype that is about to be replaced.
 * - Jobs people wait for (processing, traits a client asked for, imports) go before
 *   background scoring. At most `maxQueued` of them wait; more are refused (QueueFullError,
 *   503 with Retry-After), except processing of a file already received.
 * - Processing of the profile's current file runs once: a second call joins the job that
 *   is queued or running, or answers from the finished state.
 * - An upload is parsed while it arrives when a worker is free for it (receive()): the
 *   processing job starts with the upload, unseen until the file is recorded.
 * - After a file is processed, every other trait is scored in the background.
 * - Parses run side by side only while their expected memory fits the service's memory
 *   budget (memory-budget.ts); parses start in queue order, and one larger than the whole
 *   budget runs alone. A large parse, and then the scoring of what it stored, run in a process
 *   of their own, which gives all their memory back when it exits (engine-process.ts); one
 *   such process waits started ahead of need, so the job does not wait for it (pool.ts). A
 *   thread whose parse turned out large (a compressed upload) is replaced afterwards.
 */
import { availableParallelism } from 'node:os';
import type { Db } from '../db/db.js';
import { genotypeSummary, getGenotypeFile, setFileStatus } from '../genotype/genotype-store.js';
import { unpackedModuleUrl } from '../packaged-paths.js';
import { profileOwner } from '../profiles/profiles.js';
import { storedFilePath } from '../storage/file-store.js';
import type { EngineWorkerData } from './engine-worker.js';
import type { ImportOutcome, ImportRequest } from './import-job.js';
import { admission } from './admission.js';
import { jobEnd, jobFailure, type JobEventFields } from './job-end.js';
import { eventBus, type EventBus, type JobEvent, type JobKind } from './job-events.js';
import { nextJob, type Lane } from './job-order.js';
import { looksCompressed, memoryBudget, parseMemoryEstimate, storedGenotypeEstimate } from './memory-budget.js';
import { createWorkerPool, type WorkerPool } from './pool.js';
import type { ProcessStarter } from './engine-process.js';
import type { ProcessingOutcome } from './process-job.js';
import type { ScoringOutcome } from './score-job.js';
import type { JobFailed, Task, TaskOutcome } from './tasks.js';
import { uploadFeed, type UploadFeed } from './upload-feed.js';
import type { JobProgress } from './worker-context.js';

// The bundle's engine-worker.js beside this code (unpacked from app.asar in the desktop
// app); from TypeScript source (serve:dev) a development bootstrap outside the shipped
// sources loads engine-worker.ts through tsx.
const WORKER_URL = unpackedModuleUrl(
  import.meta.url.endsWith('.ts') ? '../../../scripts/dev/engine-worker.mjs' : './engine-worker.js',
  import.meta.url,
);

/** A job running longer than this is stopped and fails. */
const JOB_TIMEOUT_MS = 10 * 60 * 1000;
/** Each worker's heap: a pathological file fails its own job instead of the service. */
const WORKER_HEAP_MB = 768;

export interface Processor {
  /** Processes the profile's current file, or joins the processing of it that is queued, running or finished. */
  process: (profileId: string) => Promise<ProcessingOutcome>;
  /**
   * An upload of `size` bytes into `fileName` is starting: when a worker is free and the
   * profile has nothing running or waiting, processing starts now and follows the file as it
   * is written. Null otherwise (process() then reads it once recorded). The caller must end
   * the feed with recorded() or abandoned().
   */
  receive: (profileId: string, fileName: string, size: number) => UploadFeed | null;
  /** Scores traits a client asked for that have no stored outcome yet. May throw QueueFullError. */
  score: (profileId: string, codes: string[]) => Promise<ScoringOutcome | JobFailed>;
  /** Scores every trait again (what they are compared with changed). Never refused. */
  rescore: (profileId: string) => Promise<ScoringOutcome | JobFailed>;
  /** In the background: scores every trait without a current outcome (after processing, at start, after an import). */
  fillIn: (profileId: string) => Promise<ScoringOutcome | JobFailed>;
  /** Imports a PGS Catalog scoring file. May throw QueueFullError. */
  importTrait: (request: ImportRequest) => Promise<ImportOutcome | JobFailed>;
  /** True when new client jobs would be refused; check before receiving an upload. */
  isFull: () => boolean;
  /**
   * Holds a place in the queue for an upload whose job is queued once its body has arrived,
   * so uploads arriving together cannot all pass the check; call the returned function once
   * the job is queued (or the upload failed). May throw QueueFullError.
   */
  admit: () => () => void;
  retryAfterSeconds: () => number;
  /** Job and results events, for the events route. */
  readonly events: Pick<EventBus, 'subscribe'>;
  /** The latest event of every job not yet finished (what a client that connects now has missed). */
  activeJobs: () => Array<{ clientId: string; data: JobEvent }>;
  stats: () => {
    workers: number;
    ready: number;
    busy: number;
    replaced: number;
    /** Workers replaced after a large parse, to give its memory back. */
    recycled: number;
    /** Parses run in a process of their own (large files), so that all their memory went back. */
    processes: number;
    /** Of those, how many had been started ahead of need (the spare), and whether one waits now. */
    spares: number;
    spare_ready: boolean;
    queued: number;
    background: number;
    /** The memory budget for parses, and the expected memory of the parses running. */
    memory_budget_mib: number;
    parse_memory_mib: number;
  };
  /** Refuses new jobs, lets running ones finish, and stops the workers. */
  close: () => Promise<void>;
}

export interface ProcessorOptions {
  db: Db;
  worker: EngineWorkerData;
  /** Worker threads; default: one per core, leaving one for the event loop (at least 1, at most 4). */
  workers?: number;
  /** Jobs people wait for that may wait for a worker before new ones are refused (0: only when a worker is free). */
  maxQueued?: number;
  /** Whether receive() starts processing with the upload (default true). */
  parseWhileReceiving?: boolean;
  /** Expected memory of the parses that may run at once (default 1 GiB, memory-budget.ts). */
  memoryBudgetBytes?: number;
  /**
   * Whether large jobs may run in a process of their own (engine-process.ts). Default: yes,
   * except inside Electron without `startProcess` (its packaged build may not run its
   * executable as Node: the runAsNode fuse, electron-builder.yml); there a large parse's
   * thread is replaced instead.
   */
  ownProcesses?: boolean;
  /**
   * Starts those processes: the desktop app passes one built on Electron's utilityProcess
   * (src/main/engine-process-starter.ts), and large jobs then run in processes there too.
   * Default: child_process.fork of the executable running the service (engine-process.ts).
   */
  startProcess?: ProcessStarter;
  /**
   * Whether one such process is kept started ahead of need, its engine loaded, for the next
   * large job (default true where they are used): the job does not wait for it to start.
   */
  spareProcess?: boolean;
}

interface Job {
  id: number;
  kind: JobKind | 'import';
  profileId: string | null;
  clientId: string | null;
  lane: Lane;
  task: Task;
  /** What this job is, for joining: the file it processes, or the kind of scoring. */
  key: string;
  running: boolean;
  /** Not announced yet: a processing job that started with an upload not yet recorded. */
  unseen: boolean;
  /** An unseen job's progress so far, announced with it. */
  unseenProgress: JobProgress[];
  last: JobEvent | null;
  waiters: Array<(outcome: TaskOutcome) => void>;
  startedAt: number;
  /** A parse's expected memory, held from the budget while it runs (0: not a parse). */
  memory: number;
}

const SUPERSEDED = { kind: 'superseded' } as const;
const MIB = 1024 * 1024;

/** One worker per core, leaving one core for the event loop: at least 1, at most 4 (each holds an engine, ~60 MB). */
function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export function createProcessor(options: ProcessorOptions): Processor {
  const { db } = options;
  const maxQueued = options.maxQueued ?? 32;
  const bus = eventBus();
  const queue: Job[] = [];
  const running = new Map<number, Job>();
  const busyProfiles = new Set<string>();
  const budget = memoryBudget(options.memoryBudgetBytes);
  const ownProcesses = options.ownProcesses ?? (!process.versions.electron || options.startProcess !== undefined);
  let nextId = 1;
  let closed = false;

  const pool: WorkerPool = createWorkerPool({
    size: options.workers ?? defaultWorkerCount(),
    workerUrl: WORKER_URL,
    workerData: options.worker,
    taskTimeoutMs: JOB_TIMEOUT_MS,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    onIdle: dispatch,
    spareProcess: ownProcesses && (options.spareProcess ?? false),
    startProcess: options.startProcess,
  });

  const queuedInteractive = () => queue.filter((j) => j.lane === 'interactive').length;
  const admissions = admission(maxQueued, {
    queued: queuedInteractive,
    running: () => running.size,
    idleWorkers: () => pool.idleCount(),
    workers: pool.size,
    closed: () => closed,
  });

  function publish(job: Job, event: JobEventFields): void {
    if (job.kind === 'import' || !job.profileId || !job.clientId || job.unseen) return;
    job.last = { job_id: job.id, kind: job.kind, profile_id: job.profileId, ...event };
    bus.emit({ type: 'job', clientId: job.clientId, data: job.last });
  }

  function traitsChanged(job: Job): void {
    if (job.profileId && job.clientId)
      bus.emit({ type: 'traits', clientId: job.clientId, data: { profile_id: job.profileId } });
  }

  function newJob(fields: Pick<Job, 'kind' | 'profileId' | 'lane' | 'task' | 'key'>): Job {
    return {
      ...fields,
      id: nextId++,
      clientId: fields.profileId ? (profileOwner(db, fields.profileId)?.clientId ?? null) : null,
      running: false,
      unseen: false,
      unseenProgress: [],
      last: null,
      waiters: [],
      startedAt: 0,
      memory: 0,
    };
  }

  function enqueue(fields: Pick<Job, 'kind' | 'profileId' | 'lane' | 'task' | 'key'>): Job {
    const job = newJob(fields);
    queue.push(job);
    publish(job, { state: 'queued', queue_position: queue.length - 1 });
    queueMicrotask(dispatch);
    return job;
  }

  function wait<T extends TaskOutcome>(job: Job): Promise<T> {
    return new Promise((resolve) => job.waiters.push(resolve as (o: TaskOutcome) => void));
  }

  /** The expected memory of a queued processing job's parse, from its stored file (0 for other jobs). */
  function parseMemory(job: Job): number {
    if (job.task.kind !== 'process') return 0;
    const file = getGenotypeFile(db, job.profileId!);
    if (!file || file.file_name !== job.task.fileName) return 0; // superseded: its job ends at once
    return parseMemoryEstimate(file.size, looksCompressed(storedFilePath(options.worker.dataDir, file.file_name)));
  }

  function dispatch(): void {
    while (!closed && pool.idleCount() > 0) {
      const next = nextJob(queue, busyProfiles, parseMemory, budget.fits);
      if (!next) return;
      const [job] = queue.splice(next.index, 1);
      start(job, next.memory);
    }
  }

  /**
   * Whether a scoring job's genotype is as large as a parse that runs in a process of its
   * own: loading and decoding it would leave the same unreturned memory in this process.
   */
  function scoresLargeGenotype(job: Job): boolean {
    if (job.task.kind !== 'score' || !job.profileId) return false;
    const markers = genotypeSummary(db, job.profileId)?.summary.snp_count ?? 0;
    return storedGenotypeEstimate(markers) > budget.ownProcessAbove;
  }

  /**
   * `ownProcess`: a job large enough to run in a process of its own (memory-budget.ts): by
   * default a parse expected above that size, or scoring of a genotype that large.
   */
  function start(
    job: Job,
    memory: number,
    ownProcess = memory > budget.ownProcessAbove || scoresLargeGenotype(job),
  ): void {
    job.memory = memory;
    budget.take(memory);
    job.running = true;
    job.startedAt = performance.now();
    running.set(job.id, job);
    if (job.profileId) busyProfiles.add(job.profileId);
    publish(job, { state: 'running' });
    const transfer = job.task.kind === 'import' ? [job.task.bytes.buffer as ArrayBuffer] : [];
    void pool
      .run<TaskOutcome>(
        job.task,
        transfer,
        (progress) => {
          if (job.unseen) job.unseenProgress.push(progress as JobProgress);
          publish(job, { state: 'running', ...(progress as JobProgress) });
        },
        { ownProcess: ownProcess && ownProcesses },
      )
      .then((outcome) => outcome, jobFailure)
      .then((outcome) => finish(job, outcome));
    // A WebAssembly memory cannot shrink: a worker that parsed a large file is replaced after it.
    if (memory > budget.recycleAbove) pool.retireAfter(job.task);
  }

  /** An upload parsed while it arrived is recorded: its estimate follows from the stored file now. */
  function reestimate(job: Job): void {
    const memory = parseMemory(job);
    if (!job.running || memory === 0 || memory === job.memory) return;
    budget.change(job.memory, memory);
    job.memory = memory;
    pool.retireAfter(job.task, memory > budget.recycleAbove);
    dispatch();
  }

  function finish(job: Job, outcome: TaskOutcome): void {
    running.delete(job.id);
    budget.give(job.memory);
    if (job.profileId) busyProfiles.delete(job.profileId);
    if (job.lane === 'interactive') admissions.jobTook(performance.now() - job.startedAt);
    // The worker records parse failures itself; this also covers crashes and time-outs.
    if (job.kind === 'processing' && outcome.kind === 'failed' && job.task.kind === 'process')
      setFileStatus(db, job.profileId!, 'failed', outcome.reason, job.task.fileName);
    const end = jobEnd(job.kind, outcome);
    if (end.event) publish(job, end.event);
    if (end.traitsChanged) traitsChanged(job);
    // A processed file: every other trait is scored in the background.
    if (job.kind === 'processing' && outcome.kind === 'processed' && !closed) void fillIn(job.profileId!);
    for (const resolve of job.waiters) resolve(outcome);
    dispatch();
  }

  /** Drops queued background jobs of a profile (a new file makes them moot). */
  function dropBackground(profileId: string): void {
    for (let i = queue.length - 1; i >= 0; i--) {
      const job = queue[i];
      if (job.profileId !== profileId || job.kind !== 'scoring' || job.lane !== 'background') continue;
      queue.splice(i, 1);
      publish(job, { state: 'superseded' });
      for (const resolve of job.waiters) resolve(SUPERSEDED);
    }
  }

  function findJob(profileId: string, key: string, queuedOnly: boolean): Job | undefined {
    const match = (j: Job) => j.profileId === profileId && j.key === key;
    return queue.find(match) ?? (queuedOnly ? undefined : [...running.values()].find(match));
  }

  function fillIn(profileId: string): Promise<ScoringOutcome | JobFailed> {
    if (closed) return Promise.resolve(SUPERSEDED);
    const job =
      findJob(profileId, 'fill-in', true) ??
      enqueue({
        kind: 'scoring',
        profileId,
        lane: 'background',
        key: 'fill-in',
        task: { kind: 'score', profileId, codes: null, onlyMissing: true },
      });
    return wait(job);
  }

  return {
    process(profileId) {
      const file = getGenotypeFile(db, profileId);
      if (closed || !file) return Promise.resolve(SUPERSEDED);
      const key = `file:${file.file_name}`;
      const current = findJob(profileId, key, false);
      if (current) return wait(current);
      if (file.status === 'processed') {
        const inUse = genotypeSummary(db, profileId);
        if (inUse) return Promise.resolve({ kind: 'processed', snpCount: inUse.summary.snp_count });
      }
      if (file.status === 'failed')
        return Promise.resolve({ kind: 'failed', reason: file.error ?? 'The file could not be read.' });
      // A queued job for an older file of this profile now processes the newest one instead.
      const older = queue.find((j) => j.profileId === profileId && j.kind === 'processing');
      if (older && older.task.kind === 'process') {
        older.task.fileName = file.file_name;
        older.key = key;
        return wait(older);
      }
      dropBackground(profileId);
      return wait(
        enqueue({
          kind: 'processing',
          profileId,
          lane: 'interactive',
          key,
          task: { kind: 'process', profileId, fileName: file.file_name },
        }),
      );
    },
    score(profileId, codes) {
      admissions.refuseWhenFull();
      return wait(
        enqueue({
          kind: 'scoring',
          profileId,
          lane: 'interactive',
          key: 'requested',
          task: { kind: 'score', profileId, codes, onlyMissing: true },
        }),
      );
    },
    rescore(profileId) {
      if (closed) return Promise.resolve(SUPERSEDED);
      const job =
        findJob(profileId, 'rescore', true) ??
        enqueue({
          kind: 'scoring',
          profileId,
          lane: 'interactive',
          key: 'rescore',
          task: { kind: 'score', profileId, codes: null, onlyMissing: false },
        });
      return wait(job);
    },
    receive(profileId, fileName, size) {
      // Its first bytes are not here yet: it is taken to be compressed (the estimate errs high).
      const memory = parseMemoryEstimate(size, true);
      const ready =
        options.parseWhileReceiving !== false &&
        !closed &&
        pool.idleCount() > 0 &&
        !busyProfiles.has(profileId) &&
        budget.fits(memory) &&
        !queue.some((j) => j.kind === 'processing');
      if (!ready || queue.some((j) => j.profileId === profileId)) return null;
      const job = newJob({
        kind: 'processing',
        profileId,
        lane: 'interactive',
        key: `file:${fileName}`,
        task: { kind: 'process', profileId, fileName, arriving: { size } },
      });
      job.unseen = true;
      // Its own process only when the file is large even as plain text: the estimate above
      // takes a chip file of a few tens of MB for a compressed one until it is recorded.
      start(job, memory, parseMemoryEstimate(size, false) > budget.ownProcessAbove);
      return uploadFeed(job, {
        tell: (signal) => pool.tell(job.task, signal),
        reestimate: () => reestimate(job),
        publish: (event) => publish(job, event),
      });
    },
    fillIn,
    importTrait(request) {
      admissions.refuseWhenFull();
      // The bytes move to the worker (transferred, not copied); a view into a shared or pooled
      // buffer is copied first, so nothing else loses its memory.
      const whole = request.bytes.byteOffset === 0 && request.bytes.byteLength === request.bytes.buffer.byteLength;
      const bytes =
        whole && request.bytes.buffer instanceof ArrayBuffer ? request.bytes : new Uint8Array(request.bytes);
      return wait(
        enqueue({
          kind: 'import',
          profileId: null,
          lane: 'interactive',
          key: 'import',
          task: { kind: 'import', ...request, bytes },
        }),
      );
    },
    isFull: admissions.isFull,
    admit: admissions.admit,
    retryAfterSeconds: admissions.retryAfterSeconds,
    events: bus,
    activeJobs: () =>
      [...running.values(), ...queue].flatMap((j) =>
        j.last && j.clientId ? [{ clientId: j.clientId, data: j.last }] : [],
      ),
    stats: () => {
      const s = pool.stats();
      return {
        workers: s.size,
        ready: s.ready,
        busy: s.busy,
        replaced: s.replaced,
        recycled: s.recycled,
        processes: s.processes,
        spares: s.spares,
        spare_ready: s.spareReady,
        queued: queuedInteractive(),
        background: queue.length - queuedInteractive(),
        memory_budget_mib: Math.round(budget.limit / MIB),
        parse_memory_mib: Math.round(budget.reserved() / MIB),
      };
    },
    async close() {
      closed = true;
      // Queued work is not started: files stay "uploaded" and are processed at the next start.
      for (const job of queue.splice(0)) for (const resolve of job.waiters) resolve(SUPERSEDED);
      await Promise.all([...running.values()].map((j) => new Promise((r) => j.waiters.push(r))));
      await pool.close();
    },
  };
}
