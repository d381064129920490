// build_run_summary: joins the run's files into the summary document (rules 2–12; docs/run-summary.md). In order:
// where the run's files are (locate.ts), which outputs are this run's (files.ts, signatures.ts), the selection and
// its rows (rows.ts), the identity (identity.ts), the task entries (tasks.ts), and the labels.
import type { FsPort } from '../fs/port';
import type { Problem } from '../model';
import type { RunSummaryDocument } from '../schemas/runSummary';
import { RUN_SUMMARY_SCHEMA_VERSION } from './layout';
import { collectFiles, type FilesResult } from './files';
import { readManifestDataset, readPreviousSummary, resolveIdentity, type RunIdentity } from './identity';
import { locateRun, withRowsRoot, type RunPlace } from './locate';
import { normalizePath, PathRelator, relativePath, runSummaryPathFor } from './paths';
import {
  firstTaskSource, preparedIdentity, readRows, readSchedule, readUnexpanded, rowWorkersFor, Selection, type RowsSummary, type ScanContext,
} from './rows';
import { EarlyPickedLines } from './parallelRows';
import { appendedSince, readSignaturesSidecar, type OutputSignatures } from './signatures';
import { buildTasks, listMissing, settleUnvalidated } from './tasks';
import { rootFromLogDirs, VerifierPrefetch } from './verification';

export interface SummaryOptions {
  /** The collector's split; names the collated input `<stem>/preprocessed_datasets/<split>.jsonl`. Default 'validation'. */
  split?: string;
  /**
   * Output signatures taken before a fresh start dispatched. null = a resumed run: whatever is on disk is read.
   * undefined = look for the `<stem>_signatures.json` sidecar and use it when present (unless it was recorded before
   * a resume, or a resume appended to the outputs since), else as null.
   */
  beforeDispatch?: OutputSignatures | null;
  /** Tasks reference validation left out, with the reason (NO_REFERENCE_SOLUTION). Default: the previous summary's. */
  unvalidated?: Record<string, string>;
  /** Tasks that did not load, with the reason. Default: the previous summary's. */
  skipped?: Record<string, string>;
  identity?: { target?: string | null; agent?: string | null; taskset?: string | null };
  /** The run's repeat count as the caller knows it (`+num_repeats`): used when no file of this run records the schedule. */
  numRepeats?: number;
  /** The run config to use (`--run-config`), when the rollouts were written outside the results folder. */
  runConfig?: string;
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /**
   * Threads that pick the rows of the rollouts and failures files: 0 = this thread; default = one per core but one
   * (at least 1, at most 3) for a file of 16 MiB or more, this thread below (parallelRows.ts).
   */
  rowWorkers?: number;
}

/** Verifier-folder listings in flight at once without a batch backend (the libuv pool has 4 threads). */
const VERIFY_CONCURRENCY = 48;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
}

export async function buildRunSummary(fs: FsPort, rolloutsPath: string, opts: SummaryOptions = {}):
Promise<{ document: RunSummaryDocument; problems: Problem[] }> {
  const problems: Problem[] = [];
  const rollouts = normalizePath(rolloutsPath);
  const summaryPath = runSummaryPathFor(rollouts);
  const rel = await PathRelator.create(fs, summaryPath);
  throwIfAborted(opts.signal);

  // The rollouts are read and picked on row workers from now on, while the run's other files are found (their rows
  // are applied once the schedule is read, as in readSelection); not needed after all (not this run's), it is stopped.
  const workers = await rowWorkersFor(fs, rollouts, opts.rowWorkers);
  const early = workers > 0 ? new EarlyPickedLines(fs, rollouts, workers) : undefined;
  let read: SelectionRead;
  let place: RunPlace;
  let f: FilesResult;
  let previous: Awaited<ReturnType<typeof readPreviousSummary>>;
  try {
    place = await locateRun(fs, rollouts, opts.runConfig, problems);
    const beforeDispatch = await dispatchSignatures(fs, rollouts, opts.beforeDispatch, problems);
    f = await collectFiles(fs, rel, { rolloutsPath: rollouts, split: opts.split ?? 'validation', rowsPath: place.rowsPath, beforeDispatch, problems });
    previous = await readPreviousSummary(fs, summaryPath, problems);
    read = await readSelection(fs, rel, place, f, rollouts, opts, problems, f.readable.rollouts === rollouts ? early : undefined);
  } finally {
    await early?.cancel();
  }
  place = await withRowsRoot(fs, place, rootFromLogDirs(read.logDirs));
  throwIfAborted(opts.signal);

  const ctx: ScanContext = { fs, problems, signal: opts.signal };
  const own = await ownIdentity(ctx, rel, place, f, read.sel);
  const identity = resolveIdentity(opts.identity, own, previous, summaryPath, problems);
  const unvalidated = settleUnvalidated(opts.unvalidated ?? previous?.unvalidated ?? {},
    opts.unvalidated ? 'the caller' : 'the earlier summary', identity.agent, read.sel, summaryPath, problems);
  const tasks = await buildTasks(fs, rel, place.root, read.sel, unvalidated, read.prefetch, opts.signal);
  const missingPaths = listMissing(tasks, summaryPath, problems);
  // An unknown schedule matters only for the tasks the summary lists (a validate whose tasks are all unvalidated lists none).
  const scheduleUnknown = tasks.length > 0 ? read.scheduleUnknown : null;
  if (scheduleUnknown) {
    problems.push({ file: rollouts, severity: 'warning', code: 'schedule-unknown',
      message: `the schedule is unknown: ${scheduleUnknown} (pass --num-repeats N)` });
  }
  const labels = await taskSources(ctx, f, place, read, identity.taskset, summaryPath);

  const document: RunSummaryDocument = {
    schema_version: RUN_SUMMARY_SCHEMA_VERSION,
    target: identity.target,
    taskset: identity.taskset,
    agent: identity.agent,
    dataset: identity.dataset,
    task_source: labels.taskSource,
    result_task_source: labels.resultTaskSource,
    files: f.files,
    stale_files: f.stale,
    missing_paths: missingPaths,
    unvalidated,
    skipped: opts.skipped ?? previous?.skipped ?? {},
    ...(scheduleUnknown ? { schedule_unknown: scheduleUnknown } : {}),
    tasks,
  };
  return { document, problems };
}

/**
 * Rule 10's signatures: the caller's; else the sidecar's, unless it was recorded before a resumed run, or a resume
 * appended to the outputs since (item 9: a fresh start that died leaves its sidecar, and the resume after it must
 * not find its own cached files "stale").
 */
async function dispatchSignatures(fs: FsPort, rollouts: string, given: OutputSignatures | null | undefined,
  problems: Problem[]): Promise<OutputSignatures | null> {
  if (given !== undefined) return given;
  const side = await readSignaturesSidecar(fs, rollouts, problems);
  if (!side) return null;
  if (await appendedSince(fs, rollouts, side)) {
    problems.push({ file: rollouts, severity: 'info', code: 'resumed',
      message: 'resumed: the outputs grew by appending since the signatures sidecar was taken, so they are this run\'s (the sidecar is an earlier fresh start\'s)' });
    return null;
  }
  return side;
}

interface SelectionRead {
  sel: Selection;
  acc: RowsSummary;
  logDirs: Set<string>;
  prefetch: VerifierPrefetch;
  /** The first task_source of this run's materialized inputs. */
  scheduleSource: string | null;
  /** Why no file of this run records the repeat count (the tasks are then listed with no repeat). */
  scheduleUnknown: string | null;
}

/**
 * Rule 5 (and items 3–4 of round 2): this run's materialized inputs name every task and repeat. A stale one (an
 * earlier run's) is not read. Without it, whatever this run's rollouts and failures hold selects. With none of
 * them, the prepared rows (else the collated input) name the tasks, with the repeat count a file of this run records
 * (or the caller passes); when none does, the schedule is unknown: said in the summary and as a warning.
 */
async function readSelection(fs: FsPort, rel: PathRelator, place: RunPlace, f: FilesResult, rollouts: string,
  opts: SummaryOptions, problems: Problem[], early?: EarlyPickedLines): Promise<SelectionRead> {
  const schedulePath = f.readable.materialized_inputs;
  let total = 0;
  for (const p of [schedulePath, f.readable.rollouts, f.readable.failures]) if (p) total += (await fs.stat(p))?.size ?? 0;
  let read = 0;
  let lastReport = 0;
  const onBytes = (n: number) => {
    read += n;
    if (opts.onProgress && read - lastReport >= 4 << 20) { lastReport = read; opts.onProgress(read, total); }
  };
  const ctx: ScanContext = { fs, problems, signal: opts.signal, onBytes, rowWorkers: opts.rowWorkers };
  const sel = new Selection();
  const acc: RowsSummary = { taskSources: new Set(), rows: 0, notSelected: 0, taskIndexes: new Set() };
  const logDirs = new Set<string>();
  // The verifier folders are probed while the rows are still being scanned (the disk overlaps the CPU).
  const prefetch = new VerifierPrefetch(fs, rel, place.resultsDir, place.root, VERIFY_CONCURRENCY);
  // The rollouts are read and picked on row workers while this thread reads the schedule; their rows are applied once
  // it is read (the same order of rows and problems as one after the other). A schedule that cannot be read stops it.
  let scheduleRead: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => { scheduleRead = resolve; });
  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal?.reason ?? new Error('cancelled'));
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const rows = f.readable.rollouts
    ? readRows({ ...ctx, signal: stop.signal, ready, afterChunk: () => prefetch.backpressure() }, f.readable.rollouts, 'result', sel, !schedulePath, acc, logDirs, prefetch, early)
    : undefined;
  rows?.catch(() => undefined); // (awaited below; a failure must not go unhandled while the schedule is read)
  let scheduleSource: string | null;
  try {
    try {
      scheduleSource = schedulePath ? await readSchedule(ctx, schedulePath, sel) : null;
    } catch (e) {
      stop.abort(e);
      scheduleRead();
      await rows?.catch(() => undefined);
      throw e;
    }
    scheduleRead();
    await rows;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (f.readable.failures) await readRows(ctx, f.readable.failures, 'failure', sel, !schedulePath, acc, logDirs);
  let scheduleUnknown: string | null = null;
  if (!schedulePath && sel.tasks.size === 0) {
    const inputs = f.files.rows ? f.paths.rows : f.files.collated ? f.paths.collated : null;
    if (inputs) {
      const repeats = opts.numRepeats ?? place.config.numRepeats ?? null;
      await readUnexpanded({ ...ctx, onBytes: undefined }, inputs, sel, repeats);
      if (repeats === null && sel.tasks.size > 0) {
        scheduleUnknown = 'no file of this run records its schedule (no materialized inputs of its own, no rollouts, no failures) '
          + 'and the repeat count was not given: the tasks are listed with no repeat';
      }
    }
  }
  opts.onProgress?.(read, total);
  if (acc.notSelected > 0) {
    problems.push({ file: f.readable.rollouts ?? f.readable.failures ?? rollouts, severity: 'warning', code: 'row-not-selected',
      message: `${acc.notSelected} row(s) name a task or repeat the materialized inputs do not select: left out` });
  }
  return { sel, acc, logDirs, prefetch, scheduleSource, scheduleUnknown };
}

/** The identity this run's own files give: run config, dataset manifest, rows. */
async function ownIdentity(ctx: ScanContext, rel: PathRelator, place: RunPlace, f: FilesResult, sel: Selection): Promise<RunIdentity> {
  const { config, root, originalRoot } = place;
  let folder: string | null = null;
  let manifest: { source?: string; name?: string; version?: string } = {};
  if (config.datasetFolder) {
    const located = await root.locate(ctx.fs, config.datasetFolder);
    if (await ctx.fs.stat(located)) {
      folder = await rel.rel(located);
      manifest = await readManifestDataset(ctx.fs, located);
    } else if (originalRoot) {
      // Outside the moved results folder and not reachable here: its place relative to the results at run time.
      folder = relativePath(originalRoot, config.datasetFolder);
    } else folder = await rel.rel(config.datasetFolder);
  }
  let digests = config.digests ?? digestsOf(sel);
  let taskset = config.taskset ?? [...sel.tasks.values()].find((t) => t.taskset)?.taskset ?? null;
  if ((!Object.keys(digests).length || !taskset) && f.files.rows) {
    const prepared = await preparedIdentity(ctx, f.paths.rows);
    if (!Object.keys(digests).length) digests = prepared.digests;
    taskset ??= prepared.taskset;
  }
  return {
    target: null,
    taskset,
    agent: config.agent ?? null,
    dataset: { source: manifest.source ?? null, name: manifest.name ?? null, version: manifest.version ?? null, folder, digests },
  };
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

/** Rule 2: the label the rows were materialized with, and the one the result and failure rows carry. */
async function taskSources(ctx: ScanContext, f: FilesResult, place: RunPlace, read: SelectionRead, taskset: string | null,
  summaryPath: string): Promise<{ taskSource: string | null; resultTaskSource: string | null }> {
  const materialized = read.scheduleSource
    ?? (f.files.collated ? await firstTaskSource(ctx, f.paths.collated) : null)
    ?? (f.files.rows_prepare ? await firstTaskSource(ctx, f.paths.rows_prepare) : null)
    ?? place.config.resourcesServer ?? null;
  // No file records the label (a validate that dispatched nothing): the harbor path names the resources server
  // `harbor_<taskset>_resources_server` (tasks/harbor/cli.py build_run), which is what materialization stamps.
  const taskSource = materialized ?? (taskset && f.files.rows ? `harbor_${taskset}_resources_server` : null);
  const rows = f.readable.rollouts ?? f.paths.rollouts;
  let resultTaskSource: string | null = null;
  if (read.acc.taskSources.size === 1) resultTaskSource = [...read.acc.taskSources][0];
  else if (read.acc.taskSources.size > 1) {
    ctx.problems.push({ file: rows, severity: 'warning', code: 'task-source-disagreement',
      message: `the result and failure rows carry different task_source labels (${[...read.acc.taskSources].join(', ')}): another run wrote part of them` });
  }
  if (resultTaskSource !== null && materialized !== null && resultTaskSource !== materialized) {
    ctx.problems.push({ file: summaryPath, jsonPath: ['result_task_source'], severity: 'warning', code: 'task-source-mismatch',
      message: `the rows carry task_source '${resultTaskSource}' but were materialized as '${materialized}': another run wrote that results file` });
  }
  return { taskSource, resultTaskSource };
}
