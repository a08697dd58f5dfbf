/**
 * The worker pool on real threads: tasks in and out (buffers transferred), progress,
 * messages to a running task, a crashed or hung worker replaced while only its own task
 * fails, with a sentence saying so, and a worker retired after a task marked so; a task run
 * in a child process of its own, with a thread back in its place once the process has gone;
 * a spare process started ahead of need that takes the next such task, and its successor
 * started only once that process has gone; processes started through the starter the host
 * injects (the desktop app's is Electron's utilityProcess; here one over child_process).
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../support/server.js';
import {
  createWorkerPool,
  TaskFailedError,
  type PoolOptions,
  type WorkerPool,
} from '../../src/service/processing/pool.js';
import { forkStarter } from '../support/fork-starter.js';

const WORKER = new URL('./fixtures/pool-worker.mjs', import.meta.url);
let pool: WorkerPool | undefined;
afterEach(() => pool?.close());

function makePool(
  size: number,
  more: Partial<Pick<PoolOptions, 'taskTimeoutMs' | 'spareProcess' | 'startProcess'>> = {},
): WorkerPool {
  pool = createWorkerPool({
    size,
    workerUrl: WORKER,
    workerData: null,
    taskTimeoutMs: 60_000,
    onIdle: () => undefined,
    ...more,
  });
  return pool;
}

describe('worker pool', () => {
  it('starts its workers once and runs tasks on them, transferring buffers', async () => {
    const p = makePool(2);
    await p.whenReady();
    expect(p.stats()).toMatchObject({ size: 2, ready: 2, busy: 0 });
    const bytes = new Uint8Array(1024);
    const progress: unknown[] = [];
    const a = p.run<{ value: number; threadId: number; bytes: number }>(
      { op: 'echo', value: 1, bytes },
      [bytes.buffer],
      (x) => progress.push(x),
    );
    expect(bytes.byteLength).toBe(0); // moved to the worker, not copied
    expect(p.idleCount()).toBe(1);
    const b = p.run<{ value: number; threadId: number }>({ op: 'echo', value: 2 });
    expect(() => p.run({ op: 'echo' })).toThrow(/No idle worker/);
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra.value, rb.value, ra.bytes]).toEqual([1, 2, 1024]);
    expect(ra.threadId).not.toBe(rb.threadId);
    expect(progress).toEqual([{ stage: 'scoring', done: 1, total: 2 }]);
    // The same threads serve the next tasks: nothing is started per task.
    const again = await p.run<{ threadId: number }>({ op: 'echo', value: 3 });
    expect([ra.threadId, rb.threadId]).toContain(again.threadId);
    expect(p.stats().replaced).toBe(0);
  });

  it('passes messages to the task they are for while it runs, and drops them after', async () => {
    const p = makePool(1);
    await p.whenReady();
    const task = { op: 'sum-messages' };
    const sum = p.run<{ sum: number }>(task);
    p.tell(task, 1);
    p.tell({ op: 'sum-messages' }, 100); // an equal object is not the running task
    p.tell(task, 2);
    p.tell(task, 'end');
    await expect(sum).resolves.toEqual({ sum: 3 });
    p.tell(task, 4); // ended: nothing is sent, nothing throws
    await expect(p.run({ op: 'echo', value: 7 })).resolves.toMatchObject({ value: 7 });
  });

  it('replaces a worker after a task marked to retire it, and keeps it when the mark is taken back', async () => {
    const p = makePool(1);
    await p.whenReady();
    const big = { op: 'echo', value: 1 };
    const first = p.run<{ threadId: number }>(big);
    p.retireAfter(big);
    const { threadId } = await first;
    // The task's answer is kept; its thread goes, and a new one takes the slot once it has
    // exited (so the new thread reuses what the old one gave back): meanwhile none is idle.
    expect(p.stats()).toMatchObject({ recycled: 1, replaced: 0 });
    expect(p.idleCount()).toBe(0);
    await p.whenReady();
    expect(p.idleCount()).toBe(1);
    const next = await p.run<{ threadId: number }>({ op: 'echo', value: 2 });
    expect(next.threadId).not.toBe(threadId);
    const small = { op: 'echo', value: 3 };
    const kept = p.run<{ threadId: number }>(small);
    p.retireAfter(small);
    p.retireAfter(small, false);
    expect((await kept).threadId).toBe(next.threadId);
    expect(p.stats()).toMatchObject({ recycled: 1, replaced: 0 });
  });

  it('fails a task that throws without losing its worker', async () => {
    const p = makePool(1);
    await expect(p.run({ op: 'throw' })).rejects.toThrow(/the task threw/);
    expect(p.stats()).toMatchObject({ replaced: 0 });
    await expect(p.run({ op: 'echo', value: 4 })).resolves.toMatchObject({ value: 4 });
  });

  it('replaces a crashed worker; only its task fails, with a clear reason', async () => {
    let idle = 0;
    pool = createWorkerPool({
      size: 1,
      workerUrl: WORKER,
      workerData: null,
      taskTimeoutMs: 60_000,
      onIdle: () => idle++,
    });
    const p = pool;
    await p.whenReady();
    const crashed = p.run({ op: 'crash' });
    await expect(crashed).rejects.toBeInstanceOf(TaskFailedError);
    await expect(crashed).rejects.toThrow(
      /stopped unexpectedly \(internal error: worker crashed on purpose\); it has been restarted/,
    );
    expect(p.stats().replaced).toBe(1);
    expect(idle).toBeGreaterThan(0);
    await expect(p.run({ op: 'echo', value: 5 })).resolves.toMatchObject({ value: 5 });
  });

  it('stops a task past its time limit and replaces the worker', async () => {
    const p = makePool(1, { taskTimeoutMs: 300 });
    await p.whenReady();
    await expect(p.run({ op: 'hang' })).rejects.toThrow(/took longer than/);
    expect(p.stats().replaced).toBe(1);
    await expect(p.run({ op: 'echo', value: 6 })).resolves.toMatchObject({ value: 6 });
  });

  it('runs a task marked ownProcess in a child process, and a thread takes the slot once it has exited', async () => {
    const p = makePool(1);
    await p.whenReady();
    const bytes = new Uint8Array(1024);
    const progress: unknown[] = [];
    const task = { op: 'echo', value: 8, bytes };
    const ran = p.run<{ value: number; pid: number; threadId: number; bytes: number }>(
      task,
      [bytes.buffer],
      (x) => progress.push(x),
      { ownProcess: true },
    );
    p.retireAfter(task, false); // a process is never kept
    let same: Promise<{ pid: number }> | undefined;
    const result = await ran.then((r) => {
      // Queued as the task ends (as the processor queues the scoring after a parse).
      same = p.run<{ pid: number }>({ op: 'echo', value: 11 }, [], undefined, { ownProcess: true });
      return r;
    });
    expect(result).toMatchObject({ value: 8, threadId: 0, bytes: 1024 });
    expect(result.pid).not.toBe(process.pid);
    expect(bytes.byteLength).toBe(1024); // copied to the process, not moved
    expect(progress).toEqual([{ stage: 'scoring', done: 1, total: 2 }]);
    expect(p.stats()).toMatchObject({ processes: 1, recycled: 0, replaced: 0 });
    // That task ran in the same process.
    expect((await same!).pid).toBe(result.pid);
    // Then the process leaves; a thread takes the slot.
    await pollUntil('the process gone', async () => (alive(result.pid) ? undefined : true), 10_000, 50);
    await p.whenReady();
    const next = await p.run<{ pid: number; threadId: number }>({ op: 'echo', value: 9 });
    expect(next.pid).toBe(process.pid);
    expect(next.threadId).toBeGreaterThan(0);
    // Messages sent before the process has started reach its task.
    const sum = { op: 'sum-messages' };
    const summed = p.run<{ sum: number }>(sum, [], undefined, { ownProcess: true });
    p.tell(sum, 20);
    p.tell(sum, 22);
    p.tell(sum, 'end');
    await expect(summed).resolves.toEqual({ sum: 42 });
    expect(p.stats()).toMatchObject({ processes: 2, replaced: 0 });
  });

  it('keeps a spare process started ahead of need for the next ownProcess task, and the next once it has gone', async () => {
    const p = makePool(2, { spareProcess: true });
    await p.whenReady();
    await pollUntil('the spare ready', async () => (p.stats().spareReady ? true : undefined), 30_000, 50);
    expect(p.stats()).toMatchObject({ processes: 0, spares: 0 });
    const asked = Date.now();
    const large = (value: number) =>
      p.run<{ pid: number; started: number }>({ op: 'echo', value }, [], undefined, { ownProcess: true });
    // Two at once: the first takes the spare, the second gets a process started for it.
    const [first, second] = await Promise.all([large(1), large(2)]);
    expect([first.pid, second.pid]).not.toContain(process.pid);
    expect(first.pid).not.toBe(second.pid);
    expect(first.started).toBeLessThan(asked); // it was running before the task was asked for
    expect(second.started).toBeGreaterThan(asked);
    expect(p.stats()).toMatchObject({ processes: 2, spares: 1, spareReady: false });
    // Both gone (each runs one task): threads take the slots, then a new spare starts.
    await pollUntil('the processes gone', async () => (alive(first.pid) || alive(second.pid) ? undefined : true));
    await pollUntil('a new spare ready', async () => (p.stats().spareReady ? true : undefined), 30_000, 50);
    const third = await large(3);
    expect([first.pid, second.pid, process.pid]).not.toContain(third.pid);
    expect(third.started).toBeLessThan(Date.now());
    expect(p.stats()).toMatchObject({ processes: 3, spares: 2, replaced: 0 });
    // Other tasks still run on threads.
    await expect(p.run<{ pid: number }>({ op: 'echo', value: 4 })).resolves.toMatchObject({ pid: process.pid });
  });

  it('starts its processes through the starter it is given, and stops them through it', async () => {
    const entries: string[] = [];
    const children: ChildProcess[] = [];
    const startProcess = forkStarter((entry, child) => {
      entries.push(entry);
      children.push(child);
    });
    const p = makePool(1, { spareProcess: true, startProcess });
    await p.whenReady();
    await pollUntil('the spare ready', async () => (p.stats().spareReady ? true : undefined), 30_000, 50);
    const ran = await p.run<{ pid: number }>({ op: 'echo', value: 5 }, [], undefined, { ownProcess: true });
    expect(entries).toEqual([fileURLToPath(WORKER)]);
    expect(ran.pid).toBe(children[0].pid);
    // Done with its task, it was told to stop through the starter and left on its own (not killed).
    await pollUntil('the process gone', async () => (children[0].exitCode === null ? undefined : true), 10_000, 50);
    expect([children[0].exitCode, children[0].signalCode]).toEqual([0, null]);
    expect(p.stats()).toMatchObject({ processes: 1, spares: 1 });
  });

  it('runs large tasks on threads when the host cannot start a process, without failing them', async () => {
    const exitsAtOnce = fileURLToPath(new URL('./fixtures/exits-at-once.mjs', import.meta.url));
    let started = 0;
    const fork = forkStarter(() => started++);
    const p = makePool(1, { startProcess: (_entry, options) => fork(exitsAtOnce, options) });
    await p.whenReady();
    const first = await p.run<{ pid: number; value: number }>({ op: 'echo', value: 11 }, [], undefined, {
      ownProcess: true,
    });
    expect(first).toMatchObject({ pid: process.pid, value: 11 });
    await p.whenReady();
    const second = await p.run<{ pid: number }>({ op: 'echo', value: 12 }, [], undefined, { ownProcess: true });
    expect(second.pid).toBe(process.pid);
    // One process was tried; the second large task went to a thread without another try.
    expect(started).toBe(1);
    expect(p.stats()).toMatchObject({ replaced: 0 });
  });

  it('fails only the task of a process that crashed or hung, and a thread takes its place', async () => {
    const p = makePool(1, { taskTimeoutMs: 1_000 });
    await p.whenReady();
    await expect(p.run({ op: 'crash' }, [], undefined, { ownProcess: true })).rejects.toThrow(
      /stopped unexpectedly \(exit code 1\); it has been restarted/,
    );
    await p.whenReady();
    await expect(p.run({ op: 'hang' }, [], undefined, { ownProcess: true })).rejects.toThrow(/took longer than/);
    expect(p.stats()).toMatchObject({ processes: 2, replaced: 2 });
    await expect(p.run<{ pid: number }>({ op: 'echo', value: 10 })).resolves.toMatchObject({ pid: process.pid });
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
