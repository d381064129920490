// The rows of a large rollouts or failures file picked on worker threads (rowWorker.ts, bundled as
// out/summaryRowWorker.js). A file of this machine the workers read themselves (parallelFileRows.ts). Otherwise (a
// port whose files only this thread can read) this thread reads the file in chunks, hands each chunk's whole lines
// to the next free worker (the buffer is transferred, not copied, and comes back to be read into again), and
// applies the answers in file order, with the same line numbers, problems and rows as forEachLine + pickLine on this
// thread would give. A line split across chunks is joined here and picked by a worker too; a line over the file
// limit is dropped as forEachLine drops it; the last line with no newline is picked here. Without the worker bundle
// (a backend that is not Node, or a bundle without it) the caller reads on this thread.
import { Worker } from 'node:worker_threads';
import * as os from 'node:os';
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from '../fs/port';
import { allocateBytes, asBuffer } from '../bytes';
import { TimeSlice } from '../turn';
import { pickLine, RESULT_KEYS, runRowJob, unpackOutcomes, type LineOutcome, type RowAnswer, type RowJob } from './lineOutcome';
import { CHUNK_SIZE } from './lines';
import { workerBundle } from '../fs/workerBundle';
import { readFileOnWorkers } from './parallelFileRows';

const WORKER_FILE = 'summaryRowWorker.js';

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function rowWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/**
 * Row workers by default: one per core but this thread's, at least 1 (the scan then leaves the extension host's
 * thread even on one core), at most 3. Two workers on a 2-core machine measured no faster than one (this thread and
 * the folder prober need the cores too) and cost more CPU time in all.
 */
export function defaultRowWorkers(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(3, cores - 1));
}

/** Files smaller than this are read on this thread (starting workers costs more than it saves). */
export const PARALLEL_MIN_BYTES = 16 << 20;

export interface ParallelLineHandlers {
  /** A non-blank line's outcome, in file order (`terminated`: a newline follows it). */
  onOutcome(o: LineOutcome, line: number, terminated: boolean): void;
  /** A line over the file limit (not assembled). */
  onLongLine?(line: number, bytes: number): void;
  /** Bytes of lines applied (progress). */
  onBytes?(n: number): void;
  /** Awaited after each chunk's lines are applied when it returns a promise (backpressure). */
  afterChunk?(): Promise<void> | undefined;
  signal?: AbortSignal;
  /**
   * No line is applied (nor any other handler called) before this resolves: meanwhile the file is read and picked
   * ahead, the answers kept without their chunks' buffers (read into again), at most HOLD_LINES lines of them (the
   * writer reads the run's schedule on its thread meanwhile, build.ts).
   */
  ready?: Promise<void>;
}

/** Lines whose outcomes are kept while the caller is not ready (ParallelLineHandlers.ready): ~20 MB at most. */
export const HOLD_LINES = 32_768;
const NO_BYTES = new Uint8Array(0);

let started = 0;
let running = 0;

/** Row workers of this process that have not exited: none once a read is over, however it ended (no thread left behind). */
export function rowWorkersRunning(): number {
  return running;
}

/**
 * Row workers started in this process so far. The writer promises that a large file of result rows is picked off the
 * calling thread (so the extension host stays responsive while it reads); its tests check that promise with this count.
 */
export function rowWorkersStarted(): number {
  return started;
}

/** A row worker, counted (rowWorkersStarted, rowWorkersRunning). */
function spawn(file: string): Worker {
  const w = new Worker(file);
  started++;
  running++;
  w.once('exit', () => { running--; });
  return w;
}

type Slot = { w: Worker; busy: number; failed?: Error };
type Item = { job: Promise<RowAnswer>; start: number; end: number; first: boolean } | { long: number };

class RowWorkers {
  private readonly workers: Slot[] = [];
  private readonly pending = new Map<number, { resolve(a: RowAnswer): void; reject(e: Error): void; worker: Worker }>();
  private nextId = 1;

  constructor(file: string, n: number) {
    for (let i = 0; i < n; i++) {
      const w = spawn(file);
      const slot: Slot = { w, busy: 0 };
      w.on('message', (a: RowAnswer) => {
        const p = this.pending.get(a.id);
        if (!p) return;
        this.pending.delete(a.id);
        slot.busy--;
        p.resolve(a);
      });
      const fail = (e: unknown) => {
        const err = e instanceof Error ? e : new Error(String(e));
        slot.failed ??= err; // a job given to it later fails at once (a message to a dead worker is never answered)
        for (const [id, p] of this.pending) if (p.worker === w) { this.pending.delete(id); p.reject(err); }
      };
      w.on('error', fail);
      w.on('exit', () => fail(new Error('a row worker exited')));
      this.workers.push(slot);
    }
  }

  run(bytes: Uint8Array, start: number, end: number, first: boolean): Promise<RowAnswer> {
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    if (slot.failed) return Promise.reject(slot.failed);
    const id = this.nextId++;
    const job: RowJob = { id, bytes, start, end, first };
    return new Promise<RowAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: slot.w });
      slot.busy++;
      slot.w.postMessage(job, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((s) => s.w.terminate()));
  }
}

/**
 * Reads `path` as forEachLine does and hands every non-blank line's outcome (RESULT_KEYS picked) to `h`. Returns
 * false, having read nothing, when no worker can start (the caller then reads on this thread). `workerFile`: the row
 * worker's script (by default the bundle; tests give ones that fail).
 */
export async function forEachPickedLine(fs: FsPort, path: string, h: ParallelLineHandlers,
  workers = defaultRowWorkers(), chunkSize = CHUNK_SIZE, workerFile = rowWorkerFile(),
  /** The workers read the file themselves (parallelFileRows.ts): by default on a port whose paths Node reads. */
  readsItself = fs.nodeLocal === true && fs.openSequential !== undefined): Promise<boolean> {
  if (!workerFile || workers < 1) return false;
  if (readsItself) return readFileOnWorkers(fs, path, h, workers, chunkSize, () => spawn(workerFile), HOLD_LINES);
  let pool: RowWorkers;
  try { pool = new RowWorkers(workerFile, workers); } catch { return false; }
  try {
    await readInJobs(fs, path, pool, h, workers * 2 + 1, chunkSize);
  } finally {
    await pool.close();
  }
  return true;
}

async function readInJobs(fs: FsPort, path: string, pool: RowWorkers, h: ParallelLineHandlers, maxInFlight: number,
  chunkSize: number): Promise<void> {
  const maxLine = fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const free: Uint8Array[] = [];
  const queue: Item[] = [];
  let line = 0;
  let emitted = false;
  const slice = new TimeSlice();

  const apply = async (item: Item) => {
    if ('long' in item) { line++; h.onLongLine?.(line, item.long); return; }
    let a = await item.job;
    // The worker could not pick (an unexpected error): done here, where the error surfaces as it would.
    if (a.failed !== undefined) a = runRowJob({ id: a.id, bytes: a.bytes, start: item.start, end: item.end, first: item.first });
    if (h.signal?.aborted) throw h.signal.reason ?? new Error('cancelled');
    const outcomes = a.packed ? unpackOutcomes(a.packed) : a.outcomes;
    for (let k = 0; k < outcomes.length; k++) {
      const [at, o] = outcomes[k];
      h.onOutcome(o, line + at + 1, true);
      if ((k & 31) === 31 && slice.due) await slice.yield();
    }
    line += a.lines;
    if (a.bytes.byteLength === chunkSize && a.bytes.byteOffset === 0 && a.bytes.buffer.byteLength === chunkSize) free.push(asBuffer(a.bytes));
    h.onBytes?.(item.end - item.start);
    const wait = h.afterChunk?.();
    if (wait) await wait;
  };
  // Until h.ready: jobs answered are kept (their lines counted in heldLines), only unanswered ones count against
  // maxInFlight; past HOLD_LINES the read waits for ready.
  let held = h.ready !== undefined;
  let unanswered = 0;
  let heldLines = 0;
  let answeredOne: () => void = () => undefined;
  // (A cancelled read stops holding at once: the next line applied throws the signal's reason.)
  const ready = h.ready && new Promise<void>((resolve) => {
    h.ready!.then(resolve, resolve);
    if (h.signal?.aborted) resolve();
    else h.signal?.addEventListener('abort', () => resolve(), { once: true });
  }).then(() => { held = false; });
  const enqueue = async (item: Item) => {
    queue.push(item);
    while (queue.length >= maxInFlight) {
      if (held && heldLines < HOLD_LINES) {
        if (unanswered < maxInFlight) return;
        await Promise.race([new Promise<void>((r) => { answeredOne = r; }), ready!]);
        continue;
      }
      if (held) await ready;
      await apply(queue.shift()!);
    }
  };
  const job = (bytes: Uint8Array, start: number, end: number) => {
    const first = !emitted;
    emitted = true;
    unanswered++;
    const answer = pool.run(bytes, start, end, first).then((a) => {
      unanswered--;
      answeredOne();
      if (!held || a.failed !== undefined) return a;
      heldLines += a.lines;
      // Kept until ready, without its buffer: that is read into again now (the outcomes came packed, apart from it).
      if (a.bytes.byteLength === chunkSize && a.bytes.byteOffset === 0 && a.bytes.buffer.byteLength === chunkSize) free.push(asBuffer(a.bytes));
      return { ...a, bytes: NO_BYTES };
    }, (e: unknown) => { unanswered--; answeredOne(); throw e; });
    answer.catch(() => undefined); // (awaited in order by apply; a failure must not go unhandled meanwhile)
    return enqueue({ job: answer, start, end, first });
  };

  const read = await reader(fs, path, chunkSize);
  let carry: Uint8Array | null = null;
  let dropped = 0;
  try {
    for (;;) {
      const buf = free.pop() ?? allocateBytes(chunkSize);
      const n = await read.next(buf);
      if (n === 0) { free.push(buf); break; }
      const chunk = asBuffer(buf.subarray(0, n)) as Buffer;
      let start = 0;
      if (dropped) {
        const nl = chunk.indexOf(10);
        if (nl < 0) { dropped += n; free.push(buf); continue; }
        emitted = true;
        await enqueue({ long: dropped + nl });
        dropped = 0;
        start = nl + 1;
      } else if (carry) {
        const nl = chunk.indexOf(10);
        if (nl < 0 && carry.length + n > maxLine) { dropped = carry.length + n; carry = null; free.push(buf); continue; }
        if (nl < 0) {
          const joined = allocateBytes(carry.length + n);
          joined.set(carry); joined.set(chunk, carry.length);
          carry = joined;
          free.push(buf);
          continue;
        }
        const joined = allocateBytes(carry.length + nl);
        joined.set(carry); joined.set(chunk.subarray(0, nl), carry.length);
        carry = null;
        await job(joined, 0, joined.length);
        start = nl + 1;
      }
      const last = chunk.lastIndexOf(10);
      // The part after the last newline is carried in a copy (the chunk's buffer goes to a worker).
      const tailFrom = last >= start ? last + 1 : start;
      if (tailFrom < n) { carry = allocateBytes(n - tailFrom); carry.set(chunk.subarray(tailFrom)); }
      if (last >= start) await job(buf, start, last + 1);
      else free.push(buf);
    }
    if (held) await ready;
    while (queue.length) await apply(queue.shift()!);
  } finally {
    // A failure leaves jobs in flight: their answers are not waited for (the pool is closed by the caller).
    await read.close();
  }
  const rest = carry as Uint8Array | null;
  if (dropped) h.onLongLine?.(line + 1, dropped);
  else if (rest && rest.length) {
    const end = rest[rest.length - 1] === 13 ? rest.length - 1 : rest.length;
    const o = pickLine(RESULT_KEYS, asBuffer(rest), 0, end, !emitted, false);
    if (o) h.onOutcome(o, line + 1, false);
  }
}

/** Chunks read into the buffers given (openSequential), or copied from the backend's own chunks. */
async function reader(fs: FsPort, path: string, chunkSize: number): Promise<{ next(buf: Uint8Array): Promise<number>; close(): Promise<void> }> {
  if (fs.openSequential) {
    const f = await fs.openSequential(path);
    return { next: (buf) => f.read(buf), close: () => f.close() };
  }
  const it = fs.readChunks(path, chunkSize)[Symbol.asyncIterator]();
  let rest: Uint8Array | undefined;
  return {
    async next(buf) {
      if (!rest || !rest.length) {
        const r = await it.next();
        if (r.done) return 0;
        rest = r.value;
      }
      const n = Math.min(buf.length, rest.length);
      buf.set(rest.subarray(0, n));
      rest = rest.subarray(n);
      return n;
    },
    async close() { await it.return?.(); },
  };
}

/**
 * A read on row workers started before its handlers are known (the writer starts reading the rollouts as it starts,
 * while it still finds the run's other files): the lines are read and picked ahead, held as with `ready`, and handed
 * to the handlers given to `attach` once their own `ready` resolves. Not attached, `cancel` stops it.
 */
export class EarlyPickedLines {
  private h: ParallelLineHandlers | undefined;
  private attached: () => void = () => undefined;
  private readonly stop = new AbortController();
  private readonly done: Promise<boolean>;

  constructor(fs: FsPort, readonly path: string, readonly workers: number, chunkSize = CHUNK_SIZE, workerFile = rowWorkerFile()) {
    const attached = new Promise<void>((resolve) => { this.attached = resolve; });
    this.done = forEachPickedLine(fs, path, {
      onOutcome: (o, line, terminated) => this.h!.onOutcome(o, line, terminated),
      onLongLine: (line, bytes) => this.h!.onLongLine?.(line, bytes),
      onBytes: (n) => this.h!.onBytes?.(n),
      afterChunk: () => this.h!.afterChunk?.(),
      signal: this.stop.signal,
      // (Cancelled unattached: no handlers' ready to wait for; the stopped signal ends the read.)
      ready: attached.then(() => this.h?.ready),
    }, workers, chunkSize, workerFile);
    this.done.catch(() => undefined); // (a failure is the attached caller's; unattached, nobody's)
  }

  /** The read's outcome with these handlers (as forEachPickedLine with them: false when no worker could start). */
  attach(h: ParallelLineHandlers): Promise<boolean> {
    if (this.h || this.stop.signal.aborted) return Promise.reject(new Error(`the early read of ${this.path} was ${this.h ? 'attached' : 'cancelled'} before`));
    this.h = h;
    if (h.signal?.aborted) this.stop.abort(h.signal.reason ?? new Error('cancelled'));
    else h.signal?.addEventListener('abort', () => this.stop.abort(h.signal!.reason ?? new Error('cancelled')), { once: true });
    this.attached();
    return this.done;
  }

  /** Stops a read never attached (its workers end); nothing once attached. */
  async cancel(): Promise<void> {
    if (this.h) return;
    this.stop.abort(new Error('not needed'));
    this.attached();
    await this.done.catch(() => undefined);
  }
}
