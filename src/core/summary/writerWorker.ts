// The summary writer's worker (bundled as out/summaryWriterWorker.js, started by writeOnWorker.ts): writes one run
// summary with Node's file system, posting progress, then what it wrote (WrittenFacts), and is ended by its caller.
import { parentPort } from 'node:worker_threads';
import { serveWrite, type WriterAsk, type WriterJob } from './writeOnWorker';

parentPort!.once('message', (job: WriterJob) => {
  serveWrite(job, (m) => parentPort!.postMessage(m), (answer) => parentPort!.on('message', (m: WriterAsk) => answer(m)))
    .catch((e: unknown) => parentPort!.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) }));
});
