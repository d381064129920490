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

export class TrainingTable {
  steps: number[] = [];
  readonly columns = new Map<string, (number | null)[]>();
  badLines = 0;
  live = false;
  /** Where a read of the file grown by appending goes on from (after its last line with a newline). */
  resume: JsonlPosition = { byte: 0, line: 0 };
  /** What tells, at the next read, that the file has only grown since this one. */
  mark: AppendMark | undefined;
  /** What a last line without a newline added (a row, or a bad line): read again by the next read, so taken back. */
  tail = { rows: 0, bad: 0 };
  /** The read that made this table: whether it went on from an earlier table, and how many rows it added. */
  lastRead = { continued: false, rows: 0 };

  /** Adds one row (true); rows without a numeric `step` are counted as bad and left out (false). */
  add(row: Record<string, unknown>): boolean {
    const step = row.step;
    if (typeof step !== 'number' || !Number.isFinite(step)) { this.badLines++; return false; }
    const i = this.steps.length;
    this.steps.push(step);
    for (const key in row) {
      if (NOT_A_CURVE.has(key)) continue;
      const v = row[key];
      if (typeof v !== 'number' && v !== null) continue;
      let col = this.columns.get(key);
      if (!col) {
        if (this.columns.size >= MAX_KEYS) continue;
        col = new Array<number | null>(i).fill(null);
        this.columns.set(key, col);
      }
      col[i] = typeof v === 'number' && Number.isFinite(v) ? v : null;
    }
    for (const col of this.columns.values()) if (col.length <= i) col.length = i + 1;
    return true;
  }

  /** A copy to read on into (the table a chart was cut from stays as it was). */
  copy(): TrainingTable {
    const t = new TrainingTable();
    t.steps = this.steps.slice();
    for (const [k, col] of this.columns) t.columns.set(k, col.slice());
    t.badLines = this.badLines;
    t.live = this.live;
    t.resume = this.resume;
    t.mark = this.mark;
    t.tail = { ...this.tail };
    return t;
  }

  /** Takes back what the last line without a newline added. */
  dropTail(): void {
    this.steps.length -= this.tail.rows;
    for (const col of this.columns.values()) col.length = this.steps.length;
    this.badLines -= this.tail.bad;
    this.tail = { rows: 0, bad: 0 };
  }

  get size(): number {
    return this.steps.length;
  }
}

/** Parses rows already in memory (tests, and the reader's callback). */
export function trainingTableOf(rows: Iterable<Record<string, unknown>>): TrainingTable {
  const t = new TrainingTable();
  for (const r of rows) t.add(r);
  for (const col of t.columns.values()) for (let i = 0; i < col.length; i++) if (col[i] === undefined) col[i] = null;
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
  for (const col of t.columns.values()) for (let i = before; i < col.length; i++) if (col[i] === undefined) col[i] = null;
  for (const p of res.problems) {
    if (p.code !== 'parse-error' && p.code !== 'not-object') continue;
    t.badLines++;
    if (p.line !== undefined && p.line > res.resume.line) t.tail.bad++;
  }
  t.live = res.incompleteTail;
  t.resume = res.resume;
  t.lastRead = { continued, rows: t.size - before };
  t.mark = await markAt(fs, path, res.resume);
  return t;
}

function orderedKeys(t: TrainingTable): string[] {
  const known = TRAINING_KEYS.filter((k) => t.columns.has(k));
  const rest = [...t.columns.keys()].filter((k) => !(TRAINING_KEYS as readonly string[]).includes(k)).sort();
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
  if (from !== null) while (lo <= hi && t.steps[lo] < from) lo++;
  if (to !== null) while (hi >= lo && t.steps[hi] > to) hi--;
  const n = Math.max(0, hi - lo + 1);
  const stride = Math.max(1, Math.ceil(n / Math.max(2, maxPoints)));
  const idx: number[] = [];
  for (let i = lo; i <= hi; i += stride) idx.push(i);
  if (n > 0 && idx[idx.length - 1] !== hi) idx.push(hi);
  const keys = orderedKeys(t);
  return {
    totalSteps: t.size,
    firstStep: t.size ? t.steps[0] : null,
    lastStep: t.size ? t.steps[t.size - 1] : null,
    from: n ? t.steps[lo] : null,
    to: n ? t.steps[hi] : null,
    stride,
    steps: idx.map((i) => t.steps[i]),
    series: keys.map((key) => { const col = t.columns.get(key)!; return { key, values: idx.map((i) => col[i] ?? null) }; }),
    live: t.live,
    badLines: t.badLines,
  };
}
