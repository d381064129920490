// Run → the run dashboard (the `dashboard` part of the Run Overview's init message). vscode-free and DOM-free.
// pass@1…pass@k by the unbiased estimator over tasks (viewer data: over (task, model|harness) units), null rewards
// left out and all-null units counted as n_all_infra; the reward histogram; tokens / cost / duration per attempt;
// per-task cost-or-tokens-or-time vs reward points; failure causes and failing tests; the task table; reward
// provenance findings; the viewer-data pivot.
import type { Attempt, Outcome, Run, Task } from '../model';
import { OUTCOMES } from '../model';
import { passAtK, passedAt } from '../passAtK';
import type { Dashboard, PassAtRow, ProvenanceRow, ScatterAxis, ScatterPoint, TaskTableRow } from '../../protocol/dashboard';
import { causeOf, failingTests, failureCauses } from './causes';
import { cellUnits, viewerPivot } from './pivot';
import { meanOf, rewardDistribution, sumOf, usageStat } from './stats';

export interface DashboardOptions {
  /** Most task rows sent (the rest is counted in rowsOmitted). */
  maxRows?: number;
  maxProvenance?: number;
  /** Highest k of the pass@k table. */
  maxK?: number;
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

function ordered(t: Task): Attempt[] {
  return [...t.attempts].sort((a, b) => (a.cell ?? '').localeCompare(b.cell ?? '') || a.index - b.index);
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

export function taskRow(run: Run, t: Task): TaskTableRow {
  const as = ordered(t);
  const causes = new Set<string>();
  const exceptions = new Set<string>();
  let provenance = 0;
  let firstProv: string | null = null;
  let firstBad: string | null = null;
  for (const a of as) {
    const c = causeOf(a);
    if (c) causes.add(c.key);
    if (a.exception) exceptions.add(a.exception.type);
    if (a.provenance?.length) { provenance += a.provenance.length; if (a.provenance.some((p) => p.severity === 'warning')) firstProv ??= a.id; }
    if (a.outcome !== 'passed') firstBad ??= a.id;
  }
  const rewards = as.map((a) => num(a.reward));
  return {
    id: t.id, label: t.label || t.id, passedAt: taskPassedAt(run, as), rewards, meanReward: meanOf(rewards),
    outcome: majorityOutcome(as), outcomes: OUTCOMES.filter((o) => as.some((a) => a.outcome === o)),
    rewardMethod: rewardMethodOf(t, as), tokens: sumOf(as.map(attemptTokens)), costUsd: sumOf(as.map((a) => a.costUsd)),
    durationSec: sumOf(as.map((a) => a.durationSec)), exceptions: [...exceptions], causes: [...causes], provenance,
    openAttemptId: firstProv ?? firstBad ?? as[0]?.id ?? null,
  };
}

function rel(root: string, file: string): string {
  const r = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(r) ? file.slice(r.length) : file;
}

const AXES: { key: ScatterAxis['key']; label: string; of: (a: Attempt) => number | null; none: string }[] = [
  { key: 'costUsd', label: 'cost per attempt (USD)', of: (a) => num(a.costUsd),
    none: 'No attempt reports a cost (self-hosted models usually do not): the cost axis is hidden.' },
  { key: 'tokens', label: 'tokens per attempt', of: attemptTokens, none: 'No attempt reports token counts: the tokens axis is hidden.' },
  { key: 'durationSec', label: 'duration per attempt (s)', of: (a) => num(a.durationSec), none: 'No attempt reports its duration: the time axis is hidden.' },
];

export function dashboardModel(run: Run, opts: DashboardOptions = {}): Dashboard {
  const maxRows = opts.maxRows ?? 20_000;
  const maxProv = opts.maxProvenance ?? 2000;
  const viewer = run.kind === 'viewer-data';
  const units = viewer ? cellUnits(run) : run.tasks.map((t) => ({ rewards: ordered(t).map((a) => a.reward) }));
  const kMax = Math.min(opts.maxK ?? 100, Math.max(1, ...units.map((u) => u.rewards.length)));
  const passAt: PassAtRow[] = [];
  for (let k = 1; k <= kMax; k++) { const r = passAtK(units, k); passAt.push({ k, value: r.value, nTasks: r.nTasks, nMeasured: r.nMeasured, nAllInfra: r.nAllInfra }); }

  const all: Attempt[] = run.tasks.flatMap((t) => t.attempts);
  const points: ScatterPoint[] = [];
  for (const t of run.tasks) {
    const reward = meanOf(t.attempts.map((a) => a.reward));
    if (reward === null) continue;
    points.push({
      taskId: t.id, label: t.label || t.id, reward,
      costUsd: meanOf(t.attempts.map((a) => num(a.costUsd))), tokens: meanOf(t.attempts.map(attemptTokens)),
      durationSec: meanOf(t.attempts.map((a) => num(a.durationSec))),
    });
  }
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
        if (provenance.length < maxProv) provenance.push({ taskId: t.id, attemptId: a.id, attemptLabel: a.label, code: p.code, severity: p.severity, message: p.message, file: rel(run.root, p.file) });
      }
    }
  }
  provenance.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'warning' ? -1 : 1));

  const shown = run.tasks.slice(0, maxRows);
  return {
    unit: viewer ? 'task-cell' : 'task',
    passAt,
    rewards: rewardDistribution(all.map((a) => a.reward)),
    usage: { tokens: usageStat(all.map(attemptTokens)), costUsd: usageStat(all.map((a) => a.costUsd)), durationSec: usageStat(all.map((a) => a.durationSec)) },
    scatter: { axes, points },
    causes: failureCauses(run),
    failingTests: failingTests(run),
    rows: shown.map((t) => taskRow(run, t)),
    rowsOmitted: run.tasks.length - shown.length,
    provenance,
    provenanceOmitted: provenanceTotal - provenance.length,
    pivot: viewerPivot(run),
  };
}
