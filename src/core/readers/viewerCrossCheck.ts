// Cross-checks the aggregates a viewer dataset's summary.json recorded (summary, by_model, by_harness, passed_at)
// against the same numbers recomputed from its tasks, with pass@k's unbiased estimator and null rewards excluded.
// A disagreement is a warning placed at the recorded value; a recorded value is compared at its own precision.
import type { Problem } from '../model';
import { isPass } from '../model';
import { passAtKs } from '../passAtK';
import { problemAt, type JsonDocument } from './jsonFile';
import type { TimeSlice } from '../turn';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One cell of one task, as recomputation needs it. */
export interface CellRewards {
  taskIndex: number;
  model: string;
  harness: string;
  /** Rewards in attempt order (attempt 1 first). */
  rewards: (number | null)[];
  /** Attempt numbers matching rewards. */
  attemptNumbers: number[];
  recordedPassedAt?: number | null;
  cellKey: string;
}

/** Half a unit of the last decimal the recorded number was written with (0.17 → 0.005). */
function tolerance(recorded: number): number {
  const s = String(recorded);
  if (/e/i.test(s)) return 1e-9;
  const dot = s.indexOf('.');
  const decimals = dot < 0 ? 0 : s.length - dot - 1;
  return decimals >= 9 ? 1e-9 : 0.5 * 10 ** -decimals + 1e-9;
}

/** A number for a warning: up to four decimals (0.3333, 0.25), a smaller one as written (1e-7, not "0."). */
function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = n.toFixed(4).replace(/\.?0+$/, '');
  return s === '0' || s === '-0' ? String(n) : s;
}

export function crossCheckViewerSummary(doc: JsonDocument, summary: Obj, cells: CellRewards[], nTasks: number): Problem[] {
  const problems: Problem[] = [];
  for (const _ of crossCheckSteps(doc, summary, cells, nTasks, problems)) { /* run through */ }
  return problems;
}

/**
 * The same, with turns of the event loop whenever a slice of time has passed (40,000 cells of a 10,000-task dataset
 * took 0.2–0.7 s).
 */
export async function crossCheckViewerSummarySliced(doc: JsonDocument, summary: Obj, cells: CellRewards[], nTasks: number,
  slice: TimeSlice): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const _ of crossCheckSteps(doc, summary, cells, nTasks, problems)) if (slice.due) await slice.yield();
  return problems;
}

/** The cross-check's work, yielding between small pieces of it (every 256 cells, every by_model / by_harness row). */
function* crossCheckSteps(doc: JsonDocument, summary: Obj, cells: CellRewards[], nTasks: number, problems: Problem[]): Generator<void> {
  const check = (jsonPath: (string | number)[], recorded: unknown, actual: number | null, what: string) => {
    if (typeof recorded !== 'number') return;
    if (actual === null) {
      problems.push(problemAt(doc, jsonPath, 'warning', 'aggregate-mismatch',
        `${what} is recorded as ${fmt(recorded)} but nothing was measured to compute it from`));
      return;
    }
    if (Math.abs(recorded - actual) > tolerance(recorded)) {
      problems.push(problemAt(doc, jsonPath, 'warning', 'aggregate-mismatch',
        `${what} is recorded as ${fmt(recorded)} but the tasks give ${fmt(actual)}`));
    }
  };

  // Per cell: passed_at is the first passing attempt.
  for (let ci = 0; ci < cells.length; ci++) {
    if ((ci & 255) === 255) yield;
    const c = cells[ci];
    if (c.recordedPassedAt === undefined) continue;
    const i = c.rewards.findIndex((r) => isPass(r));
    const actual = i < 0 ? null : c.attemptNumbers[i];
    if ((c.recordedPassedAt ?? null) !== actual) {
      problems.push(problemAt(doc, ['tasks', c.taskIndex, 'cells', c.cellKey, 'passed_at'], 'warning', 'aggregate-mismatch',
        `passed_at is recorded as ${c.recordedPassedAt ?? 'null'} but the first passing attempt is ${actual ?? 'none'}`));
    }
  }

  // Top-level totals, per task over all its cells.
  const byTask = new Map<number, (number | null)[]>();
  for (let ci = 0; ci < cells.length; ci++) {
    if ((ci & 255) === 255) yield;
    const c = cells[ci];
    const rewards = byTask.get(c.taskIndex);
    if (rewards) rewards.push(...c.rewards);
    else byTask.set(c.taskIndex, [...c.rewards]);
  }
  const all = [...byTask.values()];
  const totals = isObj(summary.summary) ? summary.summary : undefined;
  if (totals) {
    check(['summary', 'tasks_total'], totals.tasks_total, nTasks, 'summary.tasks_total');
    check(['summary', 'tasks_any_pass'], totals.tasks_any_pass, all.filter((r) => r.some(isPass)).length, 'summary.tasks_any_pass');
    check(['summary', 'attempts_total'], totals.attempts_total, all.reduce((n, r) => n + r.length, 0), 'summary.attempts_total');
    check(['summary', 'attempts_passed'], totals.attempts_passed, all.reduce((n, r) => n + r.filter(isPass).length, 0), 'summary.attempts_passed');
    check(['summary', 'n_all_infra'], totals.n_all_infra, all.filter((r) => r.length > 0 && r.every((x) => x === null)).length, 'summary.n_all_infra');
  }

  // by_model / by_harness: each cell is one unit of pass@k.
  for (const axis of ['model', 'harness'] as const) {
    const key = axis === 'model' ? 'by_model' : 'by_harness';
    const rows = Array.isArray(summary[key]) ? summary[key] : [];
    for (let i = 0; i < rows.length; i++) {
      const row: unknown = rows[i];
      if (!isObj(row) || typeof row[axis] !== 'string') continue;
      yield;
      const name = row[axis] as string;
      const mine = cells.filter((c) => c[axis] === name);
      // Every k the row records, and k = 1 for n_measured, in one pass over its cells' rewards (passAtKs: each k's
      // result is passAtK's for that k).
      const fields: [string, unknown, number][] = [];
      for (const [field, value] of Object.entries(row)) {
        const m = /^pass@(\d+)$/.exec(field);
        if (m) fields.push([field, value, Number(m[1])]);
      }
      const results = passAtKs(mine, [1, ...fields.map((f) => f[2])]);
      check([key, i, 'cells'], row.cells, mine.length, `${key}[${name}].cells`);
      check([key, i, 'n_measured'], row.n_measured, results[0].nMeasured, `${key}[${name}].n_measured`);
      for (let f = 0; f < fields.length; f++) {
        const [field, value] = fields[f];
        check([key, i, field], value, results[f + 1].value ?? null, `${key}[${name}].${field}`);
      }
    }
  }
}
