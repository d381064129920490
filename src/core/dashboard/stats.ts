// Numbers of the run dashboard: percentiles, per-attempt usage figures and the reward histogram. Pure functions.
import type { RewardDistribution, UsageStat } from '../../protocol/dashboard';

/**
 * The p-th percentile (0 ≤ p ≤ 1) of `sorted` (ascending) by linear interpolation between closest ranks (the
 * "type 7" definition spreadsheets and NumPy use by default): position p·(n−1). null for an empty list.
 */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const pos = Math.min(1, Math.max(0, p)) * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** sum, median and p90 of the finite values; the others (null, undefined, NaN) are counted as missing. */
export function usageStat(values: ArrayLike<number | null | undefined>): UsageStat {
  const xs = new Float64Array(values.length);
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'number' && Number.isFinite(v)) { xs[n++] = v; sum += v; }
  }
  const missing = values.length - n;
  if (n === 0) return { n: 0, missing, sum: null, median: null, p90: null };
  const sorted = xs.subarray(0, n).sort();
  return { n, missing, sum, median: percentileSorted(sorted, 0.5), p90: percentileSorted(sorted, 0.9) };
}

/**
 * Histogram of the measured rewards. 0/1 rewards get two bins (0 and 1); others ten equal bins over
 * [min(0, lowest), max(1, highest)], the last bin closed on the right. Null rewards are only counted (nNull).
 */
export function rewardDistribution(rewards: ArrayLike<number | null | undefined>, nBins = 10): RewardDistribution {
  const all = new Float64Array(rewards.length);
  let m = 0;
  for (let i = 0; i < rewards.length; i++) {
    const r = rewards[i];
    if (typeof r === 'number' && Number.isFinite(r)) all[m++] = r;
  }
  const xs = all.subarray(0, m);
  const nNull = rewards.length - m;
  if (xs.length === 0) return { bins: [], nMeasured: 0, nNull, mean: null, binary: false };
  let sum = 0;
  let lo = 0;
  let hi = 1;
  let binary = true;
  for (const x of xs) {
    sum += x;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
    if (x !== 0 && x !== 1) binary = false;
  }
  const mean = sum / xs.length;
  if (binary) {
    let ones = 0;
    for (const x of xs) if (x === 1) ones++;
    return { bins: [{ from: 0, to: 0, count: xs.length - ones }, { from: 1, to: 1, count: ones }], nMeasured: xs.length, nNull, mean, binary };
  }
  const width = (hi - lo) / nBins;
  const bins = Array.from({ length: nBins }, (_, i) => ({ from: lo + i * width, to: i === nBins - 1 ? hi : lo + (i + 1) * width, count: 0 }));
  for (const x of xs) bins[Math.min(nBins - 1, Math.floor((x - lo) / width))].count++;
  return { bins, nMeasured: xs.length, nNull, mean, binary };
}

/** Mean of the finite values; null when there is none. */
export function meanOf(values: Iterable<number | null | undefined>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v)) { sum += v; n++; }
  return n ? sum / n : null;
}

/** Sum of the finite values; null when there is none (nothing reported is not zero). */
export function sumOf(values: Iterable<number | null | undefined>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v)) { sum += v; n++; }
  return n ? sum : null;
}
