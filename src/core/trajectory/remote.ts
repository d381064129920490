// A trajectory opened in a worker thread (worker.ts bundled as out/trajectoryWorker.js): the same queries as
// TrajectorySession, answered asynchronously, so reading and indexing a 100 MB trajectory never blocks the thread
// that asks (the extension host). open() resolves as soon as the first page of steps is read; onProgress tells as more
// are, and `done` when everything is (continuations, subagents, the recount). One worker per opened document;
// dispose() ends it.
import { Worker } from 'node:worker_threads';
import { Emitter, type IDisposable } from '../lifecycle';
import type { Loading, SubPath, TrajectoryQueries, TrajectorySession } from './session';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Answer<K extends keyof TrajectoryQueries> = ReturnType<TrajectoryQueries[K]>;

/** What the worker says of its reading. */
export interface SourceStatus { steps: number; problems: number; ms: number; loading: Loading }

/** What the editor holds of an opened trajectory: a worker (RemoteTrajectory) or, when no worker starts, LocalTrajectory. */
export interface TrajectorySource {
  /** The latest status (steps read so far, problems, ms since the start, progress or null when done). */
  readonly status: SourceStatus;
  /** Fires as more steps are read, and once more when everything is (status.loading null). */
  readonly onProgress: (listener: (s: SourceStatus) => void) => IDisposable;
  /** Settles when everything is read (or the worker failed). */
  readonly done: Promise<void>;
  ask<K extends keyof TrajectoryQueries>(method: K, path: SubPath, ...args: unknown[]): Promise<Answer<K>>;
  dispose(): void;
}

type WorkerMsg = { id?: number; result?: unknown; error?: string; progress?: SourceStatus; ready?: SourceStatus; loadError?: string };

export class RemoteTrajectory implements TrajectorySource {
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private ended: Error | null = null;
  private readonly progress = new Emitter<SourceStatus>();
  readonly onProgress = this.progress.event;
  readonly done: Promise<void>;
  private settle!: () => void;

  private constructor(private readonly worker: Worker, public status: SourceStatus) {
    this.done = new Promise((res) => { this.settle = res; });
    if (!status.loading) this.settle();
    worker.on('message', (m: WorkerMsg) => {
      const st = m.progress ?? m.ready;
      if (st) { this.status = st; this.progress.fire(st); if (m.ready) this.settle(); return; }
      if (m.loadError !== undefined) { this.settle(); return; }
      const p = m.id !== undefined ? this.pending.get(m.id) : undefined;
      if (!p) return;
      this.pending.delete(m.id!);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    const end = (e: Error) => {
      this.ended ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.settle();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the trajectory worker exited (${code})`)));
  }

  /** Starts the worker of `workerFile` on `file`; resolves once the first page of steps (or everything) is read. */
  static open(workerFile: string, file: string, root: string): Promise<RemoteTrajectory> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(workerFile, { workerData: { file, root } });
      const fail = (e: Error) => { off(); void worker.terminate(); reject(e); };
      const onExit = (code: number) => fail(new Error(`the trajectory worker exited (${code}) before it read ${file}`));
      const onMessage = (m: WorkerMsg) => {
        const st = m.progress ?? m.ready;
        if (!st && m.loadError === undefined) return;
        off();
        if (st) resolve(new RemoteTrajectory(worker, st));
        else fail(new Error(m.loadError ?? 'the trajectory worker did not start'));
      };
      // Only these listeners: removeAllListeners() would also drop the Worker's own, which keep its port running.
      const off = () => { worker.off('error', fail); worker.off('exit', onExit); worker.off('message', onMessage); };
      worker.on('error', fail);
      worker.on('exit', onExit);
      worker.on('message', onMessage);
    });
  }

  ask<K extends keyof TrajectoryQueries>(method: K, path: SubPath, ...args: unknown[]): Promise<Answer<K>> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, args: [path, ...args] });
    });
  }

  dispose(): void {
    this.ended ??= new Error('the trajectory was closed');
    this.progress.dispose();
    void this.worker.terminate();
  }
}

/** The same queries answered on the calling thread, once everything is read (the fallback when a worker cannot start). */
export class LocalTrajectory implements TrajectorySource {
  readonly status: SourceStatus;
  readonly done = Promise.resolve();
  readonly onProgress = (): IDisposable => ({ dispose: () => undefined });
  constructor(private readonly session: TrajectorySession, loadMs: number) {
    this.status = { steps: session.view.steps.length, problems: session.view.problems.length, ms: loadMs, loading: null };
  }

  ask<K extends keyof TrajectoryQueries>(method: K, path: SubPath, ...args: unknown[]): Promise<Answer<K>> {
    try {
      const fn = this.session[method] as (...a: unknown[]) => Answer<K>;
      return Promise.resolve(fn.apply(this.session, [path, ...args]));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  dispose(): void { /* nothing held outside the session */ }
}

/**
 * A source that is still opening (the worker starting, the first page being read): queries wait for it. It lets the
 * editor create its page while the trajectory is read, instead of after the first page.
 */
export class DeferredTrajectory implements TrajectorySource {
  status: SourceStatus = { steps: 0, problems: 0, ms: 0, loading: { steps: 0, bytesRead: 0, bytesTotal: 0 } };
  private readonly progress = new Emitter<SourceStatus>();
  readonly onProgress = this.progress.event;
  readonly done: Promise<void>;
  private inner: TrajectorySource | null = null;
  private disposed = false;

  constructor(readonly opened: Promise<TrajectorySource>) {
    this.done = opened.then((s) => {
      if (this.disposed) { s.dispose(); return; }
      this.inner = s;
      this.status = s.status;
      s.onProgress((st) => { this.status = st; this.progress.fire(st); });
      return s.done;
    }, () => undefined);
  }

  ask<K extends keyof TrajectoryQueries>(method: K, path: SubPath, ...args: unknown[]): Promise<Answer<K>> {
    return this.opened.then((s) => s.ask(method, path, ...args));
  }

  dispose(): void {
    this.disposed = true;
    this.progress.dispose();
    this.inner?.dispose();
  }
}
