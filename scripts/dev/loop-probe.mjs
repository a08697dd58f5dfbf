// A probe of the service's event loop, for finding what a stall is made of (Linux only):
//   NODE_OPTIONS="--import ./scripts/dev/loop-probe.mjs" npm run serve
// Every 2 ms the main thread reads /proc/thread-self/schedstat (its time on a CPU and its
// time waiting for one); each gap between two readings longer than 10 ms is appended to
// LOOP_PROBE_LOG (default /tmp/loop-probe.log) as "gap G run R wait W" in ms. A gap that is
// mostly `run` is the loop's own work in one turn; one that is mostly `wait` is the thread
// runnable while other threads hold both cores; the rest is the thread blocked in a call.
// SIGUSR2 starts a CPU profile of the main thread; the next SIGUSR2 writes it to
// LOOP_PROBE_PROFILE (default /tmp/loop-probe.cpuprofile). Not shipped: the probe's own
// timer adds load, so measure the targets without it (npm run bench).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const LOG = process.env.LOOP_PROBE_LOG ?? '/tmp/loop-probe.log';
const PROFILE = process.env.LOOP_PROBE_PROFILE ?? '/tmp/loop-probe.cpuprofile';

/** [ms on a CPU, ms waiting on a run queue] of this thread since it started. */
const schedstat = () =>
  readFileSync('/proc/thread-self/schedstat', 'utf8')
    .split(' ')
    .slice(0, 2)
    .map((ns) => Number(ns) / 1e6);

if (isMainThread) {
  let at = performance.now();
  let [ran, waited] = schedstat();
  setInterval(() => {
    const now = performance.now();
    const [run, wait] = schedstat();
    if (now - at > 10)
      appendFileSync(
        LOG,
        `${new Date().toISOString()} gap ${(now - at).toFixed(1)} run ${(run - ran).toFixed(1)} wait ${(wait - waited).toFixed(1)}\n`,
      );
    [at, ran, waited] = [now, run, wait];
  }, 2).unref();

  let session = null;
  process.on('SIGUSR2', () => {
    if (!session) {
      session = new Session();
      session.connect();
      session.post('Profiler.enable');
      session.post('Profiler.setSamplingInterval', { interval: 200 });
      session.post('Profiler.start');
      return;
    }
    const ending = session;
    session = null;
    ending.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(PROFILE, JSON.stringify(result.profile));
      ending.disconnect();
    });
  });
}
