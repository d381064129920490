// How outcomes and run states look in the tree: a codicon id and a theme colour id (vscode-free, so it can be benched).
import type { Attempt, Outcome, Run, Task } from '../core/model';
import { isPass } from '../core/model';

export interface IconSpec {
  /** Codicon id, e.g. 'pass' or 'sync~spin'. */
  id: string;
  /** Theme colour id, e.g. 'testing.iconPassed'. */
  color?: string;
}

export const OUTCOME_ICONS: Record<Outcome, IconSpec> = {
  passed: { id: 'pass', color: 'testing.iconPassed' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  'agent-error': { id: 'warning', color: 'problemsWarningIcon.foreground' },
  truncated: { id: 'watch', color: 'charts.orange' },
  'infra-error': { id: 'debug-disconnect', color: 'testing.iconErrored' },
  cancelled: { id: 'circle-slash', color: 'testing.iconSkipped' },
  running: { id: 'sync~spin', color: 'charts.blue' },
  incomplete: { id: 'stop-circle', color: 'testing.iconErrored' },
  missing: { id: 'question', color: 'list.errorForeground' },
  'no-result': { id: 'circle-outline', color: 'testing.iconUnset' },
};

/** What people read: "scored despite agent error" rather than "agent-error". */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  passed: 'passed',
  failed: 'failed',
  'agent-error': 'scored despite agent error',
  truncated: 'truncated',
  'infra-error': 'infra error',
  cancelled: 'cancelled',
  running: 'running',
  incomplete: 'incomplete',
  missing: 'missing',
  'no-result': 'no result',
};

/** Rank for "best outcome" of a task: lower is better. */
const RANK: Record<Outcome, number> = {
  passed: 0,
  running: 1,
  failed: 2,
  'agent-error': 3,
  truncated: 4,
  'no-result': 5,
  'infra-error': 6,
  cancelled: 7,
  incomplete: 8,
  missing: 9,
};

/** The task's best outcome: passed when any attempt passed, else the most informative one. */
export function bestOutcome(task: Task): Outcome {
  let best: Outcome = 'missing';
  for (const a of task.attempts) {
    if (isPass(a.reward)) return 'passed';
    if (RANK[a.outcome] < RANK[best]) best = a.outcome;
  }
  return best;
}

/** Outcomes that point at something wrong with the evidence or the infrastructure rather than the agent. */
export const PROBLEM_OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(['missing', 'infra-error', 'incomplete']);

export function attemptHasProblem(a: Attempt): boolean {
  return PROBLEM_OUTCOMES.has(a.outcome) || a.missing.length > 0 || a.evidence.some((e) => !e.present);
}

export function runHasErrors(run: Run): boolean {
  return run.problems.some((p) => p.severity === 'error' || p.severity === 'warning');
}

export function runIcon(run: Run): IconSpec {
  if (run.state === 'running') return { id: 'sync~spin', color: 'charts.blue' };
  if (runHasErrors(run)) return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  if (run.state === 'incomplete') return { id: 'debug-pause', color: 'charts.orange' };
  return { id: 'check-all', color: 'testing.iconPassed' };
}
