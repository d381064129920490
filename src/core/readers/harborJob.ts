// A Harbor job folder (harbor-format.md §1) → the Run model: one task per task_name, one attempt per trial dir.
// Never throws: bad JSON anywhere is a Problem naming the file (line and column), and the rest is still read.
import type { FsPort } from '../fs/port';
import type { Attempt, Problem, Run, RunFile, RunState, Task } from '../model';
import {
  JobConfigSchema, JobLockSchema, JobResultSchema, jobCounts,
  type JobConfig, type JobLock, type JobResult,
} from '../schemas/harbor';
import { issueProblems, readJsonDocument } from './jsonFile';
import { listDir } from './harbor/evidence';
import { baseName, joinPath, trimDir } from './harbor/paths';
import { readTrial, type TrialRead } from './harbor/trial';

/** Trials are read this many at a time. */
const CONCURRENCY = 8;

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Whether a folder entry is a trial dir: a sub-folder with config.json or result.json (harbor view's rule). */
async function isTrialDir(fs: FsPort, dir: string): Promise<boolean> {
  const entries = await listDir(fs, dir);
  return entries.get('config.json') === 'file' || entries.get('result.json') === 'file';
}

/**
 * A Harbor job dir: it has config.json or result.json, and at least one sub-folder that is a trial (has config.json
 * or result.json) — harbor-format §1.3. A trial dir itself is not a job dir (its agent/ verifier/ hold neither).
 */
export async function isHarborJobDir(fs: FsPort, dir: string): Promise<boolean> {
  const root = trimDir(dir);
  const entries = await listDir(fs, root);
  if (entries.get('config.json') !== 'file' && entries.get('result.json') !== 'file') return false;
  for (const [name, type] of entries) {
    if (type !== 'dir' || name.startsWith('.')) continue;
    if (await isTrialDir(fs, joinPath(root, name))) return true;
  }
  return false;
}

interface JobFiles {
  config: JobConfig | null;
  result: JobResult | null;
  lock: JobLock | null;
  files: RunFile[];
  problems: Problem[];
}

async function readJobFiles(fs: FsPort, jobDir: string, entries: Map<string, string>): Promise<JobFiles> {
  const problems: Problem[] = [];
  const files: RunFile[] = [];
  const read = async <T>(name: string, key: string, label: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }): Promise<T | null> => {
    const path = joinPath(jobDir, name);
    const present = entries.get(name) === 'file';
    files.push({ key, label, path: present ? path : null, present });
    if (!present) return null;
    const doc = await readJsonDocument(fs, path, `job ${name}`, 'warning');
    problems.push(...doc.problems);
    if (!doc.ok) return null;
    const p = schema.safeParse(doc.value);
    if (p.success) return p.data;
    problems.push(...issueProblems(doc, p.error.issues, `job ${name}`, 5));
    return null;
  };
  const config = await read('config.json', 'job-config', 'config.json', JobConfigSchema);
  const lock = await read('lock.json', 'job-lock', 'lock.json', JobLockSchema);
  const result = await read('result.json', 'job-result', 'result.json', JobResultSchema);
  const log = entries.get('job.log') === 'file';
  files.push({ key: 'job-log', label: 'job.log', path: log ? joinPath(jobDir, 'job.log') : null, present: log });
  if (entries.get('analysis.json') === 'file') {
    files.push({ key: 'analysis', label: 'analysis.json', path: joinPath(jobDir, 'analysis.json'), present: true });
  }
  return { config, result, lock, files, problems };
}

function distinct(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))].sort();
}

function byStartThenName(a: TrialRead, b: TrialRead): number {
  const ta = a.startedAt ? Date.parse(a.startedAt) : Number.NaN;
  const tb = b.startedAt ? Date.parse(b.startedAt) : Number.NaN;
  const ka = Number.isFinite(ta) ? ta : Number.POSITIVE_INFINITY;
  const kb = Number.isFinite(tb) ? tb : Number.POSITIVE_INFINITY;
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Reads a Harbor job folder into a Run.
 * - State: `complete` when the job result.json has `finished_at`; otherwise `running` if any trial has no
 *   result.json yet (a trial is still going), else `incomplete` (every trial ended but the job never recorded its
 *   end: it crashed or was interrupted). A job without result.json counts as not finished.
 * - Tasks: trials grouped by `task_name`, sorted by name; attempts sorted by started_at, then trial name (a trial
 *   without a start time last). Attempts are numbered per `agent|model` cell, so each cell's attempts are
 *   #1..#n; the attempt id carries the cell when the job ran more than one.
 */
export async function readHarborJob(fs: FsPort, jobDir: string): Promise<Run> {
  const root = trimDir(jobDir);
  const entries = await listDir(fs, root);
  const job = await readJobFiles(fs, root, entries);
  const problems = [...job.problems];
  if (entries.size === 0) {
    problems.push({ file: root, severity: 'error', code: 'missing-path', message: `the job folder ${root} is empty or not on disk` });
  }

  const candidates: string[] = [];
  for (const [name, type] of entries) {
    if (type === 'dir' && !name.startsWith('.') && (await isTrialDir(fs, joinPath(root, name)))) candidates.push(name);
  }
  candidates.sort();

  const finishedAt = job.result?.finished_at ?? null;
  const jobFinished = !!finishedAt;
  const trials = await mapLimit(candidates, CONCURRENCY, (name) => readTrial(fs, root, name, jobFinished));
  for (const t of trials) problems.push(...t.problems);

  const state: RunState = jobFinished ? 'complete' : trials.some((t) => !t.hasResult) ? 'running' : 'incomplete';

  const cells = distinct(trials.map((t) => t.attempt.cell));
  const multiCell = cells.length > 1;
  const byTask = new Map<string, TrialRead[]>();
  for (const t of trials) {
    const list = byTask.get(t.taskName);
    if (list) list.push(t);
    else byTask.set(t.taskName, [t]);
  }
  const tasks: Task[] = [...byTask.keys()].sort().map((taskName, taskIndex) => {
    const reads = byTask.get(taskName)!.slice().sort(byStartThenName);
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
    return {
      id: taskName,
      index: taskIndex,
      label: taskName,
      attempts,
      ...(datasets.length ? { details: { dataset: datasets.join(', ') } } : {}),
    };
  });

  // Identity: from the job config, completed by what the trials recorded.
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

  const nTotal = job.result?.n_total_trials ?? null;
  if (jobFinished && nTotal !== null && nTotal > trials.length) {
    problems.push({
      file: joinPath(root, 'result.json'), severity: 'warning', code: 'missing-trials',
      message: `the job recorded ${nTotal} trials, ${trials.length} trial folders are on disk`,
    });
  }

  const recorded: Record<string, unknown> = {};
  if (nTotal !== null) recorded.n_total_trials = nTotal;
  if (job.result?.stats) {
    recorded.counts = jobCounts(job.result.stats);
    recorded.stats = job.result.stats;
  }

  return {
    id: `harbor-job:${root}`,
    kind: 'harbor-job',
    root,
    anchor: root,
    label,
    identity,
    state,
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
