// build_run_summary: joins the run's files into the summary document (rules 2–12; docs/run-summary.md).
import type { FsPort } from '../fs/port';
import type { Problem } from '../model';
import type {
  Outcome, RunSummaryDocument, RunSummaryInput, RunSummaryRepeat, RunSummaryTask,
} from '../schemas/runSummary';
import { RUN_SUMMARY_SCHEMA_VERSION } from './layout';
import { TimeSlice } from '../turn';
import { collectFiles } from './files';
import { readManifestDataset, readPreviousSummary, readRunConfig } from './identity';
import { dirname, joinPath, normalizePath, PathRelator, relativePath, runSummaryPathFor } from './paths';
import { firstTaskSource, preparedIdentity, readRows, readUnexpanded, readSchedule, Selection, type RepeatRecord, type RowsSummary, type TaskRecord } from './rows';
import { readSignaturesSidecar, type OutputSignatures } from './signatures';
import { MovedRoot, Pool, rootFromLogDirs, VerifierPrefetch, verifierPaths, type VerifierPaths } from './verification';

export interface SummaryOptions {
  /** The collector's split; names the collated input `<stem>/preprocessed_datasets/<split>.jsonl`. Default 'validation'. */
  split?: string;
  /**
   * Output signatures taken before a fresh start dispatched. null = a resumed run: whatever is on disk is read.
   * undefined = look for the `<stem>_signatures.json` sidecar and use it when present, else as null.
   */
  beforeDispatch?: OutputSignatures | null;
  /** Tasks reference validation left out, with the reason (NO_REFERENCE_SOLUTION). Default: the previous summary's. */
  unvalidated?: Record<string, string>;
  /** Tasks that did not load, with the reason. Default: the previous summary's. */
  skipped?: Record<string, string>;
  identity?: { target?: string | null; agent?: string | null; taskset?: string | null };
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Reserved (the clock, for tests); the document itself holds no time. */
  now?: () => number;
}

/** Verifier-folder listings in flight at once (the libuv pool has 4 threads; the rest wait in a short queue). */
const VERIFY_CONCURRENCY = 48;
const MAX_MISSING_PROBLEMS = 200;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
}

export async function buildRunSummary(fs: FsPort, rolloutsPath: string, opts: SummaryOptions = {}):
Promise<{ document: RunSummaryDocument; problems: Problem[] }> {
  const problems: Problem[] = [];
  const split = opts.split ?? 'validation';
  const rollouts = normalizePath(rolloutsPath);
  const rolloutsDir = dirname(rollouts);
  const summaryPath = runSummaryPathFor(rollouts);
  const rel = await PathRelator.create(fs, summaryPath);
  throwIfAborted(opts.signal);

  const config = await readRunConfig(fs, joinPath(rolloutsDir, 'run_config.yaml'));
  // A results folder moved as a whole: the root the run config names no longer exists (see verification.ts).
  const movedFrom = async (r: string | null) => (r && !(await fs.stat(r)) ? r : null);
  let originalRoot = await movedFrom(config.rowsPath ? dirname(config.rowsPath) : config.artifactsDir ? dirname(config.artifactsDir) : null);
  let root = new MovedRoot(originalRoot, rolloutsDir);
  const rowsPath = config.rowsPath ? await root.locate(fs, config.rowsPath) : joinPath(rolloutsDir, 'tasks.jsonl');

  const beforeDispatch = opts.beforeDispatch !== undefined ? opts.beforeDispatch
    : (await readSignaturesSidecar(fs, rollouts, problems)) ?? null;
  const f = await collectFiles(fs, rel, { rolloutsPath: rollouts, split, rowsPath, beforeDispatch, problems });
  const previous = await readPreviousSummary(fs, summaryPath, problems);

  // Selection (rule 5): the materialized inputs name every task and repeat; when a fresh start left the earlier
  // run's file (stale), it is still the only record of the schedule under these names: it selects, its rows are not
  // results. Without it, whatever the rollouts and failures files hold.
  const schedulePath = f.readable.materialized_inputs ?? f.staleMaterialized;
  let total = 0;
  for (const p of [schedulePath, f.readable.rollouts, f.readable.failures]) if (p) total += (await fs.stat(p))?.size ?? 0;
  let read = 0;
  let lastReport = 0;
  const onBytes = (n: number) => {
    read += n;
    if (opts.onProgress && read - lastReport >= 4 << 20) { lastReport = read; opts.onProgress(read, total); }
  };
  const ctx = { fs, problems, signal: opts.signal, onBytes };
  const sel = new Selection();
  const scheduleSource = schedulePath ? await readSchedule(ctx, schedulePath, sel) : null;
  const acc: RowsSummary = { taskSources: new Set(), rows: 0, notSelected: 0, taskIndexes: new Set() };
  const logDirs = new Set<string>();
  // The verifier folders are listed while the rows are still being scanned (the disk overlaps the CPU).
  const prefetch = new VerifierPrefetch(fs, rel, rolloutsDir, VERIFY_CONCURRENCY);
  if (f.readable.rollouts) {
    await readRows({ ...ctx, afterChunk: () => prefetch.backpressure() }, f.readable.rollouts, 'result', sel, !schedulePath, acc, logDirs, prefetch);
  }
  if (f.readable.failures) await readRows(ctx, f.readable.failures, 'failure', sel, !schedulePath, acc, logDirs);
  if (!schedulePath && sel.tasks.size === 0) {
    // Nothing ran and nothing names the schedule (rule 12): the run's selection is its collated input, else its
    // prepared rows, every repeat missing.
    const inputs = f.files.collated ? f.paths.collated : f.files.rows ? f.paths.rows : null;
    if (inputs) await readUnexpanded({ ...ctx, onBytes: undefined }, inputs, sel, config.numRepeats ?? 1);
  }
  opts.onProgress?.(read, total);
  if (acc.notSelected > 0) {
    problems.push({ file: f.readable.rollouts ?? f.readable.failures ?? rollouts, severity: 'warning', code: 'row-not-selected',
      message: `${acc.notSelected} row(s) name a task or repeat the materialized inputs do not select: left out` });
  }
  if (!originalRoot) {
    originalRoot = await movedFrom(rootFromLogDirs(logDirs));
    root = new MovedRoot(originalRoot, rolloutsDir);
  }
  throwIfAborted(opts.signal);

  const unvalidated = opts.unvalidated ?? previous?.unvalidated ?? {};
  const skipped = opts.skipped ?? previous?.skipped ?? {};
  const tasks = await buildTasks(fs, rel, root, sel, unvalidated, prefetch, opts.signal);
  const missingPaths: string[] = [];
  const seen = new Set<string>();
  for (const t of tasks) for (const r of t.repeats) for (const m of r.missing) {
    if (seen.has(m)) continue;
    seen.add(m);
    if (missingPaths.length < MAX_MISSING_PROBLEMS) {
      problems.push({ file: summaryPath, jsonPath: ['missing_paths', missingPaths.length], severity: 'warning', code: 'missing-path',
        message: `task ${t.task_id} repeat ${r.repeat} names ${m}, which is not on disk` });
    }
    missingPaths.push(m);
  }
  if (missingPaths.length > MAX_MISSING_PROBLEMS) {
    problems.push({ file: summaryPath, severity: 'warning', code: 'more-problems',
      message: `${missingPaths.length - MAX_MISSING_PROBLEMS} more missing paths (see missing_paths)` });
  }

  // Rule 2: the label the rows were materialized with, and the one the result and failure rows carry.
  const taskSource = scheduleSource !== null && f.readable.materialized_inputs ? scheduleSource
    : (f.files.collated ? await firstTaskSource(ctx, f.paths.collated) : null)
      ?? (f.files.rows_prepare ? await firstTaskSource(ctx, f.paths.rows_prepare) : null)
      ?? scheduleSource ?? config.resourcesServer ?? null;
  let resultTaskSource: string | null = null;
  if (acc.taskSources.size === 1) resultTaskSource = [...acc.taskSources][0];
  else if (acc.taskSources.size > 1) {
    problems.push({ file: f.readable.rollouts ?? rollouts, severity: 'warning', code: 'task-source-disagreement',
      message: `the result and failure rows carry different task_source labels (${[...acc.taskSources].join(', ')}): another run wrote part of them` });
  }
  if (resultTaskSource !== null && taskSource !== null && resultTaskSource !== taskSource) {
    problems.push({ file: summaryPath, jsonPath: ['result_task_source'], severity: 'warning', code: 'task-source-mismatch',
      message: `the rows carry task_source '${resultTaskSource}' but were materialized as '${taskSource}': another run wrote that results file` });
  }

  // Dataset: folder and digests from the run config; source/name/version kept from the previous summary, else the
  // folder's manifest.toml.
  let folder: string | null = previous?.dataset?.folder ?? null;
  let manifest = {};
  if (config.datasetFolder) {
    const located = await root.locate(fs, config.datasetFolder);
    if (await fs.stat(located)) {
      folder = await rel.rel(located);
      manifest = await readManifestDataset(fs, located);
    } else if (originalRoot) {
      // Outside the moved results folder and not reachable here: its place relative to the results at run time.
      folder = relativePath(originalRoot, config.datasetFolder);
    } else folder = await rel.rel(config.datasetFolder);
  }
  const m = manifest as { source?: string; name?: string; version?: string };
  let digests = config.digests ?? previous?.dataset?.digests ?? digestsOf(sel);
  let firstTaskset = [...sel.tasks.values()].find((t) => t.taskset)?.taskset ?? null;
  if ((!Object.keys(digests).length || !firstTaskset) && f.files.rows) {
    const prepared = await preparedIdentity(ctx, f.paths.rows);
    if (!Object.keys(digests).length) digests = prepared.digests;
    firstTaskset ??= prepared.taskset;
  }

  const taskset = pick(opts.identity?.taskset, previous?.taskset, config.taskset ?? firstTaskset);
  // No file records the label (a validate that dispatched nothing): the harbor path names the resources server
  // `harbor_<taskset>_resources_server` (tasks/harbor/cli.py build_run), which is what materialization stamps.
  const label = taskSource ?? (taskset && f.files.rows ? `harbor_${taskset}_resources_server` : null);

  const document: RunSummaryDocument = {
    schema_version: RUN_SUMMARY_SCHEMA_VERSION,
    target: pick(opts.identity?.target, previous?.target, null),
    taskset,
    agent: pick(opts.identity?.agent, previous?.agent, config.agent ?? null),
    dataset: {
      source: previous?.dataset?.source ?? m.source ?? null,
      name: previous?.dataset?.name ?? m.name ?? null,
      version: previous?.dataset?.version ?? m.version ?? null,
      folder,
      digests,
    },
    task_source: label,
    result_task_source: resultTaskSource,
    files: f.files,
    stale_files: f.stale,
    missing_paths: missingPaths,
    unvalidated,
    skipped,
    tasks,
  };
  return { document, problems };
}

function pick(flag: string | null | undefined, prev: string | null | undefined, derived: string | null): string | null {
  if (flag !== undefined) return flag;
  return prev ?? derived;
}

function digestsOf(sel: Selection): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of sel.tasks.values()) {
    for (const r of t.repeats.values()) {
      const d = r.input?.digests._ng_digest;
      if (d) { out[t.taskId] = d; break; }
    }
  }
  return out;
}

function sortedTasks(sel: Selection, unvalidated: Record<string, string>): TaskRecord[] {
  return [...sel.tasks.values()]
    .filter((t) => !Object.prototype.hasOwnProperty.call(unvalidated, t.taskId))
    .sort((a, b) => {
      if (a.taskIndex !== null && b.taskIndex !== null && a.taskIndex !== b.taskIndex) return a.taskIndex - b.taskIndex;
      if ((a.taskIndex === null) !== (b.taskIndex === null)) return a.taskIndex === null ? 1 : -1;
      return a.order - b.order;
    });
}

async function buildTasks(fs: FsPort, rel: PathRelator, root: MovedRoot, sel: Selection,
  unvalidated: Record<string, string>, prefetch: VerifierPrefetch, signal?: AbortSignal): Promise<RunSummaryTask[]> {
  const ordered = sortedTasks(sel, unvalidated);
  const jobs: { rec: RepeatRecord; out?: RunSummaryRepeat }[] = [];
  const tasks = ordered.map((t) => {
    const repeats = [...t.repeats.values()].sort((a, b) => a.repeat - b.repeat);
    const slots = repeats.map((rec) => { const j: { rec: RepeatRecord; out?: RunSummaryRepeat } = { rec }; jobs.push(j); return j; });
    return { t, slots };
  });
  // Only a row that names a verifier folder needs the disk; the rest are built synchronously.
  const withFolder: typeof jobs = [];
  for (const j of jobs) {
    if (j.rec.result?.logsDir) withFolder.push(j);
    else j.out = repeatEntry(j.rec, null);
  }
  // Most folders were listed during the scan (found where the row names them): taken in order, without a promise
  // per repeat once their parent folder is located. The others (gone, or in a moved results folder) are located now
  // that the results root is known, in windows, not 40k promises at once (memory).
  const slow: typeof jobs = [];
  const slice = new TimeSlice();
  for (let i = 0; i < withFolder.length; i++) {
    if ((i & 255) === 255 && slice.due) {
      // A turn for the event loop (the extension host) when the repeats are all taken without waiting.
      await slice.yield();
      throwIfAborted(signal);
    }
    const j = withFolder[i];
    const logsDir = j.rec.result!.logsDir!;
    const found = prefetch.takeNow(logsDir) ?? await prefetch.take(logsDir);
    if (found) j.out = repeatEntry(j.rec, found);
    else slow.push(j);
  }
  const pool = new Pool(VERIFY_CONCURRENCY);
  for (let i = 0; i < slow.length; i += 1024) {
    throwIfAborted(signal);
    await Promise.all(slow.slice(i, i + 1024).map(async (j) => {
      const logsDir = j.rec.result!.logsDir!;
      const paths = await pool.run(() => { throwIfAborted(signal); return verifierPaths(fs, rel, root, logsDir); });
      j.out = repeatEntry(j.rec, paths);
    }));
  }
  throwIfAborted(signal);
  return tasks.map(({ t, slots }) => ({ task_id: t.taskId, task_index: t.taskIndex, repeats: slots.map((s) => s.out!) }));
}

/** Rule 4: one repeat's outcome, reward, failure details, verifier paths and input. */
export function repeatEntry(rec: RepeatRecord, paths: VerifierPaths | null): RunSummaryRepeat {
  const input: RunSummaryInput = rec.input ? { digests: rec.input.digests, metadata: rec.input.metadata }
    : { digests: {}, metadata: rec.result?.metadata ? [rec.result.metadata] : [] };
  const v = paths ?? { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };
  const where = {
    verifier_logs: v.verifier_logs, test_stdout: v.test_stdout, reward_file: v.reward_file,
    trajectory: v.trajectory, artifacts: v.artifacts, missing: v.missing, input,
  };
  if (rec.result) {
    const r = rec.result;
    const outcome: Outcome = r.mask_sample === true ? 'masked' : 'scored';
    return {
      repeat: rec.repeat, outcome, reward: r.reward, mask_sample: r.mask_sample, failure_kind: r.failure_kind,
      failure_reason: r.failure_reason, verifier_mode: r.verifier_mode, ...where,
    };
  }
  if (rec.failure) {
    const x = rec.failure;
    return {
      repeat: rec.repeat, outcome: 'failed', reward: null, mask_sample: null, failure_kind: x.failure_kind,
      failure_reason: x.message, failure_class: x.failure_class, failure_stage: x.failure_stage,
      failure_terminal: x.failure_terminal, verifier_mode: x.verifier_mode, ...where,
    };
  }
  return {
    repeat: rec.repeat, outcome: 'missing', reward: null, mask_sample: null, failure_kind: null, failure_reason: null,
    verifier_mode: null, ...where,
  };
}
