// Harbor jobs that differ, for comparing (docs/compare.md): a baseline job and a candidate job of the same agent on
// the same tasks with another model — one task regressed, one improved, one unchanged, one not comparable (the
// candidate's sandbox failed), one task only in each — and one more one-trial job of the candidate's agent and
// model (what "merge runs" pools). Trials of a task share their trajectory's seed, so their steps agree until the
// candidate takes more turns: the attempt comparison has a first divergence to find.
import type { HarborJobSpec, HarborTrialSpec } from './harborSpec';

const BASE = { agent: 'terminus-2', dataset: 'terminal-bench/terminal-bench-2', finished: true, originalJobsDir: '/home/user/projects/jobs' } as const;
const t = (task: string, c: HarborTrialSpec['case'], turns: number, extra: Partial<HarborTrialSpec> = {}): HarborTrialSpec =>
  ({ task, case: c, turns, trajectorySeed: task, ...extra });

export function compareBaseline(): HarborJobSpec {
  return {
    ...BASE, jobName: '2026-09-02__10-00-00', model: 'anthropic/claude-sonnet-4-5', trials: [
      t('fix-git', 'passed', 3), t('regex-log', 'passed', 3), t('log-summary', 'failed', 4),
      t('chess-best-move', 'failed', 3), t('build-cython-ext', 'passed', 3),
    ],
  };
}

export function compareCandidate(): HarborJobSpec {
  return {
    ...BASE, jobName: '2026-09-03__10-00-00', model: 'openai/gpt-5', startSec: 1787400000, trials: [
      t('fix-git', 'passed', 3), t('regex-log', 'failed', 5), t('log-summary', 'passed', 4),
      t('chess-best-move', 'environment-failure', 3), t('sqlite-with-gcov', 'passed', 3),
    ],
  };
}

/** A one-trial job of the candidate's agent and model (merged with it, the candidate has two attempts of fix-git). */
export function compareOneTrialJobs(): HarborJobSpec[] {
  return [{ ...BASE, jobName: '2026-09-04__09-00-00', model: 'openai/gpt-5', startSec: 1787486400, trials: [t('fix-git', 'failed', 4)] }];
}
