/**
 * The processor's stages on their own (src/service/processing/): which queued job starts
 * next (job-order.ts), what a job's end tells clients (job-end.ts), how many jobs may wait
 * before requests are refused (admission.ts), and what an upload tells the job that parses
 * it while it arrives (upload-feed.ts). The processor with real workers is
 * tested through the service (memory-budget, upload, upload-arriving, events).
 */
import { describe, expect, it } from 'vitest';
import { admission, QueueFullError } from '../../src/service/processing/admission.js';
import { jobEnd, jobFailure } from '../../src/service/processing/job-end.js';
import { nextJob, runnable, type QueuedJob } from '../../src/service/processing/job-order.js';
import { TaskFailedError } from '../../src/service/processing/pool.js';
import { uploadFeed, type ArrivingJob } from '../../src/service/processing/upload-feed.js';

const job = (profileId: string | null, kind: string, lane: QueuedJob['lane'] = 'interactive', memory = 0) => ({
  profileId,
  kind,
  lane,
  memory,
});
const memoryOf = (j: { memory: number }) => j.memory;
const always = () => true;

describe('job order', () => {
  it('keeps a profile to one job at a time and behind its earlier processing job', () => {
    const queue = [job('a', 'processing'), job('a', 'scoring'), job('b', 'scoring'), job(null, 'import')];
    expect(runnable(queue, 0, new Set())).toBe(true);
    expect(runnable(queue, 1, new Set())).toBe(false); // behind a's processing
    expect(runnable(queue, 2, new Set(['b']))).toBe(false); // b runs a job
    expect(runnable(queue, 3, new Set(['a', 'b']))).toBe(true); // no profile
    expect(nextJob(queue, new Set(['a']), memoryOf, always)).toEqual({ index: 2, memory: 0 });
  });

  it('starts jobs people wait for before background scoring', () => {
    const queue = [job('a', 'scoring', 'background'), job('b', 'scoring', 'interactive')];
    expect(nextJob(queue, new Set(), memoryOf, always)?.index).toBe(1);
    expect(nextJob(queue, new Set(['b']), memoryOf, always)?.index).toBe(0);
    expect(nextJob(queue, new Set(['a', 'b']), memoryOf, always)).toBeNull();
  });

  it('starts parses in queue order while their memory fits, and hands the parse its memory', () => {
    const queue = [job('a', 'processing', 'interactive', 600), job('b', 'processing', 'interactive', 100)];
    const fitsUnder = (limit: number) => (bytes: number) => bytes <= limit;
    expect(nextJob(queue, new Set(), memoryOf, fitsUnder(1000))).toEqual({ index: 0, memory: 600 });
    // The first parse must wait for memory: the later, smaller one waits too (none starves).
    expect(nextJob(queue, new Set(), memoryOf, fitsUnder(500))).toBeNull();
    // Scoring is not held back by a waiting parse.
    const withScoring = [...queue, job('c', 'scoring')];
    expect(nextJob(withScoring, new Set(), memoryOf, fitsUnder(500))).toEqual({ index: 2, memory: 0 });
  });
});

describe('what a job end tells clients', () => {
  it('a processed file: done with its markers, and the results changed', () => {
    expect(jobEnd('processing', { kind: 'processed', snpCount: 960_000 })).toEqual({
      event: { state: 'done', snp_count: 960_000 },
      traitsChanged: true,
    });
  });

  it('scoring: done with its counts; the results changed only when something was stored or removed', () => {
    expect(jobEnd('scoring', { kind: 'scored', computed: 3, unavailable: 1 })).toEqual({
      event: { state: 'done', computed: 3, unavailable: 1 },
      traitsChanged: true,
    });
    expect(jobEnd('scoring', { kind: 'scored', computed: 0, unavailable: 0 }).traitsChanged).toBe(false);
    expect(jobEnd('scoring', { kind: 'scored', computed: 0, unavailable: 0, removed: 2 }).traitsChanged).toBe(true);
  });

  it('failed with the reason, superseded, and nothing announced for imports', () => {
    expect(jobEnd('processing', { kind: 'failed', reason: 'Not a genotype file.' })).toEqual({
      event: { state: 'failed', detail: 'Not a genotype file.' },
      traitsChanged: false,
    });
    expect(jobEnd('scoring', { kind: 'superseded' })).toEqual({
      event: { state: 'superseded' },
      traitsChanged: false,
    });
    expect(jobEnd('import', { kind: 'failed', reason: 'x' })).toEqual({ event: null, traitsChanged: false });
  });

  it("a worker's failure keeps the pool's sentence; anything else asks for a report", () => {
    expect(jobFailure(new TaskFailedError('The job took longer than 10 minutes and was stopped.'))).toEqual({
      kind: 'failed',
      reason: 'The job took longer than 10 minutes and was stopped.',
    });
    expect(jobFailure(new Error('boom')).reason).toMatch(/could not finish this job \(boom\)\. Please report this/);
  });
});

describe('admission', () => {
  const state = (queued: number, idle: number) => ({
    queued: () => queued,
    running: () => 2,
    idleWorkers: () => idle,
    workers: 2,
    closed: () => false,
  });

  it('lets a job in while a worker is free or the queue has room, and refuses with a Retry-After beyond', () => {
    expect(admission(0, state(0, 1)).isFull()).toBe(false); // a free worker takes it at once
    expect(admission(0, state(0, 0)).isFull()).toBe(true);
    expect(admission(2, state(1, 0)).isFull()).toBe(false);
    const full = admission(2, state(2, 0));
    expect(full.isFull()).toBe(true);
    expect(() => full.refuseWhenFull()).toThrow(QueueFullError);
    // Four jobs ahead at the assumed 500 ms on two workers: 1 s.
    expect(full.retryAfterSeconds()).toBe(1);
    full.jobTook(10_500); // the estimate follows recent jobs: 0.8 × 500 + 0.2 × 10,500 = 2,500 ms
    expect(full.retryAfterSeconds()).toBe(5);
  });

  it('holds a place for an admitted upload until it is released, once', () => {
    const a = admission(1, state(0, 0));
    const release = a.admit();
    expect(a.isFull()).toBe(true);
    expect(() => a.admit()).toThrow(QueueFullError);
    release();
    release();
    expect(a.isFull()).toBe(false);
  });

  it('refuses everything once closed', () => {
    expect(admission(32, { ...state(0, 1), closed: () => true }).isFull()).toBe(true);
  });
});

describe('the feed of an upload parsed while it arrives', () => {
  const feedOf = (job: ArrivingJob) => {
    const calls: unknown[] = [];
    const feed = uploadFeed(job, {
      tell: (signal) => calls.push(['tell', signal]),
      reestimate: () => calls.push(['reestimate']),
      publish: (event) => calls.push(['publish', event]),
    });
    return { feed, calls };
  };

  it('passes the bytes written and the end on to the worker', () => {
    const { feed, calls } = feedOf({ unseen: true, running: true, unseenProgress: [] });
    feed.written(1024);
    feed.abandoned();
    expect(calls).toEqual([
      ['tell', { written: 1024 }],
      ['tell', { end: 'abandoned' }],
    ]);
  });

  it('announces the job once recorded, as queued now, with the progress it made unseen, once', () => {
    const job: ArrivingJob = {
      unseen: true,
      running: true,
      unseenProgress: [{ stage: 'parsing' }, { stage: 'scoring', done: 0, total: 12 }],
    };
    const { feed, calls } = feedOf(job);
    feed.recorded();
    expect(calls).toEqual([
      ['tell', { end: 'recorded' }],
      ['reestimate'],
      ['publish', { state: 'queued', queue_position: 0 }],
      ['publish', { state: 'running' }],
      ['publish', { state: 'running', stage: 'parsing' }],
      ['publish', { state: 'running', stage: 'scoring', done: 0, total: 12 }],
    ]);
    expect(job).toMatchObject({ unseen: false, unseenProgress: [] });
    calls.length = 0;
    feed.recorded();
    expect(calls).toEqual([['tell', { end: 'recorded' }], ['reestimate']]);
  });

  it('announces nothing for a job that already ended', () => {
    const { feed, calls } = feedOf({ unseen: true, running: false, unseenProgress: [{ stage: 'parsing' }] });
    feed.recorded();
    expect(calls).toEqual([['tell', { end: 'recorded' }], ['reestimate']]);
  });
});
