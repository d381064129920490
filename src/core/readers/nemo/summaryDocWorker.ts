// The summary worker (bundled as out/summaryDocWorker.js, started by summaryDoc.ts): for a large run summary it reads,
// parses and validates it, sends its value in slices of tasks (one each time the caller asks), then the text's digest,
// and is ended; started again with paths (a PlaceJob), it reads the file again and says where they are.
import { parentPort } from 'node:worker_threads';
import { placeInFile, serveSummary, type PlaceJob, type SummaryJob, type WorkerAsk } from './summaryDoc';

parentPort!.once('message', (job: SummaryJob | PlaceJob) => {
  const failed = (e: unknown) => parentPort!.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) });
  if ('paths' in job) {
    placeInFile(job).then((places) => parentPort!.postMessage({ kind: 'places', places }), failed);
    return;
  }
  serveSummary(job, (m, transfer) => parentPort!.postMessage(m, transfer), (answer) => parentPort!.on('message', (m: WorkerAsk) => answer(m)))
    .catch(failed);
});
