// Runs for the comparison tests, written as outcomes and rewards per task: `run('a', { t1: [P, F, I] })`.
import type { Attempt, Outcome, Run, Task } from '../../../src/core/model';

/** An attempt as [outcome, reward, anything else it has]. */
export type A = [Outcome, number | null, Partial<Attempt>?];

export function attempt(taskId: string, i: number, [outcome, reward, extra]: A): Attempt {
  return { id: `${taskId}#${i}`, index: i, label: `#${i + 1}`, outcome, reward, evidence: [], missing: [], ...extra };
}

/** A complete run of these tasks (each task's label is `labelOf(id)`, its id by default). */
export function run(name: string, tasks: Record<string, A[]>, identity: Record<string, string | null> = {}, kind: Run['kind'] = 'harbor-job',
  labelOf: (id: string) => string = (id) => id): Run {
  const ts: Task[] = Object.entries(tasks).map(([id, as]) => ({ id, label: labelOf(id), attempts: as.map((a, i) => attempt(id, i, a)) }));
  return {
    id: `${kind}:/jobs/${name}`, kind, root: `/jobs/${name}`, anchor: `/jobs/${name}`, label: name, identity, state: 'complete',
    files: [], problems: [], unvalidated: [], skipped: [], tasks: ts,
  };
}

export const P: A = ['passed', 1];
export const F: A = ['failed', 0];
export const I: A = ['infra-error', null];
