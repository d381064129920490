// Harbor and ATIF schemas: lenient where producers are, strict where a wrong type would mislead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ArtifactManifestSchema, JobConfigSchema, JobLockSchema, JobResultSchema, TrialConfigSchema, TrialLockSchema,
  TrialResultSchema, jobCounts, primaryReward,
} from '../../src/core/schemas/harbor';
import { ATIF_VERSIONS, TrajectorySchema, trajectoryIssues, trajectoryStats, type Trajectory } from '../../src/core/schemas/atif';

// ---------------------------------------------------------------- Harbor

test('TrialResult: unknown keys are kept, fields added over time may be absent', () => {
  const r = TrialResultSchema.parse({ task_name: 't', trial_name: 'n', some_future_field: { x: 1 } });
  assert.equal(r.task_name, 't');
  assert.deepEqual((r as Record<string, unknown>).some_future_field, { x: 1 });
  assert.equal(r.step_results, undefined);
  assert.equal(r.verifier_environment_mode, undefined);
});

test('TrialResult: rewards must be finite numbers, timestamps strings, token counts numbers', () => {
  assert.equal(TrialResultSchema.safeParse({ verifier_result: { rewards: { reward: '1' } } }).success, false);
  assert.equal(TrialResultSchema.safeParse({ verifier_result: { rewards: { reward: Infinity } } }).success, false);
  assert.equal(TrialResultSchema.safeParse({ verifier_result: { rewards: { reward: Number.NaN } } }).success, false);
  assert.equal(TrialResultSchema.safeParse({ started_at: 1 }).success, false);
  assert.equal(TrialResultSchema.safeParse({ agent_result: { n_input_tokens: '10' } }).success, false);
  assert.equal(TrialResultSchema.safeParse({ exception_info: { exception_message: 'no type' } }).success, false);
  assert.equal(TrialResultSchema.safeParse({ verifier_result: { rewards: { reward: 0, code_lines: 3 } } }).success, true);
});

test('TrialResult: the three task_id forms all parse', () => {
  for (const task_id of [{ path: 'tasks/x' }, { git_url: 'https://example.invalid/r.git', git_commit_id: null, path: 'x' }, { org: 'o', name: 'n', ref: null }]) {
    assert.equal(TrialResultSchema.safeParse({ task_id }).success, true, JSON.stringify(task_id));
  }
});

test('TrialResult: multi-step step_results parse, a step needs its name', () => {
  assert.equal(TrialResultSchema.safeParse({ step_results: [{ step_name: 'a', exception_info: null }] }).success, true);
  assert.equal(TrialResultSchema.safeParse({ step_results: [{ exception_info: null }] }).success, false);
});

test('config.json written with exclude_defaults: {} and a sparse config both parse', () => {
  assert.equal(TrialConfigSchema.safeParse({}).success, true);
  assert.equal(JobConfigSchema.safeParse({}).success, true);
  const j = JobConfigSchema.parse({ job_name: 'j', agents: [{ name: 'terminus-2', model_name: 'a/b' }], datasets: [{ name: 'd', task_names: ['x'] }] });
  assert.equal(j.agents?.[0].model_name, 'a/b');
  assert.equal(JobConfigSchema.safeParse({ n_attempts: 'three' }).success, false);
});

test('JobResult: legacy n_trials / n_errors are accepted and folded into the counters', () => {
  const legacy = JobResultSchema.parse({ id: 'x', started_at: '2026-01-01T00:00:00', n_total_trials: 3, stats: { n_trials: 3, n_errors: 1, evals: {} } });
  assert.deepEqual(jobCounts(legacy.stats), { completed: 3, errored: 1, running: null, pending: null, cancelled: null, retries: null });
  const current = JobResultSchema.parse({ stats: { n_completed_trials: 2, n_errored_trials: 0, n_running_trials: 1, n_pending_trials: 0, n_cancelled_trials: 0, n_retries: 0 } });
  assert.equal(jobCounts(current.stats).completed, 2);
  assert.equal(JobResultSchema.safeParse({ finished_at: 5 }).success, false);
});

test('lock.json and artifacts/manifest.json', () => {
  assert.equal(JobLockSchema.safeParse({ schema_version: 3, harbor: { version: '0.22.0' }, trials: [{ schema_version: 2, task: { name: 't' } }] }).success, true);
  assert.equal(TrialLockSchema.safeParse({ schema_version: 'two' }).success, false);
  const m = ArtifactManifestSchema.parse([{ source: '/logs/artifacts', destination: 'artifacts/logs/artifacts', type: 'directory', status: 'empty', service: null }]);
  assert.equal(m[0].status, 'empty');
  assert.equal(ArtifactManifestSchema.safeParse({ source: 'x' }).success, false);
});

test('primaryReward: rewards.reward, else the only key, else null', () => {
  assert.equal(primaryReward({ reward: 0, other: 1 }), 0);
  assert.equal(primaryReward({ correctness: 0.75 }), 0.75);
  assert.equal(primaryReward({ a: 1, b: 0 }), null);
  assert.equal(primaryReward({}), null);
  assert.equal(primaryReward(null), null);
});

// ---------------------------------------------------------------- ATIF

const agent = { name: 'terminus-2', version: '2.0.0' };

test('ATIF: every schema_version v1.0 … v1.8 parses; others do not', () => {
  assert.equal(ATIF_VERSIONS.length, 9);
  for (const v of ATIF_VERSIONS) {
    assert.equal(TrajectorySchema.safeParse({ schema_version: v, agent, steps: [{ step_id: 1, source: 'user', message: 'hi' }] }).success, true, v);
  }
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v2.0', agent, steps: [{ step_id: 1, source: 'user', message: '' }] }).success, false);
});

test('ATIF: at least one step; step source is system|user|agent; message is text or content parts', () => {
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v1.7', agent, steps: [] }).success, false);
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v1.7', agent, steps: [{ step_id: 1, source: 'tool', message: '' }] }).success, false);
  const multimodal = {
    schema_version: 'ATIF-v1.6', agent,
    steps: [{ step_id: 1, source: 'user', message: [{ type: 'text', text: 'look' }, { type: 'image', source: { media_type: 'image/png', path: 'images/x.png' } }] }],
  };
  assert.equal(TrajectorySchema.safeParse(multimodal).success, true);
  const badImage = { ...multimodal, steps: [{ step_id: 1, source: 'user', message: [{ type: 'image', source: { media_type: 'image/png' } }] }] };
  assert.equal(TrajectorySchema.safeParse(badImage).success, false);
});

test('ATIF v1.7: subagent refs need an id or a path; embedded subagent trajectories are validated too', () => {
  const step = (ref: object) => ({ step_id: 1, source: 'system', message: '', observation: { results: [{ subagent_trajectory_ref: [ref] }] } });
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v1.7', agent, steps: [step({ trajectory_path: 'trajectory.summarization-1-summary.json' })] }).success, true);
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v1.7', agent, steps: [step({ session_id: 's' })] }).success, false);
  const bad = { schema_version: 'ATIF-v1.7', agent, steps: [{ step_id: 1, source: 'user', message: '' }], subagent_trajectories: [{ schema_version: 'ATIF-v1.7', agent, steps: [] }] };
  assert.equal(TrajectorySchema.safeParse(bad).success, false);
});

test('ATIF: unknown keys are kept; metrics must be numbers', () => {
  const t = TrajectorySchema.parse({ schema_version: 'ATIF-v1.7', agent, future: 1, steps: [{ step_id: 1, source: 'agent', message: '', brand_new: true }] });
  assert.equal((t as Record<string, unknown>).future, 1);
  assert.equal((t.steps[0] as Record<string, unknown>).brand_new, true);
  assert.equal(TrajectorySchema.safeParse({ schema_version: 'ATIF-v1.7', agent, steps: [{ step_id: 1, source: 'agent', message: '', metrics: { prompt_tokens: '5' } }] }).success, false);
});

test('trajectoryStats does not double count is_copied_context steps', () => {
  const traj: Trajectory = {
    schema_version: 'ATIF-v1.7', agent,
    steps: [
      { step_id: 1, source: 'user', message: 'task', is_copied_context: true },
      { step_id: 2, source: 'agent', message: '', is_copied_context: true, tool_calls: [{ tool_call_id: 'a', function_name: 'f', arguments: {} }], metrics: { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 500, cost_usd: 1 } },
      { step_id: 3, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'b', function_name: 'f', arguments: {} }, { tool_call_id: 'c', function_name: 'g', arguments: {} }], metrics: { prompt_tokens: 200, completion_tokens: 20, cached_tokens: 50, cost_usd: 0.25 } },
      { step_id: 4, source: 'agent', message: '', metrics: { prompt_tokens: 300, completion_tokens: 30 } },
      { step_id: 5, source: 'system', message: 'summary' },
    ],
  };
  assert.deepEqual(trajectoryStats(traj), {
    steps: 3, agentSteps: 2, toolCalls: 2, promptTokens: 500, completionTokens: 50, cachedTokens: 50, costUsd: 0.25,
  });
});

test('trajectoryStats falls back to final_metrics when no step carries metrics, else null', () => {
  const base = { schema_version: 'ATIF-v1.2' as const, agent, steps: [{ step_id: 1, source: 'agent' as const, message: '' }] };
  const s = trajectoryStats({ ...base, final_metrics: { total_prompt_tokens: 9, total_cost_usd: 0.5 } });
  assert.equal(s.promptTokens, 9);
  assert.equal(s.costUsd, 0.5);
  assert.equal(s.completionTokens, null);
  assert.equal(trajectoryStats(base).promptTokens, null);
});

test('trajectoryIssues: Harbor validator rules beyond types', () => {
  const traj = TrajectorySchema.parse({
    schema_version: 'ATIF-v1.7', agent,
    steps: [
      { step_id: 1, source: 'user', message: '', model_name: 'm' },
      { step_id: 3, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'x', function_name: 'f', arguments: {} }], observation: { results: [{ source_call_id: 'y', content: '' }] } },
    ],
  });
  const issues = trajectoryIssues(traj);
  assert.equal(issues.length, 3, issues.join('\n'));
  assert.ok(issues.some((i) => i.includes('model_name')));
  assert.ok(issues.some((i) => i.includes('step_id should be 2')));
  assert.ok(issues.some((i) => i.includes('source_call_id y')));
});

// ---------------------------------------------------------------- the shared fixtures (skipped when absent)

const fixtures = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'harbor');
const jobDir = path.join(fixtures, 'jobs', '2026-08-21__14-03-11');
const haveFixtures = fs.existsSync(jobDir);
const readJson = (p: string): unknown => JSON.parse(fs.readFileSync(p, 'utf8'));

test('fixtures: every Harbor JSON file of the sample job parses with its schema', { skip: !haveFixtures && 'no shared fixtures' }, () => {
  assert.equal(JobConfigSchema.safeParse(readJson(path.join(jobDir, 'config.json'))).success, true);
  assert.equal(JobResultSchema.safeParse(readJson(path.join(jobDir, 'result.json'))).success, true);
  assert.equal(JobLockSchema.safeParse(readJson(path.join(jobDir, 'lock.json'))).success, true);
  const trials = fs.readdirSync(jobDir).filter((n) => fs.statSync(path.join(jobDir, n)).isDirectory());
  assert.equal(trials.length, 3);
  for (const t of trials) {
    const r = TrialResultSchema.safeParse(readJson(path.join(jobDir, t, 'result.json')));
    assert.equal(r.success, true, `${t}: ${r.error?.message}`);
    assert.equal(TrialConfigSchema.safeParse(readJson(path.join(jobDir, t, 'config.json'))).success, true, t);
    assert.equal(TrialLockSchema.safeParse(readJson(path.join(jobDir, t, 'lock.json'))).success, true, t);
    assert.equal(ArtifactManifestSchema.safeParse(readJson(path.join(jobDir, t, 'artifacts', 'manifest.json'))).success, true, t);
    const trajPath = path.join(jobDir, t, 'agent', 'trajectory.json');
    if (fs.existsSync(trajPath)) {
      const traj = TrajectorySchema.safeParse(readJson(trajPath));
      assert.equal(traj.success, true, `${t} trajectory: ${traj.error?.message}`);
      assert.deepEqual(trajectoryIssues(traj.data!), []);
    }
  }
});

test('fixtures: regex-log trajectory stats match its final_metrics', { skip: !haveFixtures && 'no shared fixtures' }, () => {
  const traj = TrajectorySchema.parse(readJson(path.join(jobDir, 'regex-log__9mFhT2c', 'agent', 'trajectory.json')));
  const s = trajectoryStats(traj);
  assert.equal(s.agentSteps, 3);
  assert.equal(s.toolCalls, 3);
  assert.equal(s.promptTokens, traj.final_metrics?.total_prompt_tokens);
  assert.equal(s.completionTokens, traj.final_metrics?.total_completion_tokens);
  assert.equal(s.cachedTokens, traj.final_metrics?.total_cached_tokens);
  assert.ok(Math.abs((s.costUsd ?? 0) - (traj.final_metrics?.total_cost_usd ?? -1)) < 1e-9);
});

test('fixtures: the verbatim ATIF files of Harbor parse', { skip: !fs.existsSync(path.join(fixtures, 'real')) && 'no real fixtures' }, () => {
  const files = [
    path.join(fixtures, 'real', 'example-task', 'trajectory.json'),
    path.join(fixtures, 'real', 'terminus-2-golden', 'hello-world-timeout.trajectory.json'),
    path.join(fixtures, 'real', 'terminus-2-golden', 'hello-world-invalid-json.trajectory.json'),
  ].filter((f) => fs.existsSync(f));
  for (const f of files) {
    const r = TrajectorySchema.safeParse(readJson(f));
    assert.equal(r.success, true, `${path.basename(f)}: ${r.error?.message}`);
  }
});
