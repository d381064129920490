// A thread's own scheduling priority. On Linux each thread has its own nice value, and setpriority() given a thread id
// changes that thread alone; Node's os.setPriority takes the id. A worker that reads a large file in the background
// lowers its own priority, so the thread it serves (the extension host's) and the other processes drawing the first
// screen get the CPU first when they wake; it still gets all the CPU that nobody else wants.
import * as fs from 'node:fs';
import * as os from 'node:os';

/** This thread's id (Linux: /proc/thread-self is `<pid>/task/<tid>`), or null where there is no such thing. */
export function threadId(): number | null {
  try {
    const m = /\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's priority to at least `nice` (never raises it: that needs privileges). Returns the
 * thread's nice value afterwards, or null where a thread's priority cannot be set alone (no thread id: not Linux).
 */
export function lowerThreadPriority(nice: number): number | null {
  const tid = threadId();
  if (tid === null) return null;
  try {
    const now = os.getPriority(tid);
    if (now < nice) os.setPriority(tid, Math.min(nice, 19));
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
