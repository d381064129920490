// Write Run Summary off the caller's thread (the extension host's): writeRunSummary runs on a worker thread
// (writerWorker.ts, bundled as out/summaryWriterWorker.js) with Node's file system, as the CLI runs it. Building and
// serializing a 40,000-repeat summary makes garbage by the hundred megabytes; on the extension host its collections
// held the event loop 100-600 ms at a time, on a worker they hold only the worker.
// The caller gets first what it says (WrittenFacts: the path, the problems, the counts), as soon as the file is
// written; then, when asked (`showRun`), the written run, built on the worker from the writer's own document
// (readers/runSummary.ts runFromWrittenSummary: the run's folders are not read again) and handed over in slices of
// tasks, each a JSON text of about SLICE_CHARS the caller parses in its own turn of the event loop (../jsonSlices.ts),
// the next slice asked for only then (Node hands every queued message over in one go: sent all at once, they were
// parsed in one block).
// Progress and cancellation cross as messages. Without the worker bundle (a bundle without it, a port that is not
// Node's) the caller writes on its own thread (writeRunSummary).
import { Worker } from 'node:worker_threads';
import { NodeFs } from '../fs/nodeFs';
import { workerBundle } from '../fs/workerBundle';
import type { Problem, Run, Task } from '../model';
import { jsonSlice } from '../jsonSlices';
import { runFromWrittenSummary } from '../readers/runSummary';
import { writeRunSummary, type WriteResult } from './write';

const WORKER_FILE = 'summaryWriterWorker.js';

/** Caller → worker: the job (once), then an abort, or asks for the next slice of the run. */
/** `sliceChars`: characters of JSON per slice of the run's tasks (default SLICE_CHARS; tests give a small one). */
export interface WriterJob { rollouts: string; maxFileBytes?: number; showRun?: boolean; sliceChars?: number }
export type WriterAsk = { kind: 'abort' } | { kind: 'more' };

/** What a write did, without the document: small enough to cross threads in no time. */
export interface WrittenFacts {
  path: string;
  problems: Problem[];
  error?: string;
  /** The document's tasks, repeats (every one, missing included) and missing paths. */
  tasks: number;
  attempts: number;
  missingPaths: number;
}

/** Worker → caller. `run`: the written run as JSON without its tasks, which follow in `tasks` slices, then `end`. */
export type WriterMsg =
  | { kind: 'progress'; read: number; total: number }
  | { kind: 'done'; facts: WrittenFacts }
  | { kind: 'run'; head: string }
  | { kind: 'tasks'; json: string }
  | { kind: 'end' }
  | { kind: 'failed'; message: string };

/** Writer worker threads started and not exited yet: each holds a whole run's memory, so none may be left behind. */
let running = 0;
export function writerWorkersRunning(): number {
  return running;
}

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function writerWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/** The facts of a write result: counts from its document (none when nothing was written). */
export function factsOf(result: WriteResult): WrittenFacts {
  const d = result.error ? undefined : result.document;
  let attempts = 0;
  for (const t of d?.tasks ?? []) attempts += t.repeats.length;
  return {
    path: result.path, problems: result.problems, ...(result.error !== undefined ? { error: result.error } : {}),
    tasks: d?.tasks.length ?? 0, attempts, missingPaths: d?.missing_paths.length ?? 0,
  };
}

/** The worker's side: writes the summary (progress at most once per percent), posts the facts, then the run if asked. */
export async function serveWrite(job: WriterJob, post: (m: WriterMsg) => void, onAsk: (f: (m: WriterAsk) => void) => void): Promise<void> {
  const ac = new AbortController();
  let credits = 0;
  let wake: (() => void) | undefined;
  onAsk((m) => {
    if (m.kind === 'abort') ac.abort(new Error('cancelled'));
    else { credits++; wake?.(); }
  });
  const asked = async (): Promise<void> => {
    while (credits === 0) await new Promise<void>((resolve) => { wake = resolve; });
    credits--;
  };
  const fs = new NodeFs(job.maxFileBytes !== undefined ? { maxFileBytes: job.maxFileBytes } : {});
  let lastPct = -1;
  const result = await writeRunSummary(fs, job.rollouts, {
    signal: ac.signal,
    // Streamed to disk, its bytes not kept: building one 38 MB buffer cost the writer ~0.3 s more (the run is built
    // from the document; its text is made again only if a problem must be placed at its line).
    onProgress: (read, total) => {
      const pct = total > 0 ? Math.floor((read / total) * 100) : 0;
      if (pct > lastPct) { lastPct = pct; post({ kind: 'progress', read, total }); }
    },
  });
  post({ kind: 'done', facts: factsOf(result) });
  if (!job.showRun || result.error || !result.document) return;
  const run = await runFromWrittenSummary(fs, { path: result.path, document: result.document, bytes: result.bytes, problems: result.problems }, job.rollouts);
  const tasks = run.tasks;
  post({ kind: 'run', head: JSON.stringify({ ...run, tasks: [] }) });
  for (let i = 0; i < tasks.length;) {
    await asked();
    const slice = jsonSlice(tasks, i, job.sliceChars);
    post({ kind: 'tasks', json: slice.json });
    i = slice.end;
  }
  await asked();
  post({ kind: 'end' });
}

export interface OnWorkerOptions {
  signal?: AbortSignal;
  onProgress?: (read: number, total: number) => void;
  maxFileBytes?: number;
  /** Build the written run on the worker too (WorkerWrite.run). */
  showRun?: boolean;
  /** The worker bundle (default: writerWorkerFile()). */
  workerFile?: string;
}

export interface WorkerWrite {
  facts: WrittenFacts;
  /**
   * The written run (with `showRun`, after a write without error), received slice by slice; undefined when there is
   * none or the worker could not send it (the caller then reads the run itself). Call it once: the worker ends then.
   */
  run(): Promise<Run | undefined>;
}

/**
 * Writes the summary of `rollouts` on a worker thread. Undefined when there is no worker bundle (write on this thread
 * instead). A worker that fails or exits before answering is an error result, never a throw.
 */
export async function writeRunSummaryOnWorker(rollouts: string, opts: OnWorkerOptions = {}): Promise<WorkerWrite | undefined> {
  const file = opts.workerFile ?? writerWorkerFile();
  if (!file) return undefined;
  const job: WriterJob = { rollouts, ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}), ...(opts.showRun ? { showRun: true } : {}) };
  const w = new Worker(file);
  running++;
  w.once('exit', () => { running--; });
  let ended = false;
  const end = () => { if (!ended) { ended = true; opts.signal?.removeEventListener('abort', onAbort); void w.terminate(); } };
  const onAbort = () => { if (!ended) w.postMessage({ kind: 'abort' } satisfies WriterAsk); };
  let factsDone: (f: WrittenFacts) => void = () => undefined;
  const facts = new Promise<WrittenFacts>((resolve) => { factsDone = resolve; });
  let runDone: (r: Run | undefined) => void = () => undefined;
  const run = new Promise<Run | undefined>((resolve) => { runDone = resolve; });
  let head: Run | undefined;
  let tasks: Task[] = [];
  const fail = (message: string) => {
    end();
    factsDone({ path: rollouts, problems: [{ file: rollouts, severity: 'error', code: 'write-failed', message }], error: message, tasks: 0, attempts: 0, missingPaths: 0 });
    runDone(undefined);
  };
  const ask = () => { if (!ended) w.postMessage({ kind: 'more' } satisfies WriterAsk); };
  w.on('message', (m: WriterMsg) => {
    if (m.kind === 'progress') opts.onProgress?.(m.read, m.total);
    else if (m.kind === 'done') {
      factsDone(m.facts);
      if (!opts.showRun || m.facts.error) { end(); runDone(undefined); }
    } else if (m.kind === 'run') {
      head = JSON.parse(m.head) as Run;
      ask();
    } else if (m.kind === 'tasks') {
      ask(); // the worker makes the next slice while this one is parsed
      for (const t of JSON.parse(m.json) as Task[]) tasks.push(t);
    } else if (m.kind === 'end') {
      end();
      const whole = head ? { ...head, tasks } : undefined;
      head = undefined;
      tasks = [];
      runDone(whole);
    } else fail(`the summary writer failed: ${m.message}`);
  });
  w.on('error', (e) => fail(`the summary writer failed: ${e.message}`));
  w.on('exit', (code) => { if (!ended) fail(`the summary writer stopped (exit code ${code}) before it answered`); });
  w.postMessage(job); // first: the worker takes its first message as the job
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  return { facts: await facts, run: () => run };
}
