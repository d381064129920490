// The rows of a large rollouts or failures file of this machine (FsPort.nodeLocal) picked on row workers that read
// the file themselves (rowWorker.ts): worker i reads groups i, i + n, i + 2n, … (groupLines.ts: each group's lines
// are the ones that start in it), as far ahead as this thread's credits allow, and this thread applies their answers
// in file order with the same line numbers, outcomes, long lines and cut-off tail as forEachLine + pickLine give.
// This thread reads none of the file: a worker reads its groups a piece at a time into memory its cache holds
// (a third of the kernel's copying of reads into the fresh 4 MiB buffers this thread would hand it) and keeps
// reading while this thread is busy (the writer reads the run's schedule meanwhile).
import type { Worker } from 'node:worker_threads';
import * as nodeFs from 'node:fs';
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from '../fs/port';
import { TimeSlice } from '../turn';
import { unpackOutcomes, type LineOutcome, type PackedOutcomes } from './lineOutcome';
import { groupLines, plainRegion } from './groupLines';
import type { ParallelLineHandlers } from './parallelRows';

/** What a worker is asked to read: groups `index`, `index + of`, … of `path`, `window` of them before any credit. */
export interface FileJob { path: string; chunkSize: number; maxLine: number; index: number; of: number; window: number }
/** More groups a worker may read. */
export interface FileAsk { credit: number }
/** One group's lines (groupLines.ts), its outcomes packed as a row job's are. */
export interface FileAnswer {
  k: number;
  lines: number;
  outcomes: [number, LineOutcome][];
  packed?: PackedOutcomes;
  longs: [number, number][];
  cut: number;
  bytes: number;
  last: boolean;
}
/** Group k could not be picked there (read again on this thread), or (k = -1) the file could not be opened there. */
export interface FileFailed { k: number; failed: string }

/** Groups each worker may read ahead of the lines applied: their outcomes wait here (the bytes stay there). */
export const WINDOW = 8;

type Slot = { w: Worker; exited: boolean };

/**
 * Reads `path` on `n` workers started by `spawn` (false when none can start: nothing read). Lines wait unapplied
 * until `h.ready`, up to `hold` lines of them; then every line is applied in order.
 */
export async function readFileOnWorkers(fs: FsPort, path: string, h: ParallelLineHandlers, n: number, chunkSize: number,
  spawn: () => Worker, hold: number): Promise<boolean> {
  // The port opens it first: a file it refuses (gone, not a regular file) fails here as it would on this thread.
  await (await fs.openSequential!(path)).close();
  const maxLine = fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const slots: Slot[] = [];
  try {
    for (let i = 0; i < n; i++) slots.push({ w: spawn(), exited: false });
  } catch {
    await Promise.all(slots.map((s) => s.w.terminate()));
    return false;
  }
  const answers = new Map<number, FileAnswer | FileFailed>();
  const credited = new Set<number>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let held = h.ready !== undefined;
  let heldLines = 0;
  const grant = (k: number) => slots[k % n].w.postMessage({ credit: 1 } satisfies FileAsk);
  slots.forEach((slot, i) => {
    slot.w.on('message', (a: FileAnswer | FileFailed) => {
      if ('failed' in a && a.k < 0) failure ??= new Error(a.failed);
      else {
        answers.set(a.k, a);
        if (held && heldLines < hold) {
          heldLines += 'failed' in a ? 0 : a.lines;
          credited.add(a.k);
          grant(a.k);
        }
      }
      wake?.();
    });
    slot.w.on('error', (e: unknown) => { failure ??= e instanceof Error ? e : new Error(String(e)); wake?.(); });
    slot.w.on('exit', () => { slot.exited = true; wake?.(); });
    slot.w.postMessage({ path, chunkSize, maxLine, index: i, of: n, window: WINDOW } satisfies FileJob);
  });
  // A cancel wakes the wait for the next answer (a worker may be waiting for credits that will not come).
  const onAbort = () => wake?.();
  h.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (held) {
      await new Promise<void>((resolve) => {
        h.ready!.then(resolve, resolve);
        if (h.signal?.aborted) resolve();
        else h.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      held = false;
    }
    const slice = new TimeSlice();
    let line = 0;
    for (let k = 0; ; k++) {
      let got: FileAnswer | FileFailed | undefined;
      while (!(got = answers.get(k))) {
        if (h.signal?.aborted) throw h.signal.reason ?? new Error('cancelled');
        if (failure) throw failure;
        if (slots[k % n].exited) throw new Error('a row worker exited');
        await new Promise<void>((r) => { wake = r; });
        wake = undefined;
      }
      answers.delete(k);
      if (h.signal?.aborted) throw h.signal.reason ?? new Error('cancelled');
      const a = 'failed' in got ? again(path, k, chunkSize, maxLine) : got;
      const outcomes = a.packed ? unpackOutcomes(a.packed) : a.outcomes;
      // Outcomes and long lines in the order of their lines.
      for (let oi = 0, li = 0, c = 0; oi < outcomes.length || li < a.longs.length; c++) {
        if (li < a.longs.length && (oi >= outcomes.length || a.longs[li][0] < outcomes[oi][0])) {
          h.onLongLine?.(line + a.longs[li][0] + 1, a.longs[li][1]);
          li++;
        } else {
          const [at, o] = outcomes[oi++];
          h.onOutcome(o, line + at + 1, at !== a.cut);
        }
        if ((c & 31) === 31 && slice.due) await slice.yield();
      }
      line += a.lines;
      if (!credited.delete(k)) grant(k);
      h.onBytes?.(a.bytes);
      const wait = h.afterChunk?.();
      if (wait) await wait;
      if (a.last) return true;
    }
  } finally {
    h.signal?.removeEventListener('abort', onAbort);
    await Promise.all(slots.map((s) => s.w.terminate()));
  }
}

/** A group a worker could not pick, read and picked on this thread (where an unexpected error surfaces as it would). */
function again(path: string, k: number, chunkSize: number, maxLine: number): FileAnswer {
  const fd = nodeFs.openSync(path, 'r');
  try {
    const c = groupLines((b, off, len, pos) => nodeFs.readSync(fd, b, off, len, pos), k, chunkSize, maxLine, plainRegion());
    return { ...c, packed: undefined };
  } finally {
    nodeFs.closeSync(fd);
  }
}
