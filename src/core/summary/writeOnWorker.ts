// Write Run Summary off the caller's thread (the extension host's): writeRunSummary runs on a worker thread
// (writerWorker.ts, bundled as out/summaryWriterWorker.js) with Node's file system, as the CLI runs it, and streams
// the summary to disk in chunks (never whole in memory). The caller gets what it says and shows: the path, the
// problems, the counts, and the written file's size and time (so it can tell the file it reads back is the one
// written). Building and serializing a 40,000-repeat summary makes garbage by the hundred megabytes; on the extension
// host its collections held the event loop 100-250 ms at a time, on a worker they hold only the worker.
// Progress and cancellation cross as messages. Without the worker bundle (a bundle without it, a port that is not
// Node's) the caller writes on its own thread (writeRunSummary).
import { Worker } from 'node:worker_threads';
import { NodeFs } from '../fs/nodeFs';
import { workerBundle } from '../fs/workerBundle';
import type { Problem } from '../model';
import { writeRunSummary, type WriteResult } from './write';

const WORKER_FILE = 'summaryWriterWorker.js';

/** Caller → worker: the job (once), then possibly an abort. */
export interface WriterJob { rollouts: string; maxFileBytes?: number }
export type WriterAsk = { kind: 'abort' };

/** What a write did, without the document: small enough to cross threads in no time. */
export interface WrittenFacts {
  path: string;
  problems: Problem[];
  error?: string;
  /** The document's tasks, repeats (every one, missing included) and missing paths. */
  tasks: number;
  attempts: number;
  missingPaths: number;
  /** The written file as the writer left it (undefined when nothing was written). */
  written?: { size: number; mtimeMs: number };
}

/** Worker → caller. */
export type WriterMsg =
  | { kind: 'progress'; read: number; total: number }
  | { kind: 'done'; facts: WrittenFacts }
  | { kind: 'failed'; message: string };

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function writerWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/** The facts of a write result: counts from its document (none when nothing was written). */
export function factsOf(result: WriteResult, written?: { size: number; mtimeMs: number }): WrittenFacts {
  const d = result.error ? undefined : result.document;
  let attempts = 0;
  for (const t of d?.tasks ?? []) attempts += t.repeats.length;
  return {
    path: result.path, problems: result.problems, ...(result.error !== undefined ? { error: result.error } : {}),
    tasks: d?.tasks.length ?? 0, attempts, missingPaths: d?.missing_paths.length ?? 0, ...(written ? { written } : {}),
  };
}

/** The worker's side: writes the summary, posting progress (at most once per percent), then the facts. */
export async function serveWrite(job: WriterJob, post: (m: WriterMsg) => void, onAsk: (f: (m: WriterAsk) => void) => void): Promise<void> {
  const ac = new AbortController();
  onAsk((m) => { if (m.kind === 'abort') ac.abort(new Error('cancelled')); });
  const fs = new NodeFs(job.maxFileBytes !== undefined ? { maxFileBytes: job.maxFileBytes } : {});
  let lastPct = -1;
  const result = await writeRunSummary(fs, job.rollouts, {
    signal: ac.signal,
    onProgress: (read, total) => {
      const pct = total > 0 ? Math.floor((read / total) * 100) : 0;
      if (pct > lastPct) { lastPct = pct; post({ kind: 'progress', read, total }); }
    },
  });
  const st = result.error ? undefined : await fs.stat(result.path);
  post({ kind: 'done', facts: factsOf(result, st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined) });
}

export interface OnWorkerOptions {
  signal?: AbortSignal;
  onProgress?: (read: number, total: number) => void;
  maxFileBytes?: number;
  /** The worker bundle (default: writerWorkerFile()). */
  workerFile?: string;
}

/**
 * Writes the summary of `rollouts` on a worker thread. Undefined when there is no worker bundle (write on this thread
 * instead). A worker that fails or exits before answering is an error result, never a throw.
 */
export async function writeRunSummaryOnWorker(rollouts: string, opts: OnWorkerOptions = {}): Promise<WrittenFacts | undefined> {
  const file = opts.workerFile ?? writerWorkerFile();
  if (!file) return undefined;
  const job: WriterJob = { rollouts, ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}) };
  const w = new Worker(file);
  const onAbort = () => w.postMessage({ kind: 'abort' } satisfies WriterAsk);
  try {
    return await new Promise<WrittenFacts>((resolve) => {
      const fail = (message: string) => resolve({
        path: rollouts, problems: [{ file: rollouts, severity: 'error', code: 'write-failed', message }], error: message,
        tasks: 0, attempts: 0, missingPaths: 0,
      });
      w.on('message', (m: WriterMsg) => {
        if (m.kind === 'progress') opts.onProgress?.(m.read, m.total);
        else if (m.kind === 'done') resolve(m.facts);
        else fail(`the summary writer failed: ${m.message}`);
      });
      w.on('error', (e) => fail(`the summary writer failed: ${e.message}`));
      w.on('exit', (code) => fail(`the summary writer stopped (exit code ${code}) before it answered`));
      w.postMessage(job); // first: the worker takes its first message as the job
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    void w.terminate();
  }
}
