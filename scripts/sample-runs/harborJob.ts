// Writes a Harbor job folder `<jobs_dir>/<job_name>/` (docs/formats.md#harbor-job): config.json (exclude_defaults),
// lock.json (JobLock with every TrialLock), result.json (JobResult without trial_results, JobStats computed from the
// trials as Harbor does), job.log, and one folder per trial (harborTrial.ts). Deterministic for a spec and seed.
import * as path from 'node:path';
import type { HarborJobSpec } from './harborSpec';
import { writeTrial, type TrialCtx, type TrialInfo } from './harborTrial';
import { isoNaive, isoZ, mkdirp, prngFor, round, writeJson, writeText } from './util';

export type { HarborJobSpec, HarborTrialSpec, HarborTrialCase } from './harborSpec';
export { harborEveryCase, harborLarge, HARBOR_CASES } from './harborSpec';

/** 2026-08-21T12:03:11Z. */
export const HARBOR_T0 = 1787313791;
/** Job-level times are naive local time: rendered as a UTC+2 clock, as the sample's. */
const LOCAL_OFFSET_SEC = 2 * 3600;

export interface HarborJobResult {
  jobDir: string;
  /** Trial folder names in spec order. */
  trials: { name: string; task: string; case: string }[];
}

/** Python's str(float) for the reward_stats keys: 1 → "1.0", 0.75 → "0.75". */
function pyFloat(v: number): string {
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}

function primary(rewards: Record<string, number> | null): number | null {
  if (!rewards) return null;
  if ('reward' in rewards) return rewards.reward;
  const vals = Object.values(rewards);
  return vals.length === 1 ? vals[0] : null;
}

function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Harbor's pass_at_k: only when every reward is a single 0/1 and every task has ≥ 2 attempts. */
function passAtK(trials: TrialInfo[]): Record<string, number> {
  const byTask = new Map<string, number[]>();
  for (const t of trials) {
    if (!t.hasResult) continue;
    const r = t.rewards;
    if (r && (Object.keys(r).length !== 1 || ![0, 1].includes(Object.values(r)[0]))) return {};
    byTask.set(t.task, [...(byTask.get(t.task) ?? []), r ? Object.values(r)[0] : 0]);
  }
  if (!byTask.size) return {};
  const minN = Math.min(...[...byTask.values()].map((v) => v.length));
  if (minN < 2) return {};
  const ks = new Set<number>();
  for (let k = 2; k <= minN; k *= 2) ks.add(k);
  for (let k = 5; k <= minN; k += 5) ks.add(k);
  const out: Record<string, number> = {};
  for (const k of [...ks].sort((a, b) => a - b)) {
    let sum = 0;
    for (const v of byTask.values()) {
      const n = v.length;
      const c = v.filter((x) => x === 1).length;
      sum += n - c < k ? 1 : 1 - comb(n - c, k) / comb(n, k);
    }
    out[String(k)] = sum / byTask.size;
  }
  return out;
}

function evalStats(trials: TrialInfo[]): Record<string, unknown> {
  const done = trials.filter((t) => t.hasResult);
  const rewardStats: Record<string, Record<string, string[]>> = {};
  const exceptionStats: Record<string, string[]> = {};
  let sum = 0;
  for (const t of done) {
    sum += primary(t.rewards) ?? 0;
    for (const [k, v] of Object.entries(t.rewards ?? {})) {
      const byValue = (rewardStats[k] ??= {});
      (byValue[pyFloat(v)] ??= []).push(t.trialName);
    }
    if (t.exceptionType) (exceptionStats[t.exceptionType] ??= []).push(t.trialName);
  }
  return {
    n_trials: done.filter((t) => t.rewards).length,
    n_errors: done.filter((t) => t.exceptionType).length,
    metrics: [{ mean: done.length ? sum / done.length : 0 }],
    pass_at_k: passAtK(trials),
    reward_stats: rewardStats,
    exception_stats: exceptionStats,
  };
}

export async function generateHarborJob(jobsDir: string, spec: HarborJobSpec, opts: { seed?: number } = {}): Promise<HarborJobResult> {
  const seed = opts.seed ?? 1;
  const t0 = spec.startSec ?? HARBOR_T0;
  const jobName = spec.jobName ?? isoNaive(t0 + LOCAL_OFFSET_SEC).slice(0, 19).replace('T', '__').replace(/:/g, '-');
  const jobDir = path.join(path.resolve(jobsDir), jobName);
  const recordedJobsDir = (spec.originalJobsDir ?? path.resolve(jobsDir)).replace(/\/+$/, '');
  const agentName = spec.agent ?? 'terminus-2';
  const model = spec.model ?? 'anthropic/claude-sonnet-4-5';
  const dataset = spec.dataset ?? 'terminal-bench/terminal-bench-2';
  const org = dataset.split('/')[0];
  const jobRng = prngFor(seed, `harbor-job:${jobName}`);
  const jobId = jobRng.uuid();
  const running = spec.trials.some((t) => t.case === 'running');
  const finished = spec.finished ?? !running;
  mkdirp(jobDir);

  const infos: TrialInfo[] = [];
  const names: HarborJobResult['trials'] = [];
  const concurrency = 4;
  spec.trials.forEach((ts, i) => {
    const agent = ts.agent
      ? { name: ts.agent.name, version: ts.agent.version ?? '1.0.0', model: ts.agent.model ?? model }
      : { name: agentName, version: spec.agentVersion ?? '2.0.0', model };
    const ctx: TrialCtx = { jobName, jobId, recordedJobsDir, org, dataset, agent,
      startSec: t0 + 3.3 + Math.floor(i / concurrency) * 240 + (i % concurrency) * 0.004, rng: prngFor(seed, `harbor-trial:${jobName}:${i}`) };
    const info = writeTrial(jobDir, ctx, ts);
    infos.push(info);
    names.push({ name: info.trialName, task: ts.task, case: ts.case });
  });

  const tasks = [...new Set(spec.trials.map((t) => t.task))];
  const attempts = Math.max(1, ...tasks.map((t) => spec.trials.filter((x) => x.task === t).length));
  const agents = [...new Map(infos.map((t) => [t.agentName, { name: t.agentName, model_name: spec.trials[infos.indexOf(t)].agent?.model ?? model }])).values()];
  const config: Record<string, unknown> = { job_name: jobName };
  if (attempts > 1) config.n_attempts = attempts;
  config.n_concurrent_trials = concurrency;
  config.agents = agents;
  config.datasets = [{ name: dataset, ref: `sha256:${jobRng.hex(64)}`, task_names: tasks }];
  writeJson(path.join(jobDir, 'config.json'), config, 4, false);

  writeJson(path.join(jobDir, 'lock.json'), {
    schema_version: 3, created_at: isoZ(t0 + 1.5), harbor: { version: '0.22.0', is_editable: false }, n_concurrent_trials: concurrency,
    retry: { max_retries: 0, exclude_exceptions: ['VerifierTimeoutError', 'AgentAuthenticationError', 'RewardFileNotFoundError',
      'VerifierOutputParseError', 'ApiUsageLimitError', 'RewardFileEmptyError', 'AgentSafetyRefusalError', 'ModelNotFoundError',
      'AgentTimeoutError'], wait_multiplier: 1.0, min_wait_sec: 1.0, max_wait_sec: 60.0 },
    trials: infos.map((t) => t.lock),
  }, 4, false);

  const evals: Record<string, unknown> = {};
  const groups = new Map<string, TrialInfo[]>();
  for (const t of infos) {
    const key = `${t.agentName}__${t.modelName}__${dataset}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  for (const [key, ts] of groups) evals[key] = evalStats(ts);
  const done = infos.filter((t) => t.hasResult);
  const tok = (f: 'input' | 'cache' | 'output') => done.reduce((a, t) => a + (t.tokens ? t.tokens[f] : 0), 0);
  const last = Math.max(t0, ...infos.map((t) => t.endSec));
  writeJson(path.join(jobDir, 'result.json'), {
    id: jobId,
    started_at: isoNaive(t0 + LOCAL_OFFSET_SEC),
    updated_at: isoNaive(last + 0.1 + LOCAL_OFFSET_SEC),
    finished_at: finished ? isoNaive(last + 0.1 + LOCAL_OFFSET_SEC) : null,
    n_total_trials: infos.length,
    stats: {
      n_completed_trials: done.length,
      n_errored_trials: done.filter((t) => t.exceptionType).length,
      n_running_trials: finished ? 0 : infos.length - done.length,
      n_pending_trials: 0,
      n_cancelled_trials: done.filter((t) => t.exceptionType === 'CancelledError').length,
      n_retries: 0,
      evals,
      n_input_tokens: tok('input'),
      n_cache_tokens: tok('cache'),
      n_output_tokens: tok('output'),
      cost_usd: round(done.reduce((a, t) => a + (t.tokens ? t.tokens.cost : 0), 0), 6),
    },
  }, 4, false);
  writeText(path.join(jobDir, 'job.log'), infos.map((t) => t.logLines).join(''));
  return { jobDir, trials: names };
}
