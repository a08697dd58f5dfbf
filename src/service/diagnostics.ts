/**
 * How the service is doing, for `GET /api/app/diagnostics` and the benchmarks: the event
 * loop's delays (perf_hooks' histogram: a long delay is a stall every request waits for),
 * the process's memory, and the worker pool's state.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Processor } from './processing/processor.js';

export interface DiagnosticsSnapshot {
  /** Since start or the last reset. */
  since: string;
  event_loop: { max_ms: number; p99_ms: number; mean_ms: number };
  memory: { rss_mib: number; peak_rss_mib: number; heap_used_mib: number };
  workers: ReturnType<Processor['stats']>;
}

export interface Diagnostics {
  snapshot: (options?: { reset?: boolean }) => DiagnosticsSnapshot;
  stop: () => void;
}

const MIB = 1024 * 1024;
const ms = (ns: number) => Math.round(ns / 1e4) / 100;

export function startDiagnostics(processor: Processor): Diagnostics {
  // Sampled every 2 ms: fine enough for the 20 ms stall budget, and cheap (a libuv timer).
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 2 });
  histogram.enable();
  let since = new Date();
  return {
    snapshot(options = {}) {
      const memory = process.memoryUsage();
      const snapshot: DiagnosticsSnapshot = {
        since: since.toISOString(),
        event_loop: { max_ms: ms(histogram.max), p99_ms: ms(histogram.percentile(99)), mean_ms: ms(histogram.mean) },
        memory: {
          rss_mib: Math.round(memory.rss / MIB),
          peak_rss_mib: Math.round((process.resourceUsage().maxRSS * 1024) / MIB),
          heap_used_mib: Math.round(memory.heapUsed / MIB),
        },
        workers: processor.stats(),
      };
      if (options.reset) {
        histogram.reset();
        since = new Date();
      }
      return snapshot;
    },
    stop: () => histogram.disable(),
  };
}
