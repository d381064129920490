// Streams the run's JSONL files into small per-repeat records (constant memory: no row is kept, only the few fields
// the summary needs). Lines are not JSON.parse'd whole: KeyPicker takes the wanted top-level keys and skips the rest
// (`response`, `ng_trajectory`, `responses_create_params.input`) at byte level.
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from '../fs/port';
import { jsonlLines } from '../jsonl';
import type { Problem } from '../model';
import { KeyPicker, RawValue } from './scan';
import { forEachLine } from './lines';
import { pickLine, RESULT_KEYS, type LineOutcome } from './lineOutcome';
import { defaultRowWorkers, forEachPickedLine, PARALLEL_MIN_BYTES, type EarlyPickedLines } from './parallelRows';

const META = new KeyPicker(['metadata']);
const TASK_INPUT = new KeyPicker(['responses_create_params', 'task_data', 'turns', 'steps'], { responses_create_params: META });
const INPUT_KEYS = ['task_id', '_ng_task_id', '_ng_task_index', '_ng_rollout_index', 'task_input', 'task_source'];
const INPUT = new KeyPicker(INPUT_KEYS, { task_input: TASK_INPUT });
/** INPUT with `task_input` left unparsed: the schedule parses it once per run of equal inputs. */
const INPUT_RAW = new KeyPicker(INPUT_KEYS, {}, ['task_input'], true);

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
  /** The line of the result row taken (to name an earlier row when a later one names the same repeat). */
  resultLine?: number;
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

  /** The task's record, created (with no repeat) when not selected yet. */
  task(taskId: string, taskIndex: number | null, taskset: string | null): TaskRecord {
    let k = this.key(taskId, taskIndex);
    if (!k) {
      k = taskIndex !== null ? `i:${taskIndex}` : `t:${taskId}`;
      this.tasks.set(k, { taskId, taskIndex, taskset, order: this.tasks.size, repeats: new Map() });
      if (!this.byId.has(taskId)) this.byId.set(taskId, k);
    }
    return this.tasks.get(k)!;
  }

  /** The repeat's record; created (with its task) when `create`, else undefined when not selected. */
  repeat(taskId: string, taskIndex: number | null, repeat: number, taskset: string | null, create: boolean): RepeatRecord | undefined {
    const k = this.key(taskId, taskIndex);
    if (!k && !create) return undefined;
    const t = k ? this.tasks.get(k)! : this.task(taskId, taskIndex, taskset);
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
  /**
   * Threads that pick the rows of a result or failure file (parallelRows.ts): 0 = this thread; undefined = the
   * default for files of PARALLEL_MIN_BYTES or more.
   */
  rowWorkers?: number;
  /** The chunk size of the row workers' reads (tests use small ones). */
  rowChunkBytes?: number;
  /**
   * No row is handed on (nor any problem said) before this resolves; on row workers the file is read and picked ahead
   * meanwhile (ParallelLineHandlers.ready).
   */
  ready?: Promise<void>;
}

/** `_ng_task_id` / `task_id`: `{taskset, task_id}` or a plain string (as schemas/nemoGym's taskIdOf). */
function taskIdOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const id = v && typeof v === 'object' ? (v as { task_id?: unknown }).task_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? (v === 0 ? 0 : v) : null); // -0 reads as 0
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const MAX_PROBLEMS_PER_FILE = 50;

/** A run file that exists but cannot be read (rule 8 of round 2): the summary would call its repeats missing. */
export class UnreadableRunFile extends Error {
  constructor(readonly file: string, cause: string) {
    super(`cannot read ${file}: ${cause}`);
    this.name = 'UnreadableRunFile';
  }
}

/** Problems of one file, at most MAX_PROBLEMS_PER_FILE of them listed (then one "more" line). */
export type Report = (p: Problem) => void;

/**
 * Streams `path`, handing every picked object line to `onRow`. Bad lines become Problems naming file and line; a
 * file that cannot be read throws UnreadableRunFile (with `fatal`) or is one Problem.
 */
async function scanFile(ctx: ScanContext, path: string, picker: KeyPicker,
  onRow: (row: Record<string, unknown>, line: number, report: Report) => void, fatal = true, workers = 0,
  /** The file's read on row workers, started earlier (build.ts): used instead of starting one. */
  early?: EarlyPickedLines): Promise<void> {
  let reported = 0;
  const add: Report = (p) => { if (reported++ < MAX_PROBLEMS_PER_FILE) ctx.problems.push(p); };
  // One line's outcome (picked here or on a row worker) into the row or its problems.
  const handle = (o: LineOutcome, line: number, terminated: boolean) => {
    if (o.bom) add({ file: path, line, severity: 'warning', code: 'bom', message: `${path} starts with a UTF-8 byte order mark: line 1 read without it` });
    if (o.badUtf8 !== undefined) {
      add({ file: path, line, severity: 'warning', code: 'invalid-utf8',
        message: `line ${line} holds bytes that are not UTF-8: they read as U+FFFD (\ufffd), so its task id and text are not what was written${o.badUtf8}` });
    }
    if (o.dupKey !== undefined) {
      add({ file: path, line, severity: 'warning', code: 'duplicate-key',
        message: `line ${line} gives the key "${o.dupKey}" twice in one object: the last one is read` });
    }
    let error = o.error;
    if (!error && o.row) {
      try {
        // A SyntaxError from onRow is the line's too (a value the picker handed back unparsed did not parse).
        onRow(o.row, line, add);
      } catch (e) {
        if (!(e instanceof RangeError) && !(e instanceof SyntaxError)) throw e;
        error = { range: e instanceof RangeError, message: e.message };
      }
    }
    if (!error) return;
    // A RangeError is a value nested too deep for a recursive walk (stack overflow): this line only is lost.
    if (error.range) {
      add({ file: path, line, severity: 'error', code: 'too-deep', message: `line ${line} is nested too deep to read: left out` });
      return;
    }
    add(terminated
      ? { file: path, line, severity: 'error', code: 'parse-error', message: `line ${line} is not a valid JSON object: ${error.message}` }
      // The last row cut off: a killed run (or one still writing). Its repeat is read as if it had no row.
      : { file: path, line, severity: 'warning', code: 'incomplete-tail',
        message: `line ${line} is cut off (no newline at the end of the file: a killed run, or one still writing)${o.cutIdentity ?? ''}: left out` });
  };
  const onLongLine = (line: number, bytes: number) => add({ file: path, line, severity: 'error', code: 'too-large',
    message: `line ${line} is ${bytes} bytes, over the ${ctx.fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES}-byte limit of one line (harborRuns.maxFileSizeMB): left out` });
  try {
    // A large file of result rows is picked on worker threads (the same outcomes, in file order); else here.
    const handlers = { onOutcome: handle, onLongLine, onBytes: ctx.onBytes, afterChunk: ctx.afterChunk, signal: ctx.signal, ready: ctx.ready };
    const parallel = early ? await early.attach(handlers)
      : workers > 0 && picker === RESULT_KEYS && await forEachPickedLine(ctx.fs, path, handlers, workers, ctx.rowChunkBytes);
    if (!parallel) {
      await ctx.ready;
      await forEachLine(ctx.fs, path, (buf, start, end, line, terminated) => {
        ctx.onBytes?.(end - start + 1);
        if ((line & 255) === 0 && ctx.signal?.aborted) throw ctx.signal.reason ?? new Error('cancelled');
        const o = pickLine(picker, buf, start, end, line === 1, terminated);
        if (o) handle(o, line, terminated);
      }, undefined, ctx.afterChunk, onLongLine);
    }
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    await ctx.ready; // said after what the caller says before it is ready
    const message = (e as Error).message;
    add({ file: path, severity: 'error', code: 'unreadable', message: `cannot read ${path}: ${message}` });
    if (fatal) throw new UnreadableRunFile(path, message);
  }
  if (reported > MAX_PROBLEMS_PER_FILE) {
    ctx.problems.push({ file: path, severity: 'warning', code: 'more-problems', message: `${reported - MAX_PROBLEMS_PER_FILE} more problems in ${path} not listed` });
  }
}

function identity(report: Report, path: string, line: number, row: Record<string, unknown>, idKey: string):
{ taskId: string; taskIndex: number | null; repeat: number; taskset: string | null } | undefined {
  const raw = row[idKey] ?? row._ng_task_id;
  const taskIndex = int(row._ng_task_index);
  // NeMo Gym environments other than Harbor's (blackjack, math, …) write no task id: the collector's task index
  // names the task there (as their aggregate metrics' group_level_metrics do), written as its decimal digits.
  const taskId = taskIdOf(raw) ?? (raw === undefined && taskIndex !== null && taskIndex >= 0 ? String(taskIndex) : undefined);
  const repeat = int(row._ng_rollout_index);
  if (taskId === undefined || repeat === null) {
    report({ file: path, line, severity: 'warning', code: 'row-without-identity',
      message: taskId === undefined
        ? `line ${line} names no task (no task id, no _ng_task_index): left out`
        : `line ${line} names no repeat (no whole-number _ng_rollout_index): left out` });
    return undefined;
  }
  const ts = obj(raw)?.taskset;
  return { taskId, taskIndex, repeat, taskset: typeof ts === 'string' ? ts : null };
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
  await scanFile(ctx, path, INPUT_RAW, (row, line, report) => {
    const id = identity(report, path, line, row, 'task_id');
    if (!id) return;
    source ??= str(row.task_source);
    const raw = row.task_input instanceof RawValue ? row.task_input : undefined;
    if (raw && last && last.taskId === id.taskId && raw.equals(last.bytes)) {
      sel.repeat(id.taskId, id.taskIndex, id.repeat, id.taskset, true)!.input = last.input;
      return;
    }
    // Parsed before the repeat is selected: a task_input that does not parse leaves the line out (its error).
    const input = inputOf(raw?.parse(TASK_INPUT));
    // Its interning key too: an input nested too deep for JSON.stringify (a RangeError) leaves the line out, not a
    // selected repeat without its input.
    const key = JSON.stringify(input);
    const r = sel.repeat(id.taskId, id.taskIndex, id.repeat, id.taskset, true)!;
    if (raw) last = { taskId: id.taskId, bytes: raw.copy(), input };
    const prev = interned.get(id.taskId);
    if (prev && prev.key === key) r.input = prev.input;
    else { interned.set(id.taskId, { key, input }); r.input = input; }
  });
  return source;
}

/**
 * Selects from un-expanded input rows (the prepared rows, else the collated input) when nothing else names the run's
 * schedule: one task per distinct task id, in file order (index = `_ng_task_index` or that order), `repeats` each;
 * with `repeats` null (no file records the count) the tasks are selected with no repeat at all.
 */
export async function readUnexpanded(ctx: ScanContext, path: string, sel: Selection, repeats: number | null): Promise<void> {
  let order = 0;
  await scanFile(ctx, path, INPUT, (row) => {
    const taskId = taskIdOf(row.task_id ?? row._ng_task_id);
    if (taskId === undefined || sel.key(taskId, null)) return;
    const index = int(row._ng_task_index) ?? order;
    order++;
    const ts = obj(row.task_id)?.taskset;
    const taskset = typeof ts === 'string' ? ts : null;
    sel.task(taskId, index, taskset);
    for (let r = 0; r < (repeats ?? 0); r++) sel.repeat(taskId, index, r, taskset, true)!.input = inputOf(row.task_input);
  }, false);
}

export interface RowsSummary { taskSources: Set<string>; rows: number; notSelected: number; taskIndexes: Set<string> }

/** Reads result or failure rows into the selection (`create`: no schedule, the rows themselves select). */
export async function readRows(ctx: ScanContext, path: string, kind: 'result' | 'failure', sel: Selection, create: boolean,
  acc: RowsSummary, logDirs: Set<string>, prefetch?: { add(logsDir: string): void }, early?: EarlyPickedLines): Promise<void> {
  const workers = early ? early.workers : await rowWorkersFor(ctx.fs, path, ctx.rowWorkers);
  await scanFile(ctx, path, RESULT_KEYS, (row, line, report) => {
    const id = identity(report, path, line, row, '_ng_task_id');
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
      // Two result rows for one repeat: the later one is kept (as a resumed run's collector would read the file),
      // and the earlier one is named, so nothing is skipped over silently.
      if (r.resultLine !== undefined) {
        report({ file: path, line, severity: 'warning', code: 'duplicate-row',
          message: `line ${line} is a second row for task ${id.taskId} repeat ${id.repeat} (the first is line ${r.resultLine}): line ${line} is kept` });
      }
      r.resultLine = line;
      if (typeof row.reward === 'number' && !Number.isFinite(row.reward)) {
        report({ file: path, line, severity: 'warning', code: 'number-out-of-range',
          message: `line ${line}: the reward of task ${id.taskId} repeat ${id.repeat} is a number beyond what a double holds (it reads as Infinity): read as not measured` });
      }
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
  }, true, workers, early);
}

/** Row workers for a file of result rows: as many as asked; by default some for a file of PARALLEL_MIN_BYTES or more, else none. */
export async function rowWorkersFor(fs: FsPort, path: string, asked: number | undefined): Promise<number> {
  if (asked !== undefined) return asked;
  const size = (await fs.stat(path).catch(() => undefined))?.size ?? 0;
  return size >= PARALLEL_MIN_BYTES ? defaultRowWorkers() : 0;
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
