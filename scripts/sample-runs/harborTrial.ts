// Writes one Harbor trial folder `<task>__<7 chars>` (docs/formats.md#harbor-job): config.json, lock.json, result.json
// (a full TrialResult, None fields as null), trial.log, exception.txt, agent/trajectory.json (ATIF-v1.7),
// verifier/{test-stdout.txt, reward.txt | reward.json, ctrf.json}, artifacts/manifest.json, and for a multi-step
// task steps/<name>/… with step_results. Returns what the job's result.json aggregates.
import * as path from 'node:path';
import type { HarborTrialSpec } from './harborSpec';
import { terminusTrajectory, type TrajectoryTotals } from './atif';
import { ctrf, exceptionInfo, manifest, testStdout, trialLog } from './harborText';
import { Prng, isoZ, mkdirp, prngFor, round, writeJson, writeText } from './util';

export interface TrialCtx {
  jobName: string;
  jobId: string;
  /** The jobs dir as recorded in trial_uri / logs. */
  recordedJobsDir: string;
  org: string;
  dataset: string;
  agent: { name: string; version: string; model: string };
  startSec: number;
  rng: Prng;
}

export interface TrialInfo {
  trialName: string;
  task: string;
  agentName: string;
  /** Model name without provider (the evals key's). */
  modelName: string;
  hasResult: boolean;
  rewards: Record<string, number> | null;
  exceptionType: string | null;
  tokens: { input: number; cache: number; output: number; cost: number } | null;
  lock: Record<string, unknown>;
  endSec: number;
  logLines: string;
}

const J = (file: string, v: unknown) => writeJson(file, v, 4, false);

function taskConfig(ctx: TrialCtx, task: string, ref: string, full: boolean): Record<string, unknown> {
  const name = `${ctx.org}/${task}`;
  return full
    ? { path: null, git_url: null, git_commit_id: null, name, ref, overwrite: false, download_dir: null, source: ctx.dataset }
    : { name, ref, source: ctx.dataset };
}

function fullConfig(ctx: TrialCtx, task: string, ref: string, trialName: string): Record<string, unknown> {
  return {
    task: taskConfig(ctx, task, ref, true), trial_name: trialName, trials_dir: `jobs/${ctx.jobName}`,
    install_only: false, timeout_multiplier: 1.0, agent_timeout_multiplier: null, verifier_timeout_multiplier: null,
    agent_setup_timeout_multiplier: null, environment_build_timeout_multiplier: null,
    agent: { name: ctx.agent.name, import_path: null, model_name: ctx.agent.model, n_concurrent: null, concurrency_group: null, skills: [],
      override_timeout_sec: null, override_setup_timeout_sec: null, max_timeout_sec: null, resume_trajectory: false, load_trajectory: null,
      extra_allowed_hosts: [], kwargs: {}, mcp_servers: [] },
    user_agent: null,
    environment: { type: 'docker', import_path: null, force_build: false, delete: true, cpu_enforcement_policy: 'auto',
      memory_enforcement_policy: 'auto', override_cpus: null, override_memory_mb: null, override_storage_mb: null, override_gpus: null,
      override_tpu: null, mounts: null, extra_docker_compose: [], kwargs: {}, extra_allowed_hosts: [] },
    verifier: { override_timeout_sec: null, max_timeout_sec: null, disable: false },
    artifacts: [], extra_instruction_paths: [], extra_instructions: [], job_id: ctx.jobId, source_trial: null,
  };
}

function trialLock(ctx: TrialCtx, task: string, ref: string, mode: string | null): Record<string, unknown> {
  return {
    schema_version: 2,
    task: { name: `${ctx.org}/${task}`, version: '1.0.0', type: 'package', digest: ref, source: ctx.dataset },
    install_only: false, timeout_multiplier: 1.0,
    agent: { name: ctx.agent.name, model_name: ctx.agent.model, skills: [], resume_trajectory: false, extra_allowed_hosts: [], kwargs: {}, mcp_servers: [] },
    skills: [],
    environment: { type: 'docker', force_build: false, delete: true, cpu_enforcement_policy: 'auto', memory_enforcement_policy: 'auto',
      extra_docker_compose: [], kwargs: {}, extra_allowed_hosts: [] },
    verifier: mode ? { disable: false, environment_mode: mode } : { disable: false },
  };
}

interface Clock { t: number; rng: Prng }
function phase(c: Clock, minSec: number, maxSec: number): { started_at: string; finished_at: string } {
  c.t += 0.003 + c.rng.next() * 0.01;
  const s = c.t;
  c.t += minSec + c.rng.next() * (maxSec - minSec);
  return { started_at: isoZ(s), finished_at: isoZ(c.t) };
}

function agentResult(tot: TrajectoryTotals, turns: number, rng: Prng): Record<string, unknown> {
  return {
    n_input_tokens: tot.prompt, n_cache_tokens: tot.cached, n_output_tokens: tot.completion, cost_usd: tot.cost, rollout_details: null,
    metadata: { n_episodes: turns, api_request_times_msec: Array.from({ length: turns }, () => round(3000 + rng.next() * 5000, 1)), summarization_count: 0 },
  };
}

/** Writes the trajectory of one agent run under `agentDir`; returns its totals. */
function writeAgent(agentDir: string, ctx: TrialCtx, spec: HarborTrialSpec, complete: boolean, write: boolean, startSec: number): TrajectoryTotals {
  const turns = spec.turns ?? 3;
  const { trajectory, totals } = terminusTrajectory({
    sessionId: ctx.rng.uuid(), modelName: ctx.agent.model, agentName: ctx.agent.name, agentVersion: ctx.agent.version,
    instruction: `Complete the task "${spec.task}" described in /app/instruction.md.`, turns, complete, startSec,
    rng: spec.trajectorySeed ? prngFor(0, `trajectory:${spec.trajectorySeed}`) : ctx.rng,
    fullPrompt: true, withCost: true, padBytes: spec.transcriptBytes,
  });
  if (write) {
    writeJson(path.join(agentDir, 'trajectory.json'), trajectory);
    if (ctx.agent.name === 'claude-code') writeText(path.join(agentDir, 'claude-code.txt'), '{"type":"system","subtype":"init"}\n{"type":"result","is_error":true}\n');
  }
  return totals;
}

/** rewardkit-style reward-details.json for these rewards: one LLM-judged detail, one programmatic, one group. */
function rewardDetails(rewards: Record<string, number>): unknown {
  const keys = Object.keys(rewards);
  const first = keys[0] ?? 'reward';
  const second = keys[1];
  return {
    [first]: {
      score: rewards[first], kind: 'llm',
      criteria: [
        { name: 'answers the question asked', value: 1, raw: 'yes', weight: 2, reasoning: 'The essay addresses the prompt directly in its first paragraph.' },
        { name: 'cites the given sources', value: 0.5, raw: 'partially', weight: 1, reasoning: 'Two of the four sources are cited; <script>alert(1)</script> is quoted from the essay as text.' },
      ],
      judge: { model: 'gpt-4o-mini' }, judge_output: 'Score: 0.75. Strong structure, incomplete citations.', warnings: [],
    },
    ...(second ? {
      [second]: {
        kind: 'group', aggregation: 'weighted_mean', threshold: 0.5, score: rewards[second],
        components: [
          { name: 'spelling', weight: 0.4, detail: { score: 1, kind: 'programmatic', criteria: [{ name: 'typos per 100 words < 1', value: 1, raw: 0.3, weight: 1 }] } },
          { name: 'style', weight: 0.6, detail: { score: 0.83, kind: 'llm', criteria: [{ name: 'clear paragraphs', value: 0.83, raw: '5/6', weight: 1, reasoning: 'One paragraph runs on.' }], judge_output: 'Mostly clear.' } },
        ],
      },
    } : {}),
  };
}

function writeVerifier(dir: string, rewards: Record<string, number> | null, ctx: TrialCtx, startSec: number, asJson: boolean): void {
  const primary = rewards ? (rewards.reward ?? Object.values(rewards)[0]) : 0;
  const failed = primary >= 1 ? [] : ['test_expected_output'];
  const passed = ['test_setup', ...(primary >= 1 ? ['test_expected_output'] : [])];
  writeText(path.join(dir, 'test-stdout.txt'), testStdout(failed, passed));
  writeJson(path.join(dir, 'ctrf.json'), ctrf(failed, passed, Math.floor(startSec * 1000)));
  if (rewards) {
    if (asJson) writeJson(path.join(dir, 'reward.json'), rewards);
    else writeText(path.join(dir, 'reward.txt'), `${primary}\n`);
  }
}

export function writeTrial(jobDir: string, ctx: TrialCtx, spec: HarborTrialSpec): TrialInfo {
  const { rng } = ctx;
  const trialName = `${spec.task.slice(0, 32).replace(/[_-]+$/, '')}__${rng.alnum(7)}`;
  const dir = path.join(jobDir, trialName);
  const recordedDir = `${ctx.recordedJobsDir}/${ctx.jobName}/${trialName}`;
  const ref = `sha256:${rng.hex(64)}`;
  const kase = spec.case;
  const multi = kase === 'multi-step';
  const mode = multi ? null : 'shared';
  const lock = trialLock(ctx, spec.task, ref, mode);
  const model = ctx.agent.model.split('/').pop() ?? ctx.agent.model;
  const info: TrialInfo = { trialName, task: spec.task, agentName: ctx.agent.name, modelName: model, hasResult: kase !== 'running',
    rewards: null, exceptionType: null, tokens: null, lock, endSec: ctx.startSec, logLines: '' };
  mkdirp(dir);
  J(path.join(dir, 'lock.json'), lock);
  J(path.join(dir, 'config.json'), { task: taskConfig(ctx, spec.task, ref, false), trial_name: trialName, trials_dir: `jobs/${ctx.jobName}`,
    agent: { name: ctx.agent.name, model_name: ctx.agent.model }, job_id: ctx.jobId });
  if (kase === 'running') return info;

  const clock: Clock = { t: ctx.startSec, rng };
  const started = clock.t;
  const envFails = kase === 'environment-failure';
  const environment_setup = envFails ? phase(clock, 600, 600.01) : phase(clock, 20, 40);
  let agent_setup = null, agent_execution = null, verifier = null;
  let agent_result: Record<string, unknown> | null = null;
  let rewards: Record<string, number> | null = null;
  let exception: string | null = null;
  let step_results: Record<string, unknown>[] | null = null;
  let dumps = 0;
  const turns = spec.turns ?? 3;
  if (envFails) {
    exception = 'EnvironmentStartTimeoutError';
  } else if (multi) {
    agent_setup = phase(clock, 8, 15);
    step_results = [];
    const steps: [string, number, string | null][] = [['01-scaffold', 1.0, null], ['02-implement', 0.0, 'AgentTimeoutError']];
    const sum: Record<string, number> = {};
    const tot = { input: 0, cache: 0, output: 0, cost: 0 };
    for (const [stepName, reward, stepExc] of steps) {
      const sdir = path.join(dir, 'steps', stepName);
      const ae = phase(clock, 30, 90);
      const t = writeAgent(path.join(sdir, 'agent'), ctx, spec, stepExc === null, true, Date.parse(ae.started_at) / 1000);
      dumps += turns;
      const vr = phase(clock, 10, 25);
      const stepRewards = { reward };
      writeVerifier(path.join(sdir, 'verifier'), stepRewards, ctx, Date.parse(vr.started_at) / 1000, false);
      writeJson(path.join(sdir, 'artifacts', 'manifest.json'), manifest('empty'));
      sum.reward = (sum.reward ?? 0) + reward;
      tot.input += t.prompt; tot.cache += t.cached; tot.output += t.completion; tot.cost += t.cost;
      step_results.push({ step_name: stepName, agent_result: agentResult(t, turns, rng), verifier_result: { rewards: stepRewards },
        exception_info: stepExc ? exceptionInfo(stepExc, ae.finished_at) : null, agent_execution: ae, verifier: vr });
    }
    rewards = { reward: round(sum.reward / steps.length, 6) };
    info.tokens = { ...tot, cost: round(tot.cost, 6) };
  } else {
    agent_setup = phase(clock, 8, 15);
    const ae = phase(clock, kase === 'agent-timeout-with-reward' ? 900 : 30, kase === 'agent-timeout-with-reward' ? 900.01 : 120);
    agent_execution = ae;
    const complete = !['agent-timeout-with-reward', 'context-length', 'cancelled', 'nonzero-exit-with-reward'].includes(kase);
    const writeTraj = kase !== 'trajectory-absent';
    const t = writeAgent(path.join(dir, 'agent'), ctx, spec, complete, writeTraj, Date.parse(ae.started_at) / 1000);
    dumps = turns;
    agent_result = agentResult(t, turns, rng);
    info.tokens = { input: t.prompt, cache: t.cached, output: t.completion, cost: t.cost };
    if (kase === 'context-length') exception = 'ContextLengthExceededError';
    else if (kase === 'cancelled') exception = 'CancelledError';
    else {
      if (kase === 'agent-timeout-with-reward') exception = 'AgentTimeoutError';
      if (kase === 'nonzero-exit-with-reward') exception = 'NonZeroAgentExitCodeError';
      verifier = phase(clock, 10, 30);
      const vstart = Date.parse(verifier.started_at) / 1000;
      if (kase === 'reward-file-not-found') {
        exception = 'RewardFileNotFoundError';
        writeText(path.join(dir, 'verifier', 'test-stdout.txt'), 'bash: /tests/run-tests.sh: line 4: pytest: command not found\n');
      } else {
        const reward = spec.reward ?? (kase === 'passed' || kase === 'trajectory-absent' || kase === 'agent-timeout-with-reward' ? 1.0 : 0.0);
        rewards = kase === 'partial' ? (spec.rewards ?? { reward: spec.reward ?? 0.5, tests_passed: 2, tests_total: 4 }) : { reward };
        writeVerifier(path.join(dir, 'verifier'), rewards, ctx, vstart, kase === 'partial');
        if (spec.agentRewardJson) {
          // Harbor reads reward.json first: the agent's numbers are what the result records.
          writeJson(path.join(dir, 'verifier', 'reward.json'), spec.agentRewardJson);
          rewards = spec.agentRewardJson;
        }
        if (spec.rewardDetails) writeJson(path.join(dir, 'verifier', 'reward-details.json'), rewardDetails(rewards));
      }
    }
  }
  if (!multi) writeJson(path.join(dir, 'artifacts', 'manifest.json'), manifest(kase === 'passed' ? 'ok' : 'empty'));
  if (!multi && kase === 'passed') writeText(path.join(dir, 'artifacts', 'logs', 'artifacts', 'notes.txt'), 'agent left this note\n');
  clock.t += 2 + rng.next() * 3;
  const occurred = isoZ(clock.t - 1);
  const exc = exception ? exceptionInfo(exception, occurred) : null;
  if (exc) writeText(path.join(dir, 'exception.txt'), exc.exception_traceback as string);
  const log = trialLog({ trialDir: recordedDir, trialName, dumps, artifacts: true,
    failure: exc && !rewards ? (exc.exception_message as string) || exc.exception_type as string : undefined });
  writeText(path.join(dir, 'trial.log'), log);
  const result = {
    id: rng.uuid(), task_name: `${ctx.org}/${spec.task}`, trial_name: trialName, trial_uri: `file://${recordedDir}`,
    task_id: { org: ctx.org, name: spec.task, ref }, source: ctx.dataset, task_checksum: rng.hex(64),
    config: fullConfig(ctx, spec.task, ref, trialName),
    agent_info: { name: ctx.agent.name, version: ctx.agent.version, model_info: { name: model, provider: ctx.agent.model.split('/')[0] } },
    agent_result, verifier_result: rewards ? { rewards } : null, verifier_environment_mode: mode, exception_info: exc,
    started_at: isoZ(started), finished_at: isoZ(clock.t), environment_setup, agent_setup, agent_execution, verifier, step_results,
  };
  J(path.join(dir, 'result.json'), result);
  return { ...info, rewards, exceptionType: exception, endSec: clock.t, logLines: log };
}
