// The summary worker (bundled as out/summaryDocWorker.js, started by summaryDoc.ts for a large run summary): reads,
// parses and validates the summary, sends its value in slices of tasks (one each time the caller asks), then keeps
// only the text, to place the problems the caller finds later at their lines.
import { parentPort } from 'node:worker_threads';
import { serveSummary, type SummaryJob, type WorkerAsk } from './summaryDoc';

parentPort!.once('message', (job: SummaryJob) => {
  serveSummary(job, (m) => parentPort!.postMessage(m), (answer) => parentPort!.on('message', (m: WorkerAsk) => answer(m)))
    .catch((e: unknown) => parentPort!.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) }));
});
