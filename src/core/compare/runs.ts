// Runs compared task by task (docs/compare.md): per task each side's outcome, mean reward and pass@k; whether the
// task regressed, improved, stayed the same, could not be compared (a side measured nothing) or is missing from a
// side; totals and pass@k per side with the difference from the first side (the baseline), over the tasks every side
// has. A null reward is not measured (docs/formats.md#outcomes): it is never averaged in as a zero.
import { OUTCOMES, isPass, type Attempt, type Outcome, type Run, type Task } from '../model';
import { passAtK, passAtKValues, taskPassAtK } from '../passAtK';
import { sidesOf, type CompareSide, type SideOptions } from './sides';

/** How a task moved from the baseline (side 0) to the other sides. */
export type TaskChange = 'regressed' | 'improved' | 'unchanged' | 'not-comparable' | 'only-in-some';

export const TASK_CHANGES = ['regressed', 'improved', 'only-in-some', 'not-comparable', 'unchanged'] as const satisfies readonly TaskChange[];

/** One task on one side. */
export interface TaskCell {
  attempts: number;
  measured: number;
  passed: number;
  /** The outcome most of its attempts had (ties: the earlier in OUTCOMES). */
  outcome: Outcome;
  counts: Partial<Record<Outcome, number>>;
  /** Mean of the measured rewards; null when none was measured. */
  meanReward: number | null;
  /** passed / measured; null when none was measured. */
  passRate: number | null;
  /** pass@k at the comparison's k; null when none was measured. */
  passAtK: number | null;
  attemptIds: string[];
}

export interface TaskRow {
  id: string;
  label: string;
  /** One per side, null where the side has no such task. */
  cells: (TaskCell | null)[];
  change: TaskChange;
  /** Per side: its move from the baseline (null for the baseline, or where either side lacks the task). */
  changes: (TaskChange | null)[];
  /** Largest drop (negative) or rise of pass rate, then of mean reward, from the baseline; 0 when none. */
  delta: number;
}

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
  durationSec: number | null;
  /** Attempts that said anything about tokens / cost / duration. */
  withTokens: number;
  withCost: number;
  withDuration: number;
}

export interface Aggregate {
  tasks: number;
  attempts: number;
  measured: number;
  passed: number;
  counts: Record<Outcome, number>;
  meanReward: number | null;
  passAt1: number | null;
  passAtK: number | null;
  /** Tasks whose every attempt is unmeasured. */
  allInfra: number;
}

/** A side as the comparison reports it: what the side is (its identity, from CompareSide) and its figures. */
export interface SideSummary extends Pick<CompareSide, 'id' | 'label' | 'kind' | 'runIds' | 'mergedFrom' | 'cell' | 'agent' | 'model' | 'dataset'> {
  /** Over all of this side's tasks. */
  all: Aggregate;
  /** Over the tasks every side has (what the differences are computed on). */
  common: Aggregate;
  usage: Usage;
  /** Differences from the baseline over the common tasks; null for the baseline or when a value is missing. */
  diff: { passAt1: number | null; passAtK: number | null; meanReward: number | null } | null;
  counts: Record<TaskChange, number>;
}

export interface RunComparison {
  k: number;
  sides: SideSummary[];
  /** Regressed first, then improved, only-in-some, not comparable, unchanged; within each by size of change, then id. */
  tasks: TaskRow[];
  commonTasks: number;
  /** What merging did, in words, when it did anything (the view choice, stated). */
  mergeNote: string | null;
}

const EPS = 1e-9;

function cellOf(attempts: readonly Attempt[], k: number): TaskCell {
  const counts: Partial<Record<Outcome, number>> = {};
  let measured = 0, passed = 0, sum = 0;
  for (const a of attempts) {
    counts[a.outcome] = (counts[a.outcome] ?? 0) + 1;
    if (typeof a.reward === 'number' && Number.isFinite(a.reward)) {
      measured++;
      sum += a.reward;
      if (isPass(a.reward)) passed++;
    }
  }
  let outcome: Outcome = attempts[0]?.outcome ?? 'missing';
  let best = 0;
  for (const o of OUTCOMES) if ((counts[o] ?? 0) > best) { best = counts[o]!; outcome = o; }
  return {
    attempts: attempts.length, measured, passed, outcome, counts,
    meanReward: measured ? sum / measured : null,
    passRate: measured ? passed / measured : null,
    passAtK: taskPassAtK(attempts.map((a) => a.reward), k),
    attemptIds: attempts.map((a) => a.id),
  };
}

/** Signed move from a to b: pass rate first, mean reward when the pass rates are equal. */
function moveOf(a: TaskCell, b: TaskCell): number {
  const dp = b.passRate! - a.passRate!;
  if (Math.abs(dp) > EPS) return dp;
  const dr = b.meanReward! - a.meanReward!;
  return Math.abs(dr) > EPS ? dr : 0;
}

function changeOf(a: TaskCell | null, b: TaskCell | null): TaskChange {
  if (!a || !b) return 'only-in-some';
  if (a.measured === 0 || b.measured === 0) return 'not-comparable';
  const m = moveOf(a, b);
  return m < 0 ? 'regressed' : m > 0 ? 'improved' : 'unchanged';
}

function emptyOutcomeCounts(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

function aggregate(tasks: readonly Task[], k: number): Aggregate {
  const counts = emptyOutcomeCounts();
  let attempts = 0, measured = 0, passed = 0, sum = 0;
  const rewards = tasks.map((t) => {
    for (const a of t.attempts) {
      attempts++;
      counts[a.outcome]++;
      if (typeof a.reward === 'number' && Number.isFinite(a.reward)) { measured++; sum += a.reward; if (isPass(a.reward)) passed++; }
    }
    return { rewards: t.attempts.map((a) => a.reward) };
  });
  const p1 = passAtK(rewards, 1);
  return {
    tasks: tasks.length, attempts, measured, passed, counts, meanReward: measured ? sum / measured : null,
    passAt1: p1.value, passAtK: passAtK(rewards, k).value, allInfra: p1.nAllInfra,
  };
}

function usageOf(tasks: readonly Task[]): Usage {
  const u: Usage = { inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: null, durationSec: null, withTokens: 0, withCost: 0, withDuration: 0 };
  const add = (cur: number | null, v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? (cur ?? 0) + v : cur);
  for (const t of tasks) {
    for (const a of t.attempts) {
      const tk = a.tokens;
      if (tk && [tk.input, tk.output, tk.cached].some((v) => typeof v === 'number')) {
        u.withTokens++;
        u.inputTokens = add(u.inputTokens, tk.input);
        u.outputTokens = add(u.outputTokens, tk.output);
        u.cachedTokens = add(u.cachedTokens, tk.cached);
      }
      if (typeof a.costUsd === 'number' && Number.isFinite(a.costUsd)) { u.withCost++; u.costUsd = add(u.costUsd, a.costUsd); }
      if (typeof a.durationSec === 'number' && Number.isFinite(a.durationSec)) { u.withDuration++; u.durationSec = add(u.durationSec, a.durationSec); }
    }
  }
  return u;
}

/** The k compared: the largest power of two every side has attempts for (at least 1). */
function commonK(sides: readonly CompareSide[]): number {
  let k = Infinity;
  for (const s of sides) {
    let max = 0;
    for (const t of s.tasks) max = Math.max(max, t.attempts.length);
    k = Math.min(k, max);
  }
  const ks = passAtKValues(Number.isFinite(k) ? k : 1);
  return ks.length ? ks[ks.length - 1] : 1;
}

const diffOf = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : b - a);

/** Compares sides already built (see sidesOf). */
export function compareSides(sides: readonly CompareSide[], opts: { k?: number } = {}): RunComparison {
  const k = opts.k ?? commonK(sides);
  const ids: string[] = [];
  const labels = new Map<string, string>();
  const maps = sides.map((s) => {
    const m = new Map<string, Task>();
    for (const t of s.tasks) {
      m.set(t.id, t);
      if (!labels.has(t.id)) { labels.set(t.id, t.label); ids.push(t.id); }
    }
    return m;
  });
  const rows: TaskRow[] = ids.map((id) => {
    const cells = maps.map((m) => { const t = m.get(id); return t ? cellOf(t.attempts, k) : null; });
    const changes = cells.map((c, i) => (i === 0 ? null : changeOf(cells[0], c)));
    let change: TaskChange;
    if (cells.some((c) => c === null)) change = 'only-in-some';
    else if (changes.includes('regressed')) change = 'regressed';
    else if (changes.includes('improved')) change = 'improved';
    else if (changes.includes('not-comparable')) change = 'not-comparable';
    else change = 'unchanged';
    let delta = 0;
    for (let i = 1; i < cells.length; i++) {
      const a = cells[0], b = cells[i];
      if (!a || !b || !a.measured || !b.measured) continue;
      const m = moveOf(a, b);
      if (change === 'regressed' ? m < delta : m > delta) delta = m;
    }
    return { id, label: labels.get(id)!, cells, change, changes, delta };
  });
  const rank = (c: TaskChange) => TASK_CHANGES.indexOf(c);
  rows.sort((a, b) => rank(a.change) - rank(b.change) || Math.abs(b.delta) - Math.abs(a.delta) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const common = new Set(ids.filter((id) => maps.every((m) => m.has(id))));
  const summaries: SideSummary[] = sides.map((s, i) => {
    const counts = Object.fromEntries(TASK_CHANGES.map((c) => [c, 0])) as Record<TaskChange, number>;
    if (i > 0) for (const r of rows) counts[maps[i].has(r.id) && maps[0].has(r.id) ? r.changes[i]! : 'only-in-some']++;
    return {
      id: s.id, label: s.label, kind: s.kind, runIds: s.runIds, mergedFrom: s.mergedFrom, cell: s.cell,
      agent: s.agent, model: s.model, dataset: s.dataset,
      all: aggregate(s.tasks, k), common: aggregate(s.tasks.filter((t) => common.has(t.id)), k), usage: usageOf(s.tasks),
      diff: null, counts,
    };
  });
  for (let i = 1; i < summaries.length; i++) {
    const a = summaries[0].common, b = summaries[i].common;
    summaries[i].diff = { passAt1: diffOf(a.passAt1, b.passAt1), passAtK: diffOf(a.passAtK, b.passAtK), meanReward: diffOf(a.meanReward, b.meanReward) };
  }
  const merged = sides.filter((s) => s.mergedFrom.length > 1);
  const mergeNote = merged.length
    ? `Merged view: ${merged.map((s) => `${s.mergedFrom.length} runs of ${[s.agent, s.model].filter(Boolean).join(' · ')}${s.dataset ? ` on ${s.dataset}` : ''} are one side`).join('; ')} (their attempts pooled per task).`
    : null;
  return { k, sides: summaries, tasks: rows, commonTasks: common.size, mergeNote };
}

/** Compares runs as read (cells split, optionally merged: see SideOptions). */
export function compareRuns(runs: readonly Run[], opts: SideOptions & { k?: number } = {}): RunComparison {
  return compareSides(sidesOf(runs, opts), opts);
}
