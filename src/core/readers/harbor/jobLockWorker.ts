// The lock worker (bundled as out/jobLockWorker.js, started by jobLock.ts for a large job lock.json): reads, parses
// and validates the lock and answers with what the run reads of it (its harbor block and its problems), so the
// document of every trial's lock is built, and dropped, off the caller's thread.
import { parentPort } from 'node:worker_threads';
import { readJobLockOnWorker, type JobLockJob } from './jobLock';

parentPort!.once('message', (job: JobLockJob) => {
  readJobLockOnWorker(job).then(
    (answer) => parentPort!.postMessage(answer),
    (e: unknown) => parentPort!.postMessage({ failed: String((e as Error)?.message ?? e) }),
  );
});
