// A trajectory opened in a worker thread (worker.ts bundled as out/trajectoryWorker.js): the same queries as
// TrajectorySession, answered asynchronously, so reading and indexing a 100 MB trajectory never blocks the thread
// that asks (the extension host). One worker per opened document; dispose() ends it.
import { Worker } from 'node:worker_threads';
import type { SubPath, TrajectoryQueries, TrajectorySession } from './session';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Answer<K extends keyof TrajectoryQueries> = ReturnType<TrajectoryQueries[K]>;

export class RemoteTrajectory implements TrajectorySource {
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private ended: Error | null = null;

  private constructor(private readonly worker: Worker, readonly steps: number, readonly problems: number, readonly loadMs: number) {
    worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    const end = (e: Error) => {
      this.ended ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the trajectory worker exited (${code})`)));
  }

  /** Starts the worker of `workerFile` on `file` and resolves once the view model is built. */
  static open(workerFile: string, file: string, root: string): Promise<RemoteTrajectory> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(workerFile, { workerData: { file, root } });
      const fail = (e: Error) => { off(); void worker.terminate(); reject(e); };
      const onExit = (code: number) => fail(new Error(`the trajectory worker exited (${code}) before it read ${file}`));
      const onMessage = (m: { ready?: { steps: number; problems: number; ms: number }; loadError?: string }) => {
        off();
        if (m.ready) resolve(new RemoteTrajectory(worker, m.ready.steps, m.ready.problems, m.ready.ms));
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
    void this.worker.terminate();
  }
}

/** What the editor holds of an opened trajectory: a worker (RemoteTrajectory) or, when no worker starts, LocalTrajectory. */
export interface TrajectorySource {
  readonly steps: number;
  readonly problems: number;
  readonly loadMs: number;
  ask<K extends keyof TrajectoryQueries>(method: K, path: SubPath, ...args: unknown[]): Promise<Answer<K>>;
  dispose(): void;
}

/** The same queries answered on the calling thread (the fallback when a worker cannot start). */
export class LocalTrajectory implements TrajectorySource {
  readonly steps: number;
  readonly problems: number;
  constructor(private readonly session: TrajectorySession, readonly loadMs: number) {
    this.steps = session.view.steps.length;
    this.problems = session.view.problems.length;
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
