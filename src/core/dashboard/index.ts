// Run → the run dashboard (the `dashboard` part of the Run Overview's init message). vscode-free and DOM-free.
// pass@1…pass@k by the unbiased estimator over tasks (viewer data: over (task, model|harness) units), null rewards
// left out and all-null units counted as n_all_infra; the reward histogram; tokens / cost / duration per attempt;
// per-task cost-or-tokens-or-time vs reward points; failure causes and failing tests; the task table; reward
// provenance findings; the viewer-data pivot.
import type { Attempt, Outcome, Run, Task } from '../model';
import { OUTCOMES } from '../model';
import { passAtKs, passedAt } from '../passAtK';
import { relativeInside } from '../paths';
import type { Dashboard, PassAtRow, ProvenanceRow, ScatterAxis, ScatterPoint, TaskTableRow } from '../../protocol/dashboard';
import { causeOf, failingTests, failureCauses } from './causes';
import { cellUnits, viewerPivot } from './pivot';
import { rewardDistribution, usageStat } from './stats';

export interface DashboardOptions {
  /** Most task rows the table has (the rest is counted in rowsOmitted). */
  maxRows?: number;
  /**
   * Rows in this model: the first page (the panel sends the rest in pages, see `dashboardRows`); all of them
   * (up to maxRows) when not given. `rowsTotal` counts the rows the table has once every page is in.
   */
  firstRows?: number;
  maxProvenance?: number;
  /** Highest k of the pass@k table. */
  maxK?: number;
  /** Most scatter points sent (an even sample of the tasks past it). */
  maxPoints?: number;
}

/** Input plus output tokens of an attempt (Harbor's input count includes cached tokens); null when it reports none. */
export function attemptTokens(a: Attempt): number | null {
  const t = a.tokens;
  if (!t) return null;
  const i = typeof t.input === 'number' && Number.isFinite(t.input) ? t.input : null;
  const o = typeof t.output === 'number' && Number.isFinite(t.output) ? t.output : null;
  return i === null && o === null ? null : (i ?? 0) + (o ?? 0);
}

const num = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A task's attempts by cell, then attempt number (already in that order for every reader: no copy then). */
function ordered(t: Task): readonly Attempt[] {
  const as = t.attempts;
  const before = (a: Attempt, b: Attempt) => { const ca = a.cell ?? ''; const cb = b.cell ?? ''; return ca < cb || (ca === cb && a.index < b.index); };
  for (let i = 1; i < as.length; i++) {
    if (before(as[i], as[i - 1])) return [...as].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
  return as;
}

/** The outcome most of the attempts have (ties: the earlier in OUTCOMES order); 'missing' for a task without any. */
export function majorityOutcome(attempts: readonly Attempt[]): Outcome {
  const n = new Map<Outcome, number>();
  for (const a of attempts) n.set(a.outcome, (n.get(a.outcome) ?? 0) + 1);
  let best: Outcome = 'missing';
  let bestN = 0;
  for (const o of OUTCOMES) { const c = n.get(o) ?? 0; if (c > bestN) { best = o; bestN = c; } }
  return best;
}

function rewardMethodOf(t: Task, attempts: readonly Attempt[]): string | null {
  const ms = [...new Set(attempts.map((a) => a.rewardMethod).filter((m): m is string => typeof m === 'string' && m.length > 0))];
  if (ms.length) return ms.join(', ');
  const mode = t.details?.reward_mode;
  return typeof mode === 'string' ? mode : null;
}

/** First passing attempt: viewer data per cell, the best (lowest) cell's; others in attempt order. */
function taskPassedAt(run: Run, attempts: readonly Attempt[]): number | null {
  if (run.kind !== 'viewer-data') return passedAt(attempts.map((a) => a.reward));
  const byCell = new Map<string, (number | null)[]>();
  for (const a of attempts) { const c = a.cell ?? ''; (byCell.get(c) ?? byCell.set(c, []).get(c)!).push(a.reward); }
  let best: number | null = null;
  for (const rs of byCell.values()) { const p = passedAt(rs); if (p !== null && (best === null || p < best)) best = p; }
  return best;
}

interface Figures { tokens: number; nTokens: number; cost: number; nCost: number; dur: number; nDur: number; reward: number; nReward: number }

function figuresOf(as: readonly Attempt[]): Figures {
  const f: Figures = { tokens: 0, nTokens: 0, cost: 0, nCost: 0, dur: 0, nDur: 0, reward: 0, nReward: 0 };
  for (const a of as) {
    const tk = attemptTokens(a);
    if (tk !== null) { f.tokens += tk; f.nTokens++; }
    const c = num(a.costUsd);
    if (c !== null) { f.cost += c; f.nCost++; }
    const d = num(a.durationSec);
    if (d !== null) { f.dur += d; f.nDur++; }
    const r = num(a.reward);
    if (r !== null) { f.reward += r; f.nReward++; }
  }
  return f;
}

export function taskRow(run: Run, t: Task, figures: Figures = figuresOf(t.attempts)): TaskTableRow {
  const as = ordered(t);
  const causes = new Set<string>();
  const exceptions = new Set<string>();
  const outcomes = new Set<Outcome>();
  let provenance = 0;
  let firstProv: string | null = null;
  let firstBad: string | null = null;
  for (const a of as) {
    const c = causeOf(a);
    if (c) causes.add(c.key);
    if (a.exception) exceptions.add(a.exception.type);
    outcomes.add(a.outcome);
    if (a.provenance?.length) { provenance += a.provenance.length; if (a.provenance.some((p) => p.severity === 'warning')) firstProv ??= a.id; }
    if (a.outcome !== 'passed') firstBad ??= a.id;
  }
  const f = figures;
  return {
    id: t.id, label: t.label || t.id, passedAt: taskPassedAt(run, as), rewards: as.map((a) => num(a.reward)),
    meanReward: f.nReward ? f.reward / f.nReward : null,
    outcome: majorityOutcome(as), outcomes: OUTCOMES.filter((o) => outcomes.has(o)),
    rewardMethod: rewardMethodOf(t, as), tokens: f.nTokens ? f.tokens : null, costUsd: f.nCost ? f.cost : null,
    durationSec: f.nDur ? f.dur : null, exceptions: [...exceptions], causes: [...causes], provenance,
    openAttemptId: firstProv ?? firstBad ?? as[0]?.id ?? null,
  };
}

const AXES: { key: ScatterAxis['key']; label: string; of: (a: Attempt) => number | null; none: string }[] = [
  { key: 'costUsd', label: 'cost per attempt (USD)', of: (a) => num(a.costUsd),
    none: 'No attempt reports a cost (self-hosted models usually do not): the cost axis is hidden.' },
  { key: 'tokens', label: 'tokens per attempt', of: attemptTokens, none: 'No attempt reports token counts: the tokens axis is hidden.' },
  { key: 'durationSec', label: 'duration per attempt (s)', of: (a) => num(a.durationSec), none: 'No attempt reports its duration: the time axis is hidden.' },
];

/** Every n-th item so that at most `max` remain (all of them when there are fewer). */
function sample<T>(xs: T[], max: number): T[] {
  const step = Math.ceil(xs.length / Math.max(1, max));
  return step > 1 ? xs.filter((_, i) => i % step === 0) : xs;
}

const DEFAULT_MAX_ROWS = 20_000;

/** The task table's rows `from` … `to` − 1 (clamped to the table's rows), for the pages sent after the first. */
export function dashboardRows(run: Run, from: number, to: number, maxRows = DEFAULT_MAX_ROWS): TaskTableRow[] {
  return run.tasks.slice(Math.max(0, from), Math.min(to, maxRows)).map((t) => taskRow(run, t));
}

export function dashboardModel(run: Run, opts: DashboardOptions = {}): Dashboard {
  const maxRows = opts.maxRows ?? DEFAULT_MAX_ROWS;
  const maxProv = opts.maxProvenance ?? 2000;
  const viewer = run.kind === 'viewer-data';
  const units = viewer ? cellUnits(run) : run.tasks.map((t) => ({ rewards: ordered(t).map((a) => a.reward) }));
  const kMax = Math.min(opts.maxK ?? 100, Math.max(1, ...units.map((u) => u.rewards.length)));
  const passAt: PassAtRow[] = [];
  const ks = Array.from({ length: kMax }, (_, i) => i + 1);
  passAtKs(units, ks).forEach((r, i) => passAt.push({ k: ks[i], value: r.value, nTasks: r.nTasks, nMeasured: r.nMeasured, nAllInfra: r.nAllInfra }));

  // One pass over every attempt for the per-attempt figures.
  let nAll = 0;
  for (const t of run.tasks) nAll += t.attempts.length;
  const rewardsAll = new Float64Array(nAll);
  const tokensAll = new Float64Array(nAll);
  const costAll = new Float64Array(nAll);
  const durAll = new Float64Array(nAll);
  let ai = 0;
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      rewardsAll[ai] = num(a.reward) ?? Number.NaN;
      tokensAll[ai] = attemptTokens(a) ?? Number.NaN;
      costAll[ai] = num(a.costUsd) ?? Number.NaN;
      durAll[ai] = num(a.durationSec) ?? Number.NaN;
      ai++;
    }
  }
  const figures = run.tasks.map((t) => figuresOf(t.attempts));
  const points: ScatterPoint[] = [];
  run.tasks.forEach((t, i) => {
    const f = figures[i];
    if (f.nReward === 0) return;
    points.push({
      taskId: t.id, label: t.label || t.id, reward: f.reward / f.nReward,
      costUsd: f.nCost ? f.cost / f.nCost : null, tokens: f.nTokens ? f.tokens / f.nTokens : null, durationSec: f.nDur ? f.dur / f.nDur : null,
    });
  });
  const axes: ScatterAxis[] = AXES.map((x) => {
    const n = points.filter((p) => p[x.key] !== null).length;
    return { key: x.key, label: x.label, n, note: n === 0 ? x.none : null };
  });

  const provenance: ProvenanceRow[] = [];
  let provenanceTotal = 0;
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      for (const p of a.provenance ?? []) {
        provenanceTotal++;
        if (provenance.length < maxProv) provenance.push({ taskId: t.id, attemptId: a.id, attemptLabel: a.label, code: p.code, severity: p.severity, message: p.message, file: relativeInside(run.root, p.file) });
      }
    }
  }
  provenance.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'warning' ? -1 : 1));

  const rowsTotal = Math.min(run.tasks.length, maxRows);
  const shown = run.tasks.slice(0, Math.min(rowsTotal, opts.firstRows ?? rowsTotal));
  return {
    unit: viewer ? 'task-cell' : 'task',
    passAt,
    rewards: rewardDistribution(rewardsAll),
    usage: { tokens: usageStat(tokensAll), costUsd: usageStat(costAll), durationSec: usageStat(durAll) },
    scatter: { axes, points: sample(points, opts.maxPoints ?? 1000), total: points.length },
    causes: failureCauses(run),
    failingTests: failingTests(run),
    rows: shown.map((t, i) => taskRow(run, t, figures[i])),
    rowsTotal,
    rowsOmitted: run.tasks.length - rowsTotal,
    provenance,
    provenanceOmitted: provenanceTotal - provenance.length,
    pivot: viewerPivot(run),
  };
}
