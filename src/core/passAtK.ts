// pass@k: the unbiased estimator 1 − C(n−c, k) / C(n, k) (Chen et al. 2021), per task, averaged over tasks.
// Null rewards (the verifier never ran) are not attempts that failed: they are left out (n = measured attempts),
// and a task whose attempts are all null counts under n_all_infra and is left out of the mean (docs/formats.md#pass-at-k).
import { PASS_THRESHOLD } from './model';

function isMeasured(r: number | null | undefined): r is number {
  return typeof r === 'number' && Number.isFinite(r);
}

/**
 * 1 − C(n−c, k) / C(n, k) in product form, 1 − Π_{i=n−c+1..n} (1 − k/i): no binomial is ever built, so n in the
 * thousands is exact to floating point. Needs 0 ≤ c ≤ n, k ≥ 1. When k > n the estimate is the best one the
 * attempts allow, pass@n (1 if any passed, else 0): the task is not dropped for lack of attempts, which agrees
 * with `passedAt` (a task passed within k attempts when it passed at all in fewer than k).
 */
export function passAtKEstimate(n: number, c: number, k: number): number {
  if (n <= 0 || k < 1) return Number.NaN;
  if (c <= 0) return 0;
  if (c >= n) return 1;
  const kk = Math.min(k, n);
  if (n - c < kk) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - kk / i;
  return 1 - prod;
}

/** pass@k of one task from its attempts' rewards; null when no attempt was measured (or k < 1). */
export function taskPassAtK(rewards: readonly (number | null | undefined)[], k: number): number | null {
  if (!(k >= 1)) return null;
  let n = 0;
  let c = 0;
  for (const r of rewards) {
    if (!isMeasured(r)) continue;
    n++;
    if (r >= PASS_THRESHOLD) c++;
  }
  return n === 0 ? null : passAtKEstimate(n, c, Math.floor(k));
}

export interface PassAtKResult {
  /** Mean over the tasks with at least one measured attempt; null when there is none. */
  value: number | null;
  /** Every task given. */
  nTasks: number;
  /** Tasks with at least one measured attempt (the mean's denominator). */
  nMeasured: number;
  /** Tasks with attempts, all of them unmeasured (null reward): infrastructure failed every time. */
  nAllInfra: number;
}

/**
 * pass@k over tasks. A task with no attempts at all is neither measured nor all-infra (it counts in nTasks only).
 */
export function passAtK(tasks: readonly { rewards: readonly (number | null | undefined)[] }[], k: number): PassAtKResult {
  return passAtKs(tasks, [k])[0];
}

/**
 * pass@k for each of `ks` in one pass over the rewards (each task's measured and passed attempts counted once, not
 * once per k): what the pass@1…k table of a 10k-task run needs. Each result is passAtK's for that k.
 */
export function passAtKs(tasks: readonly { rewards: readonly (number | null | undefined)[] }[], ks: readonly number[]): PassAtKResult[] {
  const valid = ks.map((k) => k >= 1);
  const sums = ks.map(() => 0);
  let nMeasured = 0;
  let nAllInfra = 0;
  let nWithAttempts = 0;
  // Indexed loops: a run's first call here is mostly not optimised yet, where for…of's iterators cost ~1 µs per task.
  for (let ti = 0; ti < tasks.length; ti++) {
    const rewards = tasks[ti].rewards;
    if (rewards.length > 0) nWithAttempts++;
    let n = 0;
    let c = 0;
    for (let ri = 0; ri < rewards.length; ri++) {
      const r = rewards[ri];
      if (!isMeasured(r)) continue;
      n++;
      if (r >= PASS_THRESHOLD) c++;
    }
    if (n === 0) {
      if (rewards.length > 0) nAllInfra++;
      continue;
    }
    nMeasured++;
    for (let i = 0; i < ks.length; i++) if (valid[i]) sums[i] += passAtKEstimate(n, c, Math.floor(ks[i]));
  }
  // k < 1 measures nothing: every task with attempts is then counted as all-infra (as taskPassAtK's null says).
  return ks.map((_, i) => (valid[i]
    ? { value: nMeasured > 0 ? sums[i] / nMeasured : null, nTasks: tasks.length, nMeasured, nAllInfra }
    : { value: null, nTasks: tasks.length, nMeasured: 0, nAllInfra: nWithAttempts }));
}

/** 1-based position of the first passing attempt (the viewer data's `passed_at`, docs/formats.md#viewer-data), counting unmeasured ones; null if none. */
export function passedAt(attempts: readonly (number | null | undefined)[]): number | null {
  for (let i = 0; i < attempts.length; i++) {
    const r = attempts[i];
    if (isMeasured(r) && r >= PASS_THRESHOLD) return i + 1;
  }
  return null;
}

/** The k worth showing for runs of up to `maxAttempts` attempts per task: 1 and the powers of two up to it. */
export function passAtKValues(maxAttempts: number): number[] {
  const out: number[] = [];
  if (!(maxAttempts >= 1)) return out;
  for (let k = 1; k <= maxAttempts; k *= 2) out.push(k);
  return out;
}
