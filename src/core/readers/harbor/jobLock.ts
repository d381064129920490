// The job's lock.json (docs/formats.md#harbor-job): Harbor writes one TrialLock per trial into it, 12.8 MB at 10,000
// trials, and the run reads one thing of it, the Harbor version. Parsing and validating it is one synchronous pass
// (~1 s of the extension host's thread on a loaded 2-core machine): a large one is parsed on a worker thread
// (jobLockWorker.ts, bundled as out/jobLockWorker.js) and only what is read of it comes back — its `harbor` block
// and its problems, never the trials. A small one, or where no worker can start, is parsed on this thread: the same
// answers either way.
import { Worker } from 'node:worker_threads';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { FileRead } from '../../fs/port';
import type { Problem } from '../../model';
import { JobLockSchema, type JobLock } from '../../schemas/harbor';
import { issueProblems, jsonDocumentOf } from '../jsonFile';

/** What the run reads of a job's lock.json. */
export type JobLockRead = { lock: Pick<JobLock, 'harbor'> | null; problems: Problem[] };

export interface JobLockJob { path: string; read: FileRead }

/** Locks smaller than this are parsed on this thread (starting a worker costs more than it saves). */
export const LOCK_WORKER_MIN_CHARS = 1 << 20;

const WHAT = 'job lock.json';
const WORKER_FILE = 'jobLockWorker.js';

/** The lock as the job reader reads it, on this thread: parse problems, schema problems, the harbor block. */
export function parseJobLock({ path, read }: JobLockJob): JobLockRead {
  const doc = jsonDocumentOf(path, read, WHAT, 'warning');
  const problems = [...doc.problems];
  if (!doc.ok) return { lock: null, problems };
  const p = JobLockSchema.safeParse(doc.value);
  if (!p.success) return { lock: null, problems: [...problems, ...issueProblems(doc, p.error.issues, WHAT, 5)] };
  return { lock: { harbor: p.data.harbor }, problems };
}

/** The worker bundle: beside this bundle, or in a folder above it (tests and benchmarks are bundled below out/). */
export function jobLockWorkerFile(): string | undefined {
  let d = typeof __dirname === 'string' ? __dirname : undefined;
  for (let k = 0; d && k < 5; k++, d = nodePath.dirname(d)) {
    const f = nodePath.join(d, WORKER_FILE);
    if (nodeFs.existsSync(f)) return f;
  }
  return undefined;
}

function onWorker(file: string, job: JobLockJob): Promise<JobLockRead> {
  return new Promise<JobLockRead>((resolve, reject) => {
    const w = new Worker(file);
    const done = (f: () => void) => { f(); void w.terminate(); };
    w.once('message', (a: JobLockRead | { failed: string }) => done(() => ('failed' in a ? reject(new Error(a.failed)) : resolve(a))));
    w.once('error', (e) => done(() => reject(e)));
    w.once('exit', () => reject(new Error('the lock worker exited')));
    w.postMessage(job);
  });
}

/** parseJobLock, on a worker thread when the lock is large and a worker can start. */
export async function readJobLock(job: JobLockJob, minChars = LOCK_WORKER_MIN_CHARS): Promise<JobLockRead> {
  const file = (job.read.text?.length ?? 0) >= minChars ? jobLockWorkerFile() : undefined;
  if (file) {
    try {
      return await onWorker(file, job);
    } catch {
      // no worker thread here (or it failed): the same answers on this thread
    }
  }
  return parseJobLock(job);
}
