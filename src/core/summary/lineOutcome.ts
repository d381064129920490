// What one JSONL line of a run file gives the writer, computed the same way on this thread and on the row workers
// (parallelRows.ts): blank, or the picked keys, or why not (with the line's honest-input remarks). The problems
// themselves are made by the caller, which alone knows the line's number and the file's problem count.
import { invalidUtf8At, startsWithBom } from '../honestInput';
import { fastSkip, KeyPicker, ScanError } from './scan';
import { FAST_SKIP_MAX } from './skipWasm';
import { asBuffer } from '../bytes';

/**
 * The keys the writer takes from a result or failure row. A value equal (byte for byte) to the previous row's is not
 * parsed again (KeyPicker's `reuse`: the rows repeat their task id, flags, labels and metadata): picked rows may share
 * those values, and nothing changes them.
 */
export const RESULT_KEYS = new KeyPicker([
  '_ng_task_id', '_ng_task_index', '_ng_rollout_index', 'reward', 'mask_sample', 'failure_kind', 'failure_reason',
  'verifier_logs_dir', 'verifier_mode', 'task_source', 'responses_create_params',
  '_ng_failure_class', '_ng_failure_stage', '_ng_failure_terminal', '_ng_failure_message',
], { responses_create_params: new KeyPicker(['metadata'], {}, [], true) }, [], true);

export interface LineOutcome {
  /** Line 1 began with a UTF-8 byte order mark (read without it). */
  bom?: true;
  /** The line holds bytes that are not UTF-8: the task and repeat it names, as far as they can be read (may be ''). */
  badUtf8?: string;
  row?: Record<string, unknown>;
  /** A picked key the row gives twice (its last value is the one in `row`, as JSON.parse would read it). */
  dupKey?: string;
  /** The picker's error: a SyntaxError, or a RangeError (nested too deep for a recursive walk). */
  error?: { range: boolean; message: string };
  /** A line with no newline after it (a cut-off last row): what it names, as partialIdentity (for its error). */
  cutIdentity?: string;
}

/** Best effort: the task and repeat a cut-off or mangled row names, when its identity keys came before the cut. */
export function partialIdentity(buf: Uint8Array, start: number, end: number): string {
  const text = new TextDecoder().decode(buf.subarray(start, Math.min(end, start + (1 << 20))));
  const task = /"_ng_task_id"\s*:\s*(?:\{[^{}]*?"task_id"\s*:\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)")/.exec(text)
    ?? /"task_id"\s*:\s*(?:\{[^{}]*?"task_id"\s*:\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)")/.exec(text);
  const rep = /"_ng_rollout_index"\s*:\s*(\d+)/.exec(text);
  const id = task ? task[1] ?? task[2] : undefined;
  if (id === undefined) return '';
  return ` (task ${id}${rep ? ` repeat ${rep[1]}` : ''})`;
}

/**
 * The line `buf[start, end)` (no newline, no trailing \r); `first`: it is line 1 of its file; `terminated`: a
 * newline follows it. undefined when blank.
 */
export function pickLine(picker: KeyPicker, buf: Uint8Array, start: number, end: number, first: boolean,
  terminated = true): LineOutcome | undefined {
  let k = start;
  const out: LineOutcome = {};
  if (first && startsWithBom(buf, k)) { k += 3; out.bom = true; }
  while (k < end && (buf[k] === 32 || buf[k] === 9 || buf[k] === 13)) k++;
  if (k === end) return out.bom ? out : undefined;
  if (invalidUtf8At(buf, k, end) >= 0) out.badUtf8 = partialIdentity(buf, k, end);
  try {
    out.row = picker.pickRange(buf, k, end);
    if (picker.duplicate !== undefined) out.dupKey = picker.duplicate;
  } catch (e) {
    if (e instanceof RangeError) out.error = { range: true, message: e.message };
    // The byte counted from the line's start (not from the start of whatever chunk of the file holds the line).
    else if (e instanceof ScanError) out.error = { range: false, message: `unexpected input at byte ${e.at - start}` };
    else if (e instanceof SyntaxError) out.error = { range: false, message: e.message };
    else throw e;
  }
  if (!terminated) out.cutIdentity = partialIdentity(buf, k, end);
  return out;
}

export interface RowJob {
  id: number;
  bytes: Uint8Array;
  /** Whole lines are bytes [start, end) of `bytes`, each ended by a newline. */
  start: number;
  end: number;
  /** The job's first line is line 1 of the file. */
  first: boolean;
}

export interface RowAnswer {
  id: number;
  bytes: Uint8Array;
  /** Lines in the job, blank ones included. */
  lines: number;
  /** [index of the line in the job, its outcome] for each non-blank line (empty when `packed` holds them). */
  outcomes: [number, LineOutcome][];
  /** The outcomes as a row worker sends them (packOutcomes). */
  packed?: PackedOutcomes;
  /** The picker failed in an unexpected way: the job is done again on the writer's thread. */
  failed?: string;
}

/** One job's lines (also run on the writer's thread when no worker can). */
export function runRowJob(job: RowJob): RowAnswer {
  // With this thread's skipper (a row worker's: skipWasm.ts), the lines are scanned in its memory, copied there.
  const fast = fastSkip();
  const copied = fast !== undefined && job.end - job.start <= FAST_SKIP_MAX;
  const buf = (copied ? fast.load(job.bytes, job.start, job.end) : asBuffer(job.bytes)) as Buffer;
  const from = copied ? 0 : job.start, to = copied ? job.end - job.start : job.end;
  const outcomes: [number, LineOutcome][] = [];
  let lines = 0;
  for (let s = from; s < to; lines++) {
    let nl = buf.indexOf(10, s);
    if (nl < 0 || nl >= to) nl = to;
    const e = nl > s && buf[nl - 1] === 13 ? nl - 1 : nl;
    const o = pickLine(RESULT_KEYS, buf, s, e, job.first && lines === 0);
    if (o) outcomes.push([lines, o]);
    s = nl + 1;
  }
  return { id: job.id, bytes: job.bytes, lines, outcomes };
}

/**
 * Outcomes as a row worker sends them: one JSON text, which the writer's thread JSON.parses, instead of a structured
 * clone of every picked row (deserializing 40,000 rows' small objects cost that thread about 1 s of a 1 GB file,
 * JSON.parse of the same rows a fifth of it). An outcome holding a number JSON cannot carry (`1e400` reads as
 * Infinity, which JSON writes as null) is sent as it is, in `cloned`, at its place in the list.
 */
export interface PackedOutcomes { text: string; cloned: [number, [number, LineOutcome]][] }

/** Whether `v` holds a number that is not finite anywhere inside (an explicit stack: no recursion limit). */
function holdsNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (!v || typeof v !== 'object') return false;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'number') { if (!Number.isFinite(x)) return true; continue; }
    if (!x || typeof x !== 'object') continue;
    if (Array.isArray(x)) { for (const y of x) stack.push(y); continue; }
    for (const k in x as Record<string, unknown>) stack.push((x as Record<string, unknown>)[k]);
  }
  return false;
}

export function packOutcomes(outcomes: [number, LineOutcome][]): PackedOutcomes {
  const cloned: [number, [number, LineOutcome]][] = [];
  let plain = outcomes;
  for (let k = 0; k < outcomes.length; k++) {
    if (!holdsNonFinite(outcomes[k][1].row)) continue;
    if (plain === outcomes) plain = outcomes.slice();
    cloned.push([k, outcomes[k]]);
    plain[k] = [outcomes[k][0], {}];
  }
  return { text: JSON.stringify(plain), cloned };
}

export function unpackOutcomes(p: PackedOutcomes): [number, LineOutcome][] {
  const outcomes = JSON.parse(p.text) as [number, LineOutcome][];
  for (const [k, o] of p.cloned) outcomes[k] = o;
  return outcomes;
}
