// What the trajectory's worker thread does (worker.ts, bundled as out/trajectoryWorker.js, started by remote.ts): it
// reads and builds the view model off the extension host's thread, keeps it, and answers the editor's queries
// (session.ts) — from the first page of steps on, while the rest is still read. Apart from worker.ts so that it runs
// on any message port: the tests drive it on the main thread through a MessageChannel.
// Messages in: { id, method, args }; out: { progress } as the steps come (the first one once a first page is read),
// then { ready } or { loadError } once; { id, result } | { id, error } for each query.
import * as fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { NodeFs } from '../fs/nodeFs';
import type { RealPath } from './media';
import type { TrajectoryFs } from './read';
import { QUERY_METHODS, TrajectorySession, type TrajectoryQueries } from './session';

/** After the first page, how long reading waits for the editor's first screen at most, and once it asked for it. */
export const FIRST_SCREEN_WAIT_MS = 1500;
export const DRAW_MS = 200;

export interface ServeOptions {
  /** The files (Node's by default) and how a path resolves through links (realpath by default). */
  fs?: TrajectoryFs;
  real?: RealPath;
  /** FIRST_SCREEN_WAIT_MS and DRAW_MS unless given (the tests wait less). */
  firstScreenWaitMs?: number;
  drawMs?: number;
}

const realPath: RealPath = (p) => { try { return fs.realpathSync.native(p); } catch { return null; } };

/** Reads `file` (media only from inside `root`) and answers queries on `port` (see the top of this file). */
export function serveTrajectory(port: Pick<MessagePort, 'on' | 'postMessage'>, file: string, root: string, opts: ServeOptions = {}): void {
  const t0 = performance.now();
  let session: TrajectorySession | null = null;
  // After the first page, reading waits until the editor has asked for its outline (its first screen) and a little
  // more, so the page is drawn before the rest of the file competes for the CPU — at most FIRST_SCREEN_WAIT_MS.
  let firstScreen: (() => void) | null = null;
  port.on('message', (m: { id: number; method: string; args: unknown[] }) => {
    try {
      if (!QUERY_METHODS.includes(m.method as keyof TrajectoryQueries)) throw new Error(`unknown query ${m.method}`);
      if (!session) throw new Error('the trajectory is not read yet');
      const fn = session[m.method as keyof TrajectoryQueries] as (...a: unknown[]) => unknown;
      port.postMessage({ id: m.id, result: fn.apply(session, m.args) });
      if (m.method === 'outline') { firstScreen?.(); firstScreen = null; }
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error)?.message ?? String(e) });
    }
  });
  let first = true;
  const pause = (): Promise<void> | void => {
    if (!first) return;
    first = false;
    return new Promise((resolve) => {
      const t = setTimeout(resolve, opts.firstScreenWaitMs ?? FIRST_SCREEN_WAIT_MS);
      firstScreen = () => { clearTimeout(t); setTimeout(resolve, opts.drawMs ?? DRAW_MS); };
    });
  };
  const status = (s: TrajectorySession) => ({ steps: s.view.steps.length, problems: s.view.problems.length, ms: performance.now() - t0, loading: s.loading });
  TrajectorySession.open(opts.fs ?? new NodeFs(), file, root, { real: opts.real ?? realPath, onProgress: (s) => { session = s; port.postMessage({ progress: status(s) }); return pause(); } }).then((s) => {
    session = s;
    port.postMessage({ ready: status(s) });
  }, (e: unknown) => port.postMessage({ loadError: (e as Error)?.message ?? String(e) }));
}
