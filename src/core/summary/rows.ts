// Streams the run's JSONL files into small per-repeat records (constant memory: no row is kept, only the few fields
// the summary needs). Lines are not JSON.parse'd whole: KeyPicker takes the wanted top-level keys and skips the rest
// (`response`, `ng_trajectory`, `responses_create_params.input`) at byte level.
import type { FsPort } from '../fs/port';
import { jsonlLines } from '../jsonl';
import type { Problem } from '../model';
import { KeyPicker, RawValue } from './scan';
import { forEachLine } from './lines';

const META = new KeyPicker(['metadata']);
const RESULT = new KeyPicker([
  '_ng_task_id', '_ng_task_index', '_ng_rollout_index', 'reward', 'mask_sample', 'failure_kind', 'failure_reason',
  'verifier_logs_dir', 'verifier_mode', 'task_source', 'responses_create_params',
  '_ng_failure_class', '_ng_failure_stage', '_ng_failure_terminal', '_ng_failure_message',
], { responses_create_params: META });
const TASK_INPUT = new KeyPicker(['responses_create_params', 'task_data', 'turns', 'steps'], { responses_create_params: META });
const INPUT_KEYS = ['task_id', '_ng_task_id', '_ng_task_index', '_ng_rollout_index', 'task_input', 'task_source'];
const INPUT = new KeyPicker(INPUT_KEYS, { task_input: TASK_INPUT });
/** INPUT with `task_input` left unparsed: the schedule parses it once per run of equal inputs. */
const INPUT_RAW = new KeyPicker(INPUT_KEYS, {}, ['task_input']);

export interface InputRecord { digests: Record<string, string>; metadata: Record<string, unknown>[] }

export interface ResultRecord {
  reward: number | null;
  mask_sample: boolean | null;
  failure_kind: string | null;
  failure_reason: string | null;
  verifier_mode: string | null;
  logsDir: string | null;
  metadata: Record<string, unknown> | null;
}

export interface FailureRecord {
  failure_class: string | null;
  failure_stage: string | null;
  failure_terminal: boolean | null;
  message: string | null;
  failure_kind: string | null;
  verifier_mode: string | null;
}

export interface RepeatRecord {
  repeat: number;
  result?: ResultRecord;
  failure?: FailureRecord;
  input?: InputRecord;
}

export interface TaskRecord {
  taskId: string;
  taskIndex: number | null;
  taskset: string | null;
  order: number;
  repeats: Map<number, RepeatRecord>;
}

/** The selected tasks and repeats, keyed by task index (or by id for rows without one). */
export class Selection {
  readonly tasks = new Map<string, TaskRecord>();
  private readonly byId = new Map<string, string>();

  key(taskId: string, taskIndex: number | null): string | undefined {
    if (taskIndex !== null && this.tasks.has(`i:${taskIndex}`)) return `i:${taskIndex}`;
    return this.byId.get(taskId);
  }

  /** The repeat's record; created (with its task) when `create`, else undefined when not selected. */
  repeat(taskId: string, taskIndex: number | null, repeat: number, taskset: string | null, create: boolean): RepeatRecord | undefined {
    let k = this.key(taskId, taskIndex);
    if (!k) {
      if (!create) return undefined;
      k = taskIndex !== null ? `i:${taskIndex}` : `t:${taskId}`;
      this.tasks.set(k, { taskId, taskIndex, taskset, order: this.tasks.size, repeats: new Map() });
      if (!this.byId.has(taskId)) this.byId.set(taskId, k);
    }
    const t = this.tasks.get(k)!;
    let r = t.repeats.get(repeat);
    if (!r) {
      if (!create) return undefined;
      r = { repeat };
      t.repeats.set(repeat, r);
    }
    return r;
  }
}

export interface ScanContext {
  fs: FsPort;
  problems: Problem[];
  signal?: AbortSignal;
  /** Called with the bytes of every line read (progress). */
  onBytes?: (n: number) => void;
  /** Called after each chunk's lines; a promise it returns is awaited before the next chunk (backpressure). */
  afterChunk?: () => Promise<void> | undefined;
}

/** `_ng_task_id` / `task_id`: `{taskset, task_id}` or a plain string (as schemas/nemoGym's taskIdOf). */
function taskIdOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const id = v && typeof v === 'object' ? (v as { task_id?: unknown }).task_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const MAX_PROBLEMS_PER_FILE = 50;

/** Streams `path`, handing every picked object line to `onRow`. Bad lines become Problems naming file and line. */
async function scanFile(ctx: ScanContext, path: string, picker: KeyPicker,
  onRow: (row: Record<string, unknown>, line: number) => void): Promise<void> {
  let reported = 0;
  const add = (p: Problem) => { if (reported++ < MAX_PROBLEMS_PER_FILE) ctx.problems.push(p); };
  try {
    await forEachLine(ctx.fs, path, (buf, start, end, line, terminated) => {
      ctx.onBytes?.(end - start + 1);
      if ((line & 255) === 0 && ctx.signal?.aborted) throw ctx.signal.reason ?? new Error('cancelled');
      let k = start;
      while (k < end && (buf[k] === 32 || buf[k] === 9 || buf[k] === 13)) k++;
      if (k === end) return;
      try {
        // A SyntaxError from onRow is the line's too (a value the picker handed back unparsed did not parse).
        onRow(picker.pickRange(buf, k, end), line);
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
        add(terminated
          ? { file: path, line, severity: 'error', code: 'parse-error', message: `line ${line} is not a valid JSON object: ${(e as Error).message}` }
          : { file: path, line, severity: 'info', code: 'incomplete-tail', message: `line ${line} is incomplete (no newline yet): the file is probably still being written` });
        return;
      }
    }, undefined, ctx.afterChunk);
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    add({ file: path, severity: 'error', code: 'unreadable', message: `cannot read ${path}: ${(e as Error).message}` });
  }
  if (reported > MAX_PROBLEMS_PER_FILE) {
    ctx.problems.push({ file: path, severity: 'warning', code: 'more-problems', message: `${reported - MAX_PROBLEMS_PER_FILE} more problems in ${path} not listed` });
  }
}

function identity(ctx: ScanContext, path: string, line: number, row: Record<string, unknown>, idKey: string):
{ taskId: string; taskIndex: number | null; repeat: number; taskset: string | null } | undefined {
  const raw = row[idKey] ?? row._ng_task_id;
  const taskId = taskIdOf(raw);
  const repeat = int(row._ng_rollout_index);
  if (taskId === undefined || repeat === null) {
    ctx.problems.push({ file: path, line, severity: 'warning', code: 'row-without-identity',
      message: `line ${line} names no task id and _ng_rollout_index: left out` });
    return undefined;
  }
  const ts = obj(raw)?.taskset;
  return { taskId, taskIndex: int(row._ng_task_index), repeat, taskset: typeof ts === 'string' ? ts : null };
}

/** What a materialized row carried: its digests and `responses_create_params.metadata`, per turn. */
export function inputOf(taskInput: unknown): InputRecord {
  const ti = obj(taskInput);
  const digests: Record<string, string> = {};
  const data = obj(ti?.task_data);
  if (data) for (const [k, v] of Object.entries(data)) if (/digest/i.test(k) && typeof v === 'string') digests[k] = v;
  const metadata: Record<string, unknown>[] = [];
  const metaOf = (rcp: unknown) => metadata.push(obj(obj(rcp)?.metadata) ?? {});
  const rcp = ti?.responses_create_params;
  if (Array.isArray(rcp)) rcp.forEach(metaOf);
  else if (rcp !== undefined) metaOf(rcp);
  else {
    const turns = Array.isArray(ti?.turns) ? ti.turns : Array.isArray(ti?.steps) ? ti.steps : [];
    for (const t of turns as unknown[]) metaOf(obj(t)?.responses_create_params);
  }
  return { digests, metadata };
}

/** Reads the schedule (materialized inputs): every selected task and repeat, with its input. Returns the first task_source. */
export async function readSchedule(ctx: ScanContext, path: string, sel: Selection): Promise<string | null> {
  let source: string | null = null;
  // The repeats of a task carry the same input: one shared record per distinct input (memory for 40k repeats).
  const interned = new Map<string, { key: string; input: InputRecord }>();
  // The repeats of a task are usually written one after another with the same bytes: then the row before's input
  // is taken as is, without parsing `task_input` again.
  let last: { taskId: string; bytes: Uint8Array; input: InputRecord } | undefined;
  await scanFile(ctx, path, INPUT_RAW, (row, line) => {
    const id = identity(ctx, path, line, row, 'task_id');
    if (!id) return;
    source ??= str(row.task_source);
    const raw = row.task_input instanceof RawValue ? row.task_input : undefined;
    if (raw && last && last.taskId === id.taskId && raw.equals(last.bytes)) {
      sel.repeat(id.taskId, id.taskIndex, id.repeat, id.taskset, true)!.input = last.input;
      return;
    }
    // Parsed before the repeat is selected: a task_input that does not parse leaves the line out (its error).
    const input = inputOf(raw?.parse(TASK_INPUT));
    const r = sel.repeat(id.taskId, id.taskIndex, id.repeat, id.taskset, true)!;
    if (raw) last = { taskId: id.taskId, bytes: raw.copy(), input };
    const key = JSON.stringify(input);
    const prev = interned.get(id.taskId);
    if (prev && prev.key === key) r.input = prev.input;
    else { interned.set(id.taskId, { key, input }); r.input = input; }
  });
  return source;
}

/**
 * Selects from un-expanded input rows (the collated input, else the prepared rows) when nothing else names the run's
 * schedule: one task per distinct task id, in file order (index = `_ng_task_index` or that order), `repeats` each.
 */
export async function readUnexpanded(ctx: ScanContext, path: string, sel: Selection, repeats: number): Promise<void> {
  let order = 0;
  await scanFile(ctx, path, INPUT, (row) => {
    const taskId = taskIdOf(row.task_id ?? row._ng_task_id);
    if (taskId === undefined || sel.key(taskId, null)) return;
    const index = int(row._ng_task_index) ?? order;
    order++;
    const ts = obj(row.task_id)?.taskset;
    for (let r = 0; r < repeats; r++) {
      sel.repeat(taskId, index, r, typeof ts === 'string' ? ts : null, true)!.input = inputOf(row.task_input);
    }
  });
}

export interface RowsSummary { taskSources: Set<string>; rows: number; notSelected: number; taskIndexes: Set<string> }

/** Reads result or failure rows into the selection (`create`: no schedule, the rows themselves select). */
export async function readRows(ctx: ScanContext, path: string, kind: 'result' | 'failure', sel: Selection, create: boolean,
  acc: RowsSummary, logDirs: Set<string>, prefetch?: { add(logsDir: string): void }): Promise<void> {
  await scanFile(ctx, path, RESULT, (row, line) => {
    const id = identity(ctx, path, line, row, '_ng_task_id');
    if (!id) return;
    acc.rows++;
    const ts = str(row.task_source);
    if (ts !== null) acc.taskSources.add(ts);
    const r = sel.repeat(id.taskId, id.taskIndex, id.repeat, id.taskset, create);
    if (!r) { acc.notSelected++; return; }
    if (kind === 'result') {
      const logsDir = str(row.verifier_logs_dir);
      if (logsDir && logDirs.size < 64) logDirs.add(logsDir);
      if (logsDir) prefetch?.add(logsDir);
      // A later row for the same repeat (a retry, a resumed run) replaces an earlier one.
      r.result = {
        reward: num(row.reward), mask_sample: bool(row.mask_sample), failure_kind: str(row.failure_kind),
        failure_reason: str(row.failure_reason), verifier_mode: str(row.verifier_mode), logsDir,
        metadata: obj(obj(row.responses_create_params)?.metadata),
      };
    } else {
      r.failure = {
        failure_class: str(row._ng_failure_class), failure_stage: str(row._ng_failure_stage),
        failure_terminal: bool(row._ng_failure_terminal), message: str(row._ng_failure_message),
        failure_kind: str(row.failure_kind), verifier_mode: str(row.verifier_mode),
      };
    }
  });
}

/** The first `task_source` among the first rows of a small JSONL (collated input, `_prepare.jsonl`); null when none. */
export async function firstTaskSource(ctx: ScanContext, path: string, maxLines = 8): Promise<string | null> {
  try {
    for await (const { line, bytes } of jsonlLines(ctx.fs, path)) {
      if (line > maxLines) break;
      try {
        const v = INPUT.pick(bytes).task_source;
        if (typeof v === 'string') return v;
      } catch { /* try the next line */ }
    }
  } catch { /* unreadable: none */ }
  return null;
}

/** Digests (task id → `_ng_digest`) and taskset of the prepared rows; used when no run config or schedule names them. */
export async function preparedIdentity(ctx: ScanContext, path: string): Promise<{ digests: Record<string, string>; taskset: string | null }> {
  const digests: Record<string, string> = {};
  let taskset: string | null = null;
  try {
    for await (const { bytes } of jsonlLines(ctx.fs, path)) {
      try {
        const row = INPUT.pick(bytes);
        const id = taskIdOf(row.task_id);
        const ts = obj(row.task_id)?.taskset;
        if (taskset === null && typeof ts === 'string') taskset = ts;
        const d = inputOf(row.task_input).digests._ng_digest;
        if (id !== undefined && d) digests[id] = d;
      } catch { /* a bad prepared row names nothing */ }
    }
  } catch { /* unreadable: nothing */ }
  return { digests, taskset };
}
