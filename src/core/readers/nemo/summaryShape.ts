// The run summary document as the reader accepts it (docs/run-summary.md): a lenient zod schema whose issues
// become warnings, and a normalisation of the shapes producers use (tasks as a list or an object, stale_files as
// an object or a list, unvalidated / skipped as an object or a list) that reads whatever is usable and keeps the
// JSON path of every piece so a problem can point at it.
import { z } from 'zod';
import type { NamedReason } from '../../model';

const Rel = z.string().nullable().optional();
const NamedList = z.union([
  z.record(z.string(), z.string().nullable()),
  z.array(z.union([z.string(), z.looseObject({ task_id: z.string(), reason: z.string().nullable().optional() })])),
]);

export const SummaryRepeatSchema = z.looseObject({
  repeat: z.number().int().nonnegative(),
  outcome: z.string(),
  reward: z.number().nullable().optional(),
  mask_sample: z.boolean().nullable().optional(),
  failure_kind: z.string().nullable().optional(),
  failure_reason: z.string().nullable().optional(),
  failure_class: z.string().nullable().optional(),
  failure_stage: z.string().nullable().optional(),
  failure_terminal: z.boolean().nullable().optional(),
  verifier_mode: z.string().nullable().optional(),
  verifier_logs: Rel,
  test_stdout: Rel,
  reward_file: Rel,
  trajectory: Rel,
  artifacts: Rel,
  missing: z.array(z.string()).optional(),
  input: z.looseObject({
    digests: z.record(z.string(), z.string()).optional(),
    metadata: z.union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())]).optional(),
  }).nullable().optional(),
});

const TaskEntry = z.looseObject({ task_id: z.string().optional(), task_index: z.number().int().optional(), repeats: z.array(SummaryRepeatSchema) });
/** A task of the list form of `tasks` (the first form SummaryReadSchema accepts). */
export const SummaryTaskSchema = TaskEntry.extend({ task_id: z.string() });

/** Lenient reading schema of `<stem>_run_summary.json`: unknown keys kept, fields added over time optional. */
export const SummaryReadSchema = z.looseObject({
  schema_version: z.union([z.string(), z.number()]).optional(),
  target: z.string().nullable().optional(),
  taskset: z.string().nullable().optional(),
  agent: z.string().nullable().optional(),
  dataset: z.looseObject({
    source: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    version: z.string().nullable().optional(),
    folder: Rel,
    digests: z.record(z.string(), z.string()).nullable().optional(),
  }).nullable().optional(),
  task_source: z.string().nullable().optional(),
  result_task_source: z.string().nullable().optional(),
  files: z.record(z.string(), z.string().nullable()),
  stale_files: z.union([z.record(z.string(), z.string().nullable()), z.array(z.string())]).optional(),
  missing_paths: z.array(z.string()).optional(),
  unvalidated: NamedList.optional(),
  skipped: NamedList.optional(),
  tasks: z.union([z.array(SummaryTaskSchema), z.record(z.string(), TaskEntry)]).optional(),
});

const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const optBool = (v: unknown): boolean => v === undefined || v === null || typeof v === 'boolean';
const safeInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
/** An object as JSON.parse makes one, without a `__proto__` key (a record the schema certainly reads as written). */
const plainObj = (v: unknown): v is Obj => isObj(v) && Object.getPrototypeOf(v) === Object.prototype && !hasOwn(v, '__proto__');

/** A repeat SummaryRepeatSchema certainly passes (see plainlyValidTask). */
function plainlyValidRepeat(r: unknown): boolean {
  if (!plainObj(r) || !safeInt(r.repeat) || (r.repeat as number) < 0 || typeof r.outcome !== 'string') return false;
  const reward = r.reward;
  if (!(reward === undefined || reward === null || (typeof reward === 'number' && Number.isFinite(reward)))) return false;
  if (!optBool(r.mask_sample) || !optBool(r.failure_terminal)) return false;
  if (!optStr(r.failure_kind) || !optStr(r.failure_reason) || !optStr(r.failure_class) || !optStr(r.failure_stage) || !optStr(r.verifier_mode)) return false;
  if (!optStr(r.verifier_logs) || !optStr(r.test_stdout) || !optStr(r.reward_file) || !optStr(r.trajectory) || !optStr(r.artifacts)) return false;
  const missing = r.missing;
  if (missing !== undefined) {
    if (!Array.isArray(missing)) return false;
    for (let i = 0; i < missing.length; i++) if (typeof missing[i] !== 'string') return false;
  }
  const input = r.input;
  if (input === undefined || input === null) return true;
  if (!plainObj(input)) return false;
  const digests = input.digests;
  if (digests !== undefined) {
    if (!plainObj(digests)) return false;
    for (const k in digests) if (typeof digests[k] !== 'string') return false;
  }
  const meta = input.metadata;
  if (meta === undefined || plainObj(meta)) return true;
  if (!Array.isArray(meta)) return false;
  for (let i = 0; i < meta.length; i++) if (!plainObj(meta[i])) return false;
  return true;
}

/**
 * A task of the list form SummaryTaskSchema certainly passes, told without the schema (which took ~0.45 s of the
 * summary worker's thread for 40,000 repeats). Only ever true where the schema's check passes (a property test checks
 * it: test/unit/core/summaryShape.test.ts); false asks the schema, which says what is wrong. Stricter than the
 * schema where that is simpler (a `__proto__` key, an object whose prototype is not Object's).
 */
export function plainlyValidTask(t: unknown): boolean {
  if (!plainObj(t) || typeof t.task_id !== 'string' || !(t.task_index === undefined || safeInt(t.task_index))) return false;
  const repeats = t.repeats;
  if (!Array.isArray(repeats)) return false;
  for (let i = 0; i < repeats.length; i++) if (!plainlyValidRepeat(repeats[i])) return false;
  return true;
}

export type JsonPath = (string | number)[];
type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

export interface NormRepeat {
  raw: Obj;
  jsonPath: JsonPath;
  repeat: number;
}

export interface NormTask {
  taskId: string;
  index?: number;
  jsonPath: JsonPath;
  repeats: NormRepeat[];
}

/**
 * Tasks from the list or object form, one at a time (a caller with 10,000 tasks gives the event loop a turn between
 * them); entries that are not objects are skipped (the schema reports them).
 */
function normTask(entry: unknown, jsonPath: JsonPath, fallbackId: string): NormTask | undefined {
  if (!isObj(entry)) return undefined;
  const taskId = str(entry.task_id) ?? fallbackId;
  const index = num(entry.task_index) ?? undefined;
  const repeats: NormRepeat[] = [];
  const list = Array.isArray(entry.repeats) ? entry.repeats : [];
  list.forEach((r, i) => {
    if (!isObj(r)) return;
    const n = num(r.repeat);
    repeats.push({ raw: r, jsonPath: [...jsonPath, 'repeats', i], repeat: n !== null && n >= 0 ? Math.floor(n) : i });
  });
  return { taskId, index, jsonPath, repeats };
}

export function* normTasks(tasks: unknown): Generator<NormTask> {
  if (Array.isArray(tasks)) {
    for (let i = 0; i < tasks.length; i++) {
      const t = normTask(tasks[i], ['tasks', i], `task-${i}`);
      if (t) yield t;
    }
  } else if (isObj(tasks)) {
    for (const [k, v] of Object.entries(tasks)) {
      const t = normTask(v, ['tasks', k], k);
      if (t) yield t;
    }
  }
}

/** normTasks of a task list still being filled (`more`: the next tasks onto it; false once all are on it). */
export async function* normTasksFed(tasks: unknown[], more: () => Promise<boolean>): AsyncGenerator<NormTask> {
  for (let i = 0; ; i++) {
    while (i >= tasks.length) if (!await more()) return;
    const t = normTask(tasks[i], ['tasks', i], `task-${i}`);
    if (t) yield t;
  }
}

export interface NormStale {
  key: string;
  rel: string;
  jsonPath: JsonPath;
}

/** stale_files as {key: rel} or [rel]; a list entry's key is its file name. */
export function normStale(stale: unknown): NormStale[] {
  const out: NormStale[] = [];
  if (Array.isArray(stale)) {
    stale.forEach((v, i) => {
      const rel = str(v);
      if (rel) out.push({ key: rel.split('/').pop() || rel, rel, jsonPath: ['stale_files', i] });
    });
  } else if (isObj(stale)) {
    for (const [key, v] of Object.entries(stale)) {
      const rel = str(v);
      if (rel) out.push({ key, rel, jsonPath: ['stale_files', key] });
    }
  }
  return out;
}

/** unvalidated / skipped as {task: reason}, [{task_id, reason}] or [task]. */
export function normNamed(v: unknown): NamedReason[] {
  const out: NamedReason[] = [];
  if (Array.isArray(v)) {
    for (const e of v) {
      if (typeof e === 'string') out.push({ taskId: e, reason: '' });
      else if (isObj(e) && typeof e.task_id === 'string') out.push({ taskId: e.task_id, reason: str(e.reason) ?? '' });
    }
  } else if (isObj(v)) {
    for (const [taskId, reason] of Object.entries(v)) out.push({ taskId, reason: str(reason) ?? '' });
  }
  return out;
}

/** string keys of an object whose values are strings or null. */
export function normFiles(files: unknown): { key: string; rel: string | null }[] {
  if (!isObj(files)) return [];
  return Object.entries(files).map(([key, v]) => ({ key, rel: str(v) }));
}

const FILE_LABELS: Record<string, string> = {
  rollouts: 'Rollouts',
  failures: 'Failures sidecar',
  materialized_inputs: 'Materialized inputs',
  aggregate_metrics: 'Aggregate metrics',
  rows: 'Prepared rows',
  rows_prepare: 'Prepared rows (data processor)',
  rows_metrics: 'Prepared rows metrics',
  collated: 'Collated collector input',
  collated_metrics: 'Collated input metrics',
  collated_conflict: 'Collated metrics conflict',
  run_config: 'Run config',
  quality_summary: 'Health check summary',
  rollout_verdicts: 'Health check verdicts',
  sources: 'Aggregation sources',
};

/** "Rollouts" for 'rollouts', "Some key" for an unknown 'some_key'. */
export function fileLabel(key: string): string {
  const known = Object.prototype.hasOwnProperty.call(FILE_LABELS, key) ? FILE_LABELS[key] : undefined; // not "constructor"'s function
  if (known) return known;
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}
