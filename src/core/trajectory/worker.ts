// The worker thread of one opened trajectory (bundled as out/trajectoryWorker.js, started by remote.ts): it reads and
// builds the view model off the extension host's thread, keeps it, and answers the editor's queries (session.ts).
// Messages in: { id, method, args }; out: { ready } | { loadError } once, then { id, result } | { id, error }.
import { parentPort, workerData } from 'node:worker_threads';
import { NodeFs } from '../fs/nodeFs';
import { TrajectorySession, type TrajectoryQueries } from './session';

const METHODS: readonly (keyof TrajectoryQueries)[] = ['outline', 'step', 'search', 'raw', 'subagent', 'problem'];

const port = parentPort;
if (port) {
  const { file, root } = workerData as { file: string; root: string };
  const t0 = performance.now();
  TrajectorySession.open(new NodeFs(), file, root).then((session) => {
    port.postMessage({ ready: { steps: session.view.steps.length, problems: session.view.problems.length, ms: performance.now() - t0 } });
    port.on('message', (m: { id: number; method: string; args: unknown[] }) => {
      try {
        if (!METHODS.includes(m.method as keyof TrajectoryQueries)) throw new Error(`unknown query ${m.method}`);
        const fn = session[m.method as keyof TrajectoryQueries] as (...a: unknown[]) => unknown;
        port.postMessage({ id: m.id, result: fn.apply(session, m.args) });
      } catch (e) {
        port.postMessage({ id: m.id, error: (e as Error)?.message ?? String(e) });
      }
    });
  }, (e: unknown) => port.postMessage({ loadError: (e as Error)?.message ?? String(e) }));
}
