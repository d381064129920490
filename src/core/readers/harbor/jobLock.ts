// The job's lock.json (docs/formats.md#harbor-job): Harbor writes one TrialLock per trial into it, 12.8 MB at 10,000
// trials, and the run reads one thing of it, the Harbor version. Reading, parsing and validating it held the
// extension host's thread for seconds on a loaded machine (and handing its text between threads costs ~0.2 s each
// way): a large one on a port whose paths Node reads (FsPort.nodeLocal) is read and parsed on a worker thread
// (jobLockWorker.ts, bundled as out/jobLockWorker.js) and only what is read of it comes back — its `harbor` block
// and its problems, never the trials. A small one, another port, or where no worker can start: read and parsed on
// this thread, with the same answers.
import { Worker } from 'node:worker_threads';
import type { FileRead, FsPort } from '../../fs/port';
import { NodeFs } from '../../fs/nodeFs';
import { gather, gatherWithCalls } from '../../fs/gather';
import type { Problem } from '../../model';
import { JobLockSchema, type JobLock } from '../../schemas/harbor';
import { safeParsePlain } from '../../schemas/plainCheck';
import { issueProblems, jsonDocumentOf } from '../jsonFile';
import { workerBundle } from '../../fs/workerBundle';

/** What the run reads of a job's lock.json. */
export type JobLockRead = { lock: Pick<JobLock, 'harbor'> | null; problems: Problem[] };

/** A lock to read: at `path`, at most `maxBytes` of it. */
export interface JobLockJob { path: string; maxBytes: number }

/** Locks smaller than this are read on this thread (starting a worker costs more than it saves). */
export const LOCK_WORKER_MIN_BYTES = 1 << 20;

const WHAT = 'job lock.json';
const WORKER_FILE = 'jobLockWorker.js';

/** The lock as the job reader reads it, from what was read of the file: problems, schema problems, the harbor block. */
export function parseJobLock(path: string, read: FileRead): JobLockRead {
  const doc = jsonDocumentOf(path, read, WHAT, 'warning');
  const problems = [...doc.problems];
  if (!doc.ok) return { lock: null, problems };
  const p = safeParsePlain(JobLockSchema, doc.value, false); // only its harbor block is read, by its keys
  if (!p.success) return { lock: null, problems: [...problems, ...issueProblems(doc, p.error.issues, WHAT, 5)] };
  return { lock: { harbor: p.data.harbor }, problems };
}

/** Reads and parses the lock through `fs` on this thread (what the worker does with Node's own port). */
export async function readJobLockHere(fs: FsPort, job: JobLockJob): Promise<JobLockRead> {
  const got = await gather(fs, [], [job]);
  return parseJobLock(job.path, got.reads[0]);
}

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function jobLockWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
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

/**
 * The job's lock.json as the run reads it: on a worker thread when it is `size` ≥ `minBytes` and the port's paths
 * are Node's (the worker reads it with NodeFs, with the same bound), else through `fs` here (also when the worker
 * fails). `workerFile`: the worker's script (by default the bundle; tests give ones that fail).
 */
export async function readJobLock(fs: FsPort, job: JobLockJob, size: number, minBytes = LOCK_WORKER_MIN_BYTES,
  workerFile?: string): Promise<JobLockRead> {
  const file = fs.nodeLocal && size >= minBytes ? workerFile ?? jobLockWorkerFile() : undefined;
  if (file) {
    try {
      return await onWorker(file, job);
    } catch {
      // no worker thread here (or it failed): the same answers on this thread
    }
  }
  return readJobLockHere(fs, job);
}

/** The worker's side: the lock read with Node's port (bounded reads, never a FIFO or device) and parsed. */
export async function readJobLockOnWorker(job: JobLockJob): Promise<JobLockRead> {
  const got = await gatherWithCalls(new NodeFs({ maxFileBytes: job.maxBytes }), [], [job]);
  return parseJobLock(job.path, got.reads[0]);
}
