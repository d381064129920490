// The worker thread of one opened trajectory (bundled as out/trajectoryWorker.js, started by remote.ts): serve.ts
// reads it and answers the editor's queries on this thread's port.
import { parentPort, workerData } from 'node:worker_threads';
import { serveTrajectory } from './serve';

if (parentPort) {
  const { file, root } = workerData as { file: string; root: string };
  serveTrajectory(parentPort, file, root);
}
