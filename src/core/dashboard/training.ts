// Training curves (docs/formats.md#viewer-data: runs/<id>/train/metrics.jsonl, one object per step, append-only): the rows kept as
// columns of numbers (a 100k-line file is a few typed arrays, not 100k objects), and the part a chart shows — a
// step range, every n-th row so at most `maxPoints` are sent to the webview, the last row of the range always in.
import type { FsPort } from '../fs/port';
import { type AppendMark, grownSince, markAt } from '../appendMark';
import { type JsonlPosition, readJsonl } from '../jsonl';
import { TimeSlice } from '../turn';
import type { TrainingSeries } from '../../protocol/dashboard';

/** The series a chart draws, in this order; other numeric keys of the rows are kept too (after these). */
export const TRAINING_KEYS = ['reward', 'reward_std', 'loss', 'kl', 'entropy', 'ratio', 'n_unscorable'] as const;
/** Keys that are not curves (the x axis, counters of the step). */
const NOT_A_CURVE = new Set(['step', 'n_rollouts', 'wall_s']);
const MAX_KEYS = 24;

/** A column's slot with no number (null, not finite, or the key absent from that row). */
const NONE = Number.NaN;

function grown(a: Float64Array, cap: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(cap);
  b.set(a);
  b.fill(NONE, a.length);
  return b;
}

/**
 * The rows of a metrics.jsonl as columns: the steps and each numeric key in a Float64Array (NaN where a row has no
 * number), grown by doubling. A copy is a few memcpy's and the garbage collector has no number objects to trace, so
 * reading on after an append costs what the new lines cost.
 */
export class TrainingTable {
  private n = 0;
  private stepBuf: Float64Array<ArrayBuffer> = new Float64Array(64);
  private readonly cols = new Map<string, Float64Array<ArrayBuffer>>();
  /** The row at which each column first had a key (a column only a taken-back last line had goes with it). */
  private readonly born = new Map<string, number>();
  badLines = 0;
  live = false;
  /** Where the read that made this table ended, and what tells at the next read that the file has only grown since. */
  mark: AppendMark | undefined;
  /** What a last line without a newline added (a row, or a bad line): read again by the next read, so taken back. */
  tail = { rows: 0, bad: 0 };
  /** The read that made this table: whether it went on from an earlier table, and how many rows it added. */
  lastRead = { continued: false, rows: 0 };

  /** Adds one row (true); rows without a numeric `step` are counted as bad and left out (false). */
  add(row: Record<string, unknown>): boolean {
    const step = row.step;
    if (typeof step !== 'number' || !Number.isFinite(step)) { this.badLines++; return false; }
    const i = this.n;
    if (i === this.stepBuf.length) {
      const cap = i * 2;
      this.stepBuf = grown(this.stepBuf, cap);
      for (const [k, col] of this.cols) this.cols.set(k, grown(col, cap));
    }
    this.stepBuf[i] = step;
    for (const key in row) {
      if (NOT_A_CURVE.has(key)) continue;
      const v = row[key];
      if (typeof v !== 'number' && v !== null) continue;
      let col = this.cols.get(key);
      if (!col) {
        if (this.cols.size >= MAX_KEYS) continue;
        col = new Float64Array(this.stepBuf.length).fill(NONE);
        this.cols.set(key, col);
        this.born.set(key, i);
      }
      col[i] = typeof v === 'number' && Number.isFinite(v) ? v : NONE;
    }
    this.n = i + 1;
    return true;
  }

  /** A copy to read on into (the table a chart was cut from stays as it was). */
  copy(): TrainingTable {
    const t = new TrainingTable();
    t.n = this.n;
    t.stepBuf = this.stepBuf.slice();
    for (const [k, col] of this.cols) t.cols.set(k, col.slice());
    for (const [k, i] of this.born) t.born.set(k, i);
    t.badLines = this.badLines;
    t.live = this.live;
    t.mark = this.mark;
    t.tail = { ...this.tail };
    return t;
  }

  /** Takes back what the last line without a newline added. */
  dropTail(): void {
    const n = this.n - this.tail.rows;
    for (const [k, col] of this.cols) {
      if (this.born.get(k)! >= n) { this.cols.delete(k); this.born.delete(k); } else col.fill(NONE, n, this.n);
    }
    this.n = n;
    this.badLines -= this.tail.bad;
    this.tail = { rows: 0, bad: 0 };
  }

  get size(): number {
    return this.n;
  }

  /** Where a read of the file grown by appending goes on from (after its last line with a newline). */
  get resume(): JsonlPosition {
    return this.mark?.resume ?? { byte: 0, line: 0 };
  }

  /** The step of row i. */
  step(i: number): number {
    return this.stepBuf[i];
  }

  /** The keys with a column, in the order they were first seen. */
  get keys(): string[] {
    return [...this.cols.keys()];
  }

  /** Row i's number for `key` (null when the row has none). */
  value(key: string, i: number): number | null {
    const v = this.cols.get(key)?.[i];
    return v === undefined || Number.isNaN(v) ? null : v;
  }

  /** Every step, as a plain array (tests and small tables: a copy). */
  get steps(): number[] {
    return Array.from(this.stepBuf.subarray(0, this.n));
  }

  /** Every column as plain arrays with null where a row has no number (tests and small tables: a copy). */
  get columns(): Map<string, (number | null)[]> {
    return new Map(this.keys.map((k) => [k, Array.from({ length: this.n }, (_, i) => this.value(k, i))]));
  }
}

/** Parses rows already in memory (tests, and the reader's callback). */
export function trainingTableOf(rows: Iterable<Record<string, unknown>>): TrainingTable {
  const t = new TrainingTable();
  for (const r of rows) t.add(r);
  return t;
}

/**
 * Streams a metrics.jsonl into a table; an incomplete last line marks it live. The work is cut into time slices
 * with a turn of the event loop between them, so a long file never holds the extension host.
 *
 * With `prev` (the table of an earlier read of the same file), only what was appended since is read: the new lines
 * are added to a copy of it. When the bytes before where `prev` ended are no longer the same (the file was rewritten
 * or replaced), or the file is now shorter, the whole file is read again.
 */
export async function readTrainingTable(fs: FsPort, path: string, prev?: TrainingTable): Promise<TrainingTable> {
  let t = new TrainingTable();
  let continued = false;
  if (prev && await grownSince(fs, path, prev.mark)) {
    t = prev.copy();
    t.dropTail();
    continued = true;
  }
  const before = t.size;
  const slice = new TimeSlice();
  const from = t.resume;
  const res = await readJsonl(fs, path, (row, _line, terminated) => {
    const added = t.add(row);
    if (!terminated) { if (added) t.tail.rows++; else t.tail.bad++; }
    return slice.due ? slice.yield() : undefined;
  }, { maxProblems: 20, from: from.byte > 0 ? from : undefined });
  for (const p of res.problems) {
    if (p.code !== 'parse-error' && p.code !== 'not-object') continue;
    t.badLines++;
    if (p.line !== undefined && p.line > res.resume.line) t.tail.bad++;
  }
  t.live = res.incompleteTail;
  t.lastRead = { continued, rows: t.size - before };
  t.mark = await markAt(fs, path, res.resume);
  return t;
}

function orderedKeys(t: TrainingTable): string[] {
  const have = t.keys;
  const known = TRAINING_KEYS.filter((k) => have.includes(k));
  const rest = have.filter((k) => !(TRAINING_KEYS as readonly string[]).includes(k)).sort();
  return [...known, ...rest];
}

/**
 * The rows with from ≤ step ≤ to (either bound null = open), every `stride`-th one so that at most maxPoints are
 * sent, plus the range's last row. Rows are assumed in step order (append-only file); they are not re-sorted.
 */
export function trainingSeries(t: TrainingTable, range: { from?: number | null; to?: number | null } = {}, maxPoints = 4000): TrainingSeries {
  const from = range.from ?? null;
  const to = range.to ?? null;
  let lo = 0;
  let hi = t.size - 1;
  if (from !== null) while (lo <= hi && t.step(lo) < from) lo++;
  if (to !== null) while (hi >= lo && t.step(hi) > to) hi--;
  const n = Math.max(0, hi - lo + 1);
  const stride = Math.max(1, Math.ceil(n / Math.max(2, maxPoints)));
  const idx: number[] = [];
  for (let i = lo; i <= hi; i += stride) idx.push(i);
  if (n > 0 && idx[idx.length - 1] !== hi) idx.push(hi);
  return {
    totalSteps: t.size,
    firstStep: t.size ? t.step(0) : null,
    lastStep: t.size ? t.step(t.size - 1) : null,
    from: n ? t.step(lo) : null,
    to: n ? t.step(hi) : null,
    stride,
    steps: idx.map((i) => t.step(i)),
    series: orderedKeys(t).map((key) => ({ key, values: idx.map((i) => t.value(key, i)) })),
    live: t.live,
    badLines: t.badLines,
  };
}
