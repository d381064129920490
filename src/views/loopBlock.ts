// How long the thread's event loop was held at most while some work ran: the Runs view's reads log it, so a
// benchmark (bench/runsWorkbench.bench.ts) can tell whether reading a big run ever blocked the extension host.
// Sampled by Node's event-loop delay monitor (a 10 ms timer, only while the work runs).
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** `fn`'s result and the longest the event loop was blocked while it ran (ms, to the monitor's 10 ms resolution). */
export async function withLongestBlock<T>(fn: () => Promise<T>): Promise<{ value: T; blockedMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    const value = await fn();
    h.disable();
    return { value, blockedMs: h.count ? h.max / 1e6 : 0 };
  } finally {
    h.disable();
  }
}
