// The readers' worker threads (the folder lister, the job lock's and the large summaries' workers) run below the
// priority of the thread that starts them, in the extension host: their work (system calls, parsing) is background,
// while the host's own thread answers the views, and on a 2-core machine the host thread, those workers and the
// window's renderer take turns on the cores. Only where a thread has a priority of its own (Linux: a thread's nice
// value is its own); elsewhere os.setPriority would lower the whole process, so nothing is changed there.
import * as os from 'node:os';

let lower = 0;

/** How many nice steps below its starter each reader worker started from now on runs (0: the same; the CLI's). */
export function setReaderWorkerNice(n: number): void {
  lower = Math.max(0, Math.min(19, Math.floor(n)));
}

/** What a reader worker is given as its workerData: how far to lower itself. */
export function readerWorkerData(): { nice: number } {
  return { nice: lower };
}

/** In a worker: lowers the calling thread's priority by workerData's `nice` (Linux only; never fails). */
export function lowerThisThread(data: unknown): void {
  const n = (data as { nice?: unknown } | null | undefined)?.nice;
  if (typeof n !== 'number' || !(n > 0) || process.platform !== 'linux') return;
  try {
    os.setPriority(Math.min(19, os.getPriority() + n));
  } catch {
    // not allowed here: the worker runs as it is
  }
}

/** The same, as source text for a worker run with `eval` (dirLister.ts): workerData is in scope there. */
export const LOWER_THIS_THREAD_SOURCE = `
{
  const n = workerData && workerData.nice;
  if (typeof n === 'number' && n > 0 && process.platform === 'linux') {
    try { const os = require('node:os'); os.setPriority(Math.min(19, os.getPriority() + n)); } catch {}
  }
}
`;
