// Startup figures for the activation benchmark (bench/activation.bench.ts): how long activate() took, and how long
// after activation started the Runs tree first returned its top level. Each is logged once, as
// `startup: <what> <ms> ms`; the benchmark reads these lines from the extension host's log file.
import { performance } from 'node:perf_hooks';

let started: number | undefined;
let sink: ((message: string) => void) | undefined;
const marked = new Set<string>();
const pending: string[] = [];

/** The first thing activate() does. */
export function startupBegin(): void {
  started = performance.now();
  sink = undefined;
  marked.clear();
  pending.length = 0;
}

/** Where the figures go (the extension's log), once it exists; figures taken before are written now. */
export function startupLogTo(info: (message: string) => void): void {
  sink = info;
  for (const m of pending.splice(0)) info(m);
}

/** Records `startup: <what> <ms> ms` (since activation started), the first time only. */
export function startupMark(what: 'activated' | 'tree first level', detail = ''): void {
  if (started === undefined || marked.has(what)) return;
  marked.add(what);
  const line = `startup: ${what} ${(performance.now() - started).toFixed(1)} ms${detail}`;
  if (sink) sink(line);
  else pending.push(line);
}
