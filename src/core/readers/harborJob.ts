// A Harbor job folder (docs/formats.md#harbor-job) → the Run model: one task per task_name, one attempt per trial dir.
// Never throws: bad JSON anywhere is a Problem naming the file (line and column), and the rest is still read.
// The trials are read in batches (harbor/trialBatch.ts): a few gathers per batch rather than a dozen file-system
// calls per trial.
import { foreignTrialProblems } from './harbor/foreignTrials';
import type { EntryType, FsPort } from '../fs/port';
import { gather } from '../fs/gather';
import type { Attempt, Problem, Run, RunFile, RunState, Task } from '../model';
import { JobConfigSchema, JobResultSchema, jobCounts, type JobConfig, type JobResult } from '../schemas/harbor';
import type { z } from 'zod';
import { safeParsePlain } from '../schemas/plainCheck';
import { issueProblems, jsonDocumentOf } from './jsonFile';
import { listDir } from './harbor/evidence';
import { baseName, joinPath, trimDir } from './harbor/paths';
import type { TrialRead } from './harbor/trial';
import { readTrials } from './harbor/trialBatch';
import { type JobLockRead, readJobLock } from './harbor/jobLock';
import { MAX_JSON_BYTES } from './harbor/trialFiles';
import { TimeSlice, yieldTurn } from '../turn';
import { plural } from '../format';

/** Whether a folder entry is a trial dir: a sub-folder with config.json or result.json (harbor view's rule). */
async function isTrialDir(fs: FsPort, dir: string): Promise<boolean> {
  const entries = await listDir(fs, dir);
  return entries.get('config.json') === 'file' || entries.get('result.json') === 'file';
}

/**
 * A Harbor job dir: it has config.json or result.json, and at least one sub-folder that is a trial (has config.json
 * or result.json) (docs/formats.md#harbor-job). A trial dir itself is not a job dir (its agent/ verifier/ hold neither).
 * `listed`: the folder's entries as `fs.readDir` just gave them (discovery has them: a job of 10,000 trials is not
 * listed again for this).
 */
export async function isHarborJobDir(fs: FsPort, dir: string, listed?: readonly [string, EntryType][]): Promise<boolean> {
  const root = trimDir(dir);
  const entries: Iterable<readonly [string, EntryType]> = listed ?? await listDir(fs, root);
  let marked = false; // config.json or result.json a file here (a scan: no map of a big job's 10,000 names)
  for (const [name, type] of entries) if (type === 'file' && (name === 'config.json' || name === 'result.json')) { marked = true; break; }
  if (!marked) return false;
  for (const [name, type] of entries) {
    if (type !== 'dir' || name.startsWith('.')) continue;
    if (await isTrialDir(fs, joinPath(root, name))) return true;
  }
  return false;
}

export interface JobFiles {
  config: JobConfig | null;
  result: JobResult | null;
  lock: JobLockRead['lock'];
  files: RunFile[];
  problems: Problem[];
}


const JOB_JSON = ['config.json', 'lock.json', 'result.json'];

/**
 * What the job's own JSON files are now (type, size and time of each), taken before they are read: when it is the
 * same at a re-read, what was read of them still holds.
 */
async function jobFilesStamp(fs: FsPort, jobDir: string): Promise<{ stamp: string; lockSize: number }> {
  const got = await gather(fs, [], [], JOB_JSON.map((n) => joinPath(jobDir, n)));
  return { stamp: got.stats.map((s) => (s ? `${s.type}:${s.size}:${s.mtimeMs}` : '-')).join('|'), lockSize: got.stats[1]?.size ?? 0 };
}

/**
 * The job folder's listing and its config.json, lock.json and result.json, in one gather; the lock (one entry per
 * trial: MBs on a big job) parsed on a worker thread where one can start (harbor/jobLock.ts), not waited for: `now`
 * is the job as far as config.json and result.json go (no lock, nor its problems), `job` the whole of it once the
 * lock is read (a big job's trials are read meanwhile, readHarborJobState).
 */
async function readJobFilesEarly(fs: FsPort, jobDir: string, lockSize: number): Promise<{ entries: Map<string, string>; now: JobFiles; job: Promise<JobFiles> }> {
  const names = JOB_JSON;
  const lockJob = { path: joinPath(jobDir, 'lock.json'), maxBytes: Math.min(MAX_JSON_BYTES, fs.maxFileBytes ?? MAX_JSON_BYTES) };
  // The lock is read on its own (harbor/jobLock.ts); config.json and result.json with the folder's listing.
  const lockRead = readJobLock(fs, lockJob, lockSize);
  const got = await gather(fs, [jobDir], [0, 2].map((i) => ({ path: joinPath(jobDir, names[i]), maxBytes: MAX_JSON_BYTES })));
  const reads = [got.reads[0], undefined, got.reads[1]];
  const entries = new Map<string, string>(got.lists[0] ?? []);
  const problems: Problem[] = [];
  const files: RunFile[] = [];
  // One of the job's own files there under its name but not a regular file (a FIFO, a device link, a folder): never
  // read, and said (docs/untrusted-runs.md), as a trial's is (harbor/evidence.ts), not taken for a job without it.
  const notAFile = (name: string, into: Problem[]): void => {
    const found = entries.get(name);
    if (found === undefined || found === 'file') return;
    const what = found === 'dir' ? 'a folder' : 'not a regular file (a FIFO, a device, a socket or a broken link)';
    into.push({ file: joinPath(jobDir, name), severity: 'warning', code: 'not-a-file', message: `job ${name} is there but is ${what}, so it was not read` });
  };
  const parse = <T>(i: number, key: string, schema: z.ZodType<T>, problems: Problem[]): T | null => {
    const name = names[i];
    const path = joinPath(jobDir, name);
    const present = entries.get(name) === 'file';
    files.push({ key, label: name, path: present ? path : null, present });
    if (!present) { notAFile(name, problems); return null; }
    const doc = jsonDocumentOf(path, reads[i]!, `job ${name}`, 'warning');
    problems.push(...doc.problems);
    if (!doc.ok) return null;
    const p = safeParsePlain(schema, doc.value);
    if (p.success) return p.data;
    problems.push(...issueProblems(doc, p.error.issues, `job ${name}`, 5));
    return null;
  };
  const config = parse(0, 'job-config', JobConfigSchema, problems);
  // A turn between the two (harbor-10k's result.json, 0.5 MB, names every trial in its stats).
  await yieldTurn();
  const lockPresent = entries.get('lock.json') === 'file';
  notAFile('lock.json', problems);
  files.push({ key: 'job-lock', label: 'lock.json', path: lockPresent ? joinPath(jobDir, 'lock.json') : null, present: lockPresent });
  // The result's problems come after the lock's (the order the files are listed in).
  const after: Problem[] = [];
  const result = parse(2, 'job-result', JobResultSchema, after);
  const log = entries.get('job.log') === 'file';
  files.push({ key: 'job-log', label: 'job.log', path: log ? joinPath(jobDir, 'job.log') : null, present: log });
  if (entries.get('analysis.json') === 'file') {
    files.push({ key: 'analysis', label: 'analysis.json', path: joinPath(jobDir, 'analysis.json'), present: true });
  }
  const now: JobFiles = { config, result, lock: null, files, problems: [...problems, ...after] };
  const job = lockPresent
    ? lockRead.then((lock) => ({ ...now, lock: lock.lock ?? null, problems: [...problems, ...lock.problems, ...after] }))
    : Promise.resolve(now);
  return { entries, now, job };
}

/** readJobFilesEarly, the lock waited for. */
async function readJobFiles(fs: FsPort, jobDir: string, lockSize: number): Promise<{ entries: Map<string, string>; job: JobFiles }> {
  const { entries, job } = await readJobFilesEarly(fs, jobDir, lockSize);
  return { entries, job: await job };
}

function distinct(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))].sort();
}

/** When a trial started, for ordering its task's attempts (no or no readable start: after the others). */
function startKey(t: TrialRead): number {
  const ms = t.startedAt ? Date.parse(t.startedAt) : Number.NaN;
  return Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY;
}

/**
 * The run's tasks from its trials (task names sorted; a task's attempts by start, then folder name), one task at a
 * time, so that a caller can take a turn of the event loop between them (10,000 trials: a few hundred ms in all).
 */
function* taskParts(trials: readonly TrialRead[]): Generator<Task> {
  const multiCell = distinct(trials.map((t) => t.attempt.cell)).length > 1;
  const byTask = new Map<string, TrialRead[]>();
  for (const t of trials) {
    const list = byTask.get(t.taskName);
    if (list) list.push(t);
    else byTask.set(t.taskName, [t]);
  }
  let taskIndex = 0;
  for (const taskName of [...byTask.keys()].sort()) {
    const keyed = byTask.get(taskName)!.map((t) => ({ t, k: startKey(t) }));
    keyed.sort((a, b) => (a.k !== b.k ? (a.k < b.k ? -1 : 1) : a.t.name < b.t.name ? -1 : a.t.name > b.t.name ? 1 : 0));
    const reads = keyed.map((x) => x.t);
    const perCell = new Map<string, number>();
    const attempts: Attempt[] = reads.map((t) => {
      const cell = t.attempt.cell ?? '?|?';
      const index = perCell.get(cell) ?? 0;
      perCell.set(cell, index + 1);
      return {
        id: multiCell ? `${taskName}#${cell}#${index}` : `${taskName}#${index}`,
        index,
        label: `#${index + 1}`,
        ...t.attempt,
      };
    });
    const datasets = distinct(reads.map((t) => t.dataset));
    yield {
      id: taskName,
      index: taskIndex++,
      label: taskName,
      attempts,
      ...(datasets.length ? { details: { dataset: datasets.join(', ') } } : {}),
    };
  }
}

function tasksOf(trials: readonly TrialRead[]): Task[] {
  return [...taskParts(trials)];
}

/** tasksOf with a turn of the event loop whenever a time slice is used up (the first load of a big job). */
async function tasksOfSliced(trials: readonly TrialRead[]): Promise<Task[]> {
  const slice = new TimeSlice();
  const out: Task[] = [];
  for (const task of taskParts(trials)) {
    out.push(task);
    if (slice.due) await slice.yield();
  }
  return out;
}

/** Identity: from the job config, completed by what the trials recorded. */
function identityOf(root: string, job: JobFiles, trials: readonly TrialRead[]): { identity: Record<string, string | null>; label: string } {
  const cfg = job.config;
  const jobName = cfg?.job_name ?? baseName(root);
  const agents = distinct([...(cfg?.agents ?? []).map((a) => a.name ?? (a.import_path ? null : 'oracle')), ...trials.map((t) => t.agent)]);
  const models = distinct([...(cfg?.agents ?? []).map((a) => a.model_name), ...trials.map((t) => t.model)]);
  const datasets = distinct([...(cfg?.datasets ?? []).map((d) => d.name ?? d.path), ...trials.map((t) => t.dataset)]);
  const join = (xs: string[]) => (xs.length ? xs.join(', ') : null);
  const identity: Record<string, string | null> = {
    job: jobName,
    jobId: job.result?.id ?? null,
    agent: join(agents),
    model: join(models),
    dataset: join(datasets),
    harborVersion: job.lock?.harbor?.version ?? null,
  };
  const label = [jobName, identity.dataset, identity.agent, identity.model].filter(Boolean).join(' · ');
  return { identity, label };
}

/** What the job's result.json recorded (trial count, counts by outcome), kept beside what was read. */
function recordedOf(job: JobFiles): Record<string, unknown> {
  const recorded: Record<string, unknown> = {};
  const nTotal = job.result?.n_total_trials ?? null;
  if (nTotal !== null) recorded.n_total_trials = nTotal;
  if (job.result?.stats) {
    recorded.counts = jobCounts(job.result.stats);
    recorded.stats = job.result.stats;
  }
  return recorded;
}

/**
 * State: `complete` when the job result.json has `finished_at`; otherwise `running` if any trial has no result.json
 * yet (a trial is still going), else `incomplete` (every trial ended but the job never recorded its end: it crashed
 * or was interrupted). A job without result.json counts as not finished.
 */
function stateOf(jobFinished: boolean, trials: readonly TrialRead[]): RunState {
  return jobFinished ? 'complete' : trials.some((t) => !t.hasResult) ? 'running' : 'incomplete';
}

/** The job folder's candidate trial folders: its sub-folders but hidden ones, sorted. */
function trialFolderNames(entries: Map<string, string>): string[] {
  const names: string[] = [];
  for (const [name, type] of entries) if (type === 'dir' && !name.startsWith('.')) names.push(name);
  return names.sort();
}

export interface HarborReadProgress {
  /** Trial folders looked at so far, and in all. */
  done: number;
  total: number;
  /** The run as far as it was read (the trials of finished batches); built only when asked. */
  partial(): Run;
}

export interface HarborReadOptions {
  /** Hears after each batch of trials. */
  onProgress?(p: HarborReadProgress): void;
}

/**
 * Reads a Harbor job folder into a Run.
 * - Tasks: trials grouped by `task_name`, sorted by name; attempts sorted by started_at, then trial name (a trial
 *   without a start time last). Attempts are numbered per `agent|model` cell, so each cell's attempts are
 *   #1..#n; the attempt id carries the cell when the job ran more than one.
 */
export async function readHarborJob(fs: FsPort, jobDir: string, opts: HarborReadOptions = {}): Promise<Run> {
  return (await readHarborJobState(fs, jobDir, opts)).run;
}

/** A job as read, with what it was built from, so a change inside a few trial folders re-reads only those. */
export interface HarborJobState {
  run: Run;
  root: string;
  jobFinished: boolean;
  /** Every trial read, in folder-name order. */
  trials: readonly TrialRead[];
  /** The job's own files as read, and what they were when read (jobFilesStamp): a re-read keeps them if unchanged. */
  job?: JobFiles;
  jobStamp?: string;
}

/** readHarborJob, keeping what the run was built from (rereadHarborTrials takes it). */
export async function readHarborJobState(fs: FsPort, jobDir: string, opts: HarborReadOptions = {}): Promise<HarborJobState> {
  const root = trimDir(jobDir);
  const { stamp: jobStamp, lockSize } = await jobFilesStamp(fs, root);
  // The trials are read while the lock is (on its worker): a run shown while they are read has the lock once it is in.
  const early = await readJobFilesEarly(fs, root, lockSize);
  const { entries } = early;
  let jobNow = early.now;
  early.job.then((j) => { jobNow = j; }, () => undefined);
  const jobFinished = !!jobNow.result?.finished_at;
  const names = trialFolderNames(entries);
  await yieldTurn(); // after the sort of 10,000 names: the first gather of trials is built in a turn of its own
  const assemble = (trials: readonly TrialRead[]) => runOf(root, entries, jobNow, trials);
  const trials = await readTrials(fs, root, names, jobFinished, opts.onProgress && ((p) => {
    opts.onProgress!({ done: p.done, total: p.total, partial: () => assemble(p.trials) });
  }));
  const job = await early.job;
  return { run: runOf(root, entries, job, trials, await tasksOfSliced(trials)), root, jobFinished, trials, job, jobStamp };
}

/** The trial folder a changed path lies in (its name), or undefined for the job folder itself and the job's own files. */
export function trialFolderOf(state: HarborJobState, p: string): string | undefined {
  if (!p.startsWith(`${state.root}/`)) return undefined;
  const rest = p.slice(state.root.length + 1);
  const name = rest.split('/')[0];
  if (!name || name.startsWith('.')) return undefined;
  if (!rest.includes('/') && (JOB_FILES.has(name) || /\.[^.]+$/.test(name))) return undefined;
  return name;
}

const JOB_FILES = new Set(['config.json', 'lock.json', 'result.json', 'job.log', 'analysis.json']);

/**
 * The job after changes inside the trial folders `names` only (written, created or deleted): the job's own files and
 * listing are read again, those trials re-read and every other trial kept as it was read. undefined when the job's
 * result says it finished or reopened since (every trial's outcome depends on that: read the whole job again).
 */
export async function rereadHarborTrials(fs: FsPort, prev: HarborJobState, names: readonly string[]): Promise<{ state: HarborJobState; read: number } | undefined> {
  const root = prev.root;
  const { stamp: jobStamp, lockSize } = await jobFilesStamp(fs, root);
  // The job's own files unchanged since they were read (a trial changed, not the job): only its listing is read again.
  const { entries, job } = prev.job && jobStamp === prev.jobStamp
    ? { entries: new Map<string, string>((await gather(fs, [root], [])).lists[0] ?? []), job: prev.job }
    : await readJobFiles(fs, root, lockSize);
  const jobFinished = !!job.result?.finished_at;
  if (jobFinished !== prev.jobFinished) return undefined;
  const changed = new Set(names);
  const fresh = await readTrials(fs, root, [...changed].filter((n) => entries.get(n) === 'dir').sort(), jobFinished);
  const trials = prev.trials.filter((t) => !changed.has(t.name)).concat(fresh).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { state: { run: runOf(root, entries, job, trials), root, jobFinished, trials, job, jobStamp }, read: fresh.length };
}

function runOf(root: string, entries: Map<string, string>, job: JobFiles, trials: readonly TrialRead[], tasks = tasksOf(trials)): Run {
  const problems = [...job.problems];
  if (entries.size === 0) {
    problems.push({ file: root, severity: 'error', code: 'missing-path', message: `the job folder ${root} is empty or not on disk` });
  }
  for (const t of trials) problems.push(...t.problems);
  problems.push(...foreignTrialProblems(job, trials));
  // Neither of the job's own files (discovery takes a folder of Harbor trials for their job without them): said.
  if (!job.files.some((f) => f.present && (f.label === 'config.json' || f.label === 'result.json'))) {
    problems.push({
      file: joinPath(root, 'config.json'), severity: 'warning', code: 'missing-file',
      message: 'the job\'s config.json and result.json are not in its folder (pruned, or not copied with its trials): the job is read from its trial folders alone',
    });
  }
  const finishedAt = job.result?.finished_at ?? null;
  const nTotal = job.result?.n_total_trials ?? null;
  if (finishedAt && nTotal !== null && nTotal > trials.length) {
    problems.push({
      file: joinPath(root, 'result.json'), severity: 'warning', code: 'missing-trials',
      message: `the job recorded ${plural(nTotal, 'trial')}, ${plural(trials.length, 'trial folder')} ${trials.length === 1 ? 'is' : 'are'} on disk`,
    });
  }
  const { identity, label } = identityOf(root, job, trials);
  const recorded = recordedOf(job);
  return {
    id: `harbor-job:${root}`,
    kind: 'harbor-job',
    root,
    anchor: root,
    label,
    identity,
    state: stateOf(!!finishedAt, trials),
    startedAt: job.result?.started_at ?? null,
    finishedAt,
    files: job.files,
    problems,
    unvalidated: [],
    skipped: [],
    tasks,
    ...(Object.keys(recorded).length ? { recorded } : {}),
  };
}
