// The `tasks` list (rules 4–7): which selected tasks get an entry (a task reference validation left out has none,
// one that ran always has), one repeat entry per selected repeat with its outcome and verifier paths, and the
// top-level `missing_paths` gathered from them.
import type { FsPort } from '../fs/port';
import type { Problem } from '../model';
import type { Outcome, RunSummaryInput, RunSummaryRepeat, RunSummaryTask } from '../schemas/runSummary';
import { TimeSlice } from '../turn';
import type { PathRelator } from './paths';
import type { RepeatRecord, Selection, TaskRecord } from './rows';
import { MovedRoot, resolveMissing, VerifierPrefetch, type VerifierPaths } from './verification';

/** The agent `gym dataset validate` runs: the only run that leaves tasks out as `unvalidated`. */
export const REFERENCE_AGENT = 'oracle_agent';
const MAX_MISSING_PROBLEMS = 200;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
}

const ran = (t: TaskRecord): boolean => {
  for (const r of t.repeats.values()) if (r.result || r.failure) return true;
  return false;
};

/**
 * `unvalidated` as this run has it. Only a validate run (the reference agent) leaves tasks out: a model run's
 * earlier or given list is dropped with a warning. A task named there that has rows of this run ran: it keeps its
 * entry (scored rows are never dropped) and leaves the list, with a warning.
 */
export function settleUnvalidated(named: Record<string, string>, from: string, agent: string | null, sel: Selection,
  file: string, problems: Problem[]): Record<string, string> {
  const ids = Object.keys(named);
  if (!ids.length) return {};
  if (agent !== null && agent !== REFERENCE_AGENT) {
    problems.push({ file, severity: 'warning', code: 'unvalidated-in-model-run',
      message: `a model run (agent ${agent}) validates none: the ${ids.length} unvalidated task(s) ${from} names are not this run's (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})` });
    return {};
  }
  const withRows = new Set<string>();
  for (const t of sel.tasks.values()) if (ran(t)) withRows.add(t.taskId);
  const out: Record<string, string> = {};
  for (const id of ids) {
    if (withRows.has(id)) {
      problems.push({ file, severity: 'warning', code: 'unvalidated-has-rows',
        message: `task ${id} is named unvalidated (${from}) but has rows in this run: its entry is kept` });
    } else out[id] = named[id];
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

interface Slot { rec: RepeatRecord; out?: RunSummaryRepeat }

/** Every task entry, its repeats' verifier folders taken from the prefetch or located now. */
export async function buildTasks(fs: FsPort, rel: PathRelator, root: MovedRoot, sel: Selection,
  unvalidated: Record<string, string>, prefetch: VerifierPrefetch, signal?: AbortSignal): Promise<RunSummaryTask[]> {
  const jobs: Slot[] = [];
  const tasks = sortedTasks(sel, unvalidated).map((t) => {
    const repeats = [...t.repeats.values()].sort((a, b) => a.repeat - b.repeat);
    const slots = repeats.map((rec) => { const j: Slot = { rec }; jobs.push(j); return j; });
    return { t, slots };
  });
  // Only a row that names a verifier folder needs the disk; the rest are built synchronously.
  const withFolder: Slot[] = [];
  for (const j of jobs) {
    if (j.rec.result?.logsDir) withFolder.push(j);
    else j.out = repeatEntry(j.rec, null);
  }
  // Most folders were listed during the scan (found where the row names them): taken in order, without a promise
  // per repeat once their parent folder is located. The others (gone, in a moved results folder, or named through
  // `..`) are located now that the results root is known, in batches.
  const slow: Slot[] = [];
  const slice = new TimeSlice();
  for (let i = 0; i < withFolder.length; i++) {
    if ((i & 255) === 255 && slice.due) {
      await slice.yield();
      throwIfAborted(signal);
    }
    const j = withFolder[i];
    const logsDir = j.rec.result!.logsDir!;
    const found = prefetch.takeNow(logsDir) ?? await prefetch.take(logsDir);
    if (found === 'slow') slow.push(j);
    else j.out = repeatEntry(j.rec, found);
  }
  const located = await resolveMissing(fs, rel, root, slow.map((j) => j.rec.result!.logsDir!), signal);
  slow.forEach((j, i) => { j.out = repeatEntry(j.rec, located[i]); });
  throwIfAborted(signal);
  return tasks.map(({ t, slots }) => ({ task_id: t.taskId, task_index: t.taskIndex, repeats: slots.map((s) => s.out!) }));
}

/**
 * A verifier folder that is there holds what a verification always writes: `test-stdout.txt` (test.sh's output is
 * redirected there whenever it runs) and, in separate mode, `artifacts/` (collected before the verifier sandbox
 * starts). The trajectory (its export may be skipped) and a shared-mode `artifacts/` are optional; a reward file
 * test.sh did not write is what the row's `failure_kind` (`harbor:missing_reward`) already reports. The promised
 * ones absent are this verification's missing paths.
 */
function promisedMissing(v: VerifierPaths, mode: string | null): string[] {
  const logs = v.verifier_logs;
  if (logs === null) return [...v.missing];
  const missing = [...v.missing];
  const under = (name: string) => (logs === '.' ? name : `${logs.replace(/\/+$/, '')}/${name}`);
  if (v.test_stdout === null) missing.push(under('test-stdout.txt'));
  if (v.artifacts === null && mode === 'separate') missing.push(under('artifacts'));
  return missing;
}

const NO_PATHS: VerifierPaths = { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };

/** Rule 4: one repeat's outcome, reward, failure details, verifier paths and input. */
export function repeatEntry(rec: RepeatRecord, paths: VerifierPaths | null): RunSummaryRepeat {
  const input: RunSummaryInput = rec.input ? { digests: rec.input.digests, metadata: rec.input.metadata }
    : { digests: {}, metadata: rec.result?.metadata ? [rec.result.metadata] : [] };
  const v = paths ?? NO_PATHS;
  const missing = rec.result ? promisedMissing(v, rec.result.verifier_mode) : [...v.missing];
  const where = {
    verifier_logs: v.verifier_logs, test_stdout: v.test_stdout, reward_file: v.reward_file,
    trajectory: v.trajectory, artifacts: v.artifacts, missing, input,
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

/** `missing_paths`: every repeat's missing paths, de-duplicated, in task order; the first 200 as Problems too. */
export function listMissing(tasks: RunSummaryTask[], summaryPath: string, problems: Problem[]): string[] {
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
  return missingPaths;
}
