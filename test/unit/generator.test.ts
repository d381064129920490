// The sample-run generators (scripts/sample-runs): deterministic bytes, every promised file on disk, JSON / JSONL
// that parses (except where a spec asks for garbage), Harbor results with the fields Harbor writes, viewer
// aggregates that agree with a recomputation from the tasks, and the committed examples/ matching the generator.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as findRepoRoot } from '../support/paths';
import { spawnSync } from 'node:child_process';
import { generateNemoRun, nemoEveryCase, nemoLarge, NEMO_T0, type NemoRunSpec } from '../../scripts/sample-runs/nemoGym';
import { generateHarborJob, harborEveryCase, harborLarge } from '../../scripts/sample-runs/harborJob';
import { generateViewerData, viewerEveryCase } from '../../scripts/sample-runs/viewerData';
import { generateExamples } from '../../scripts/sample-runs/examples';
import { firstDifference, listFiles, snapshot, totalBytes } from '../../scripts/sample-runs/tree';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { readJsonl } from '../../src/core/jsonl';
import { outputSignatures, parseSignatures, sameSignature } from '../../src/core/summary/signatures';
import { FailureRowSchema, MaterializedInputRowSchema, QualitySummarySchema, ResultRowSchema, RolloutVerdictRowSchema } from '../../src/core/schemas/nemoGym';
import { JobResultSchema, TrialConfigSchema, TrialResultSchema, JobLockSchema, ArtifactManifestSchema } from '../../src/core/schemas/harbor';
import { TrajectorySchema } from '../../src/core/schemas/atif';
import { ViewerSummarySchema, ProjectSchema, ViewerTraceSchema, TrainingRunSchema } from '../../src/core/schemas/viewer';

const repoRoot = findRepoRoot();
const fixtures = path.resolve(repoRoot, '..', 'shared', 'fixtures');
// One temp folder for the whole file, removed after its tests; each test takes fresh folders inside it.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-gen-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const tmp = () => fs.mkdtempSync(path.join(tmpRoot, 'g-'));
const readJson = (p: string): any => JSON.parse(fs.readFileSync(p, 'utf8'));
const lines = (p: string): any[] => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const mtime = (p: string) => Math.round(fs.statSync(p).mtimeMs / 1000);
const ORIGINAL = '/home/dev/gym/results/harbor/tb-mini';

const TRIAL_RESULT_KEYS = ['id', 'task_name', 'trial_name', 'trial_uri', 'task_id', 'source', 'task_checksum', 'config', 'agent_info',
  'agent_result', 'verifier_result', 'verifier_environment_mode', 'exception_info', 'started_at', 'finished_at', 'environment_setup',
  'agent_setup', 'agent_execution', 'verifier', 'step_results'];

describe('NeMo Gym run folders', () => {
  test('same spec and seed give byte-identical folders; another seed does not', async () => {
    const [a, b, c] = [tmp(), tmp(), tmp()];
    const spec = { ...nemoEveryCase(), originalRoot: ORIGINAL };
    await generateNemoRun(a, spec, { seed: 7 });
    await generateNemoRun(b, spec, { seed: 7 });
    await generateNemoRun(c, spec, { seed: 8 });
    assert.equal(firstDifference(snapshot(a), snapshot(b)), undefined);
    assert.notEqual(firstDifference(snapshot(a), snapshot(c)), undefined);
  });

  test('every case is on disk as promised, rows shaped as NeMo Gym writes them', async () => {
    const dir = tmp();
    const spec = { ...nemoEveryCase(), originalRoot: ORIGINAL };
    const r = await generateNemoRun(dir, spec);
    for (const [key, p] of Object.entries(r.files)) assert.ok(fs.existsSync(p), `${key}: ${p}`);
    for (const key of ['rollouts', 'failures', 'materialized_inputs', 'aggregate_metrics', 'rows', 'rows_prepare', 'rows_metrics',
      'collated', 'collated_metrics', 'run_config', 'quality_summary', 'rollout_verdicts']) assert.ok(r.files[key], key);
    assert.equal(r.files.collated, path.join(dir, 'rollouts', 'preprocessed_datasets', 'validation.jsonl'));
    const reps = spec.tasks.flatMap((t, ti) => t.repeats.map((rep, ri) => ({ t, ti, ri, rep })));
    const rows = lines(r.files.rollouts);
    const failures = lines(r.files.failures);
    assert.equal(rows.length, reps.filter((x) => x.rep.outcome === 'scored' || x.rep.outcome === 'masked').length);
    assert.equal(failures.length, reps.filter((x) => x.rep.outcome === 'failed').length);
    assert.equal(lines(r.files.materialized_inputs).length, reps.length);
    for (const m of lines(r.files.materialized_inputs)) assert.ok(MaterializedInputRowSchema.safeParse(m).success);
    for (const f of failures) assert.ok(FailureRowSchema.safeParse(f).success);
    const sorted = rows.map((x) => [x._ng_task_index, x._ng_rollout_index]);
    assert.deepEqual(sorted, [...sorted].sort((x, y) => x[0] - y[0] || x[1] - y[1]));
    for (const row of rows) {
      assert.ok(ResultRowSchema.safeParse(row).success);
      const { rep } = reps.find((x) => x.ti === row._ng_task_index && x.ri === row._ng_rollout_index)!;
      assert.equal(row.mask_sample, rep.outcome === 'masked');
      const kind = rep.verifierFolder ?? (rep.outcome === 'masked' ? 'none' : 'present');
      if (kind === 'none') { assert.equal(row.verifier_logs_dir, null); continue; }
      assert.ok(row.verifier_logs_dir.startsWith(`${ORIGINAL}/verifier/resources-session-`), row.verifier_logs_dir);
      assert.match(path.basename(row.verifier_logs_dir), /^resources-session-[0-9a-f]{32}$/);
      const local = path.join(dir, 'verifier', path.basename(row.verifier_logs_dir));
      assert.equal(fs.existsSync(local), kind === 'present', local);
      if (kind !== 'present') continue;
      assert.ok(fs.existsSync(path.join(local, 'test-stdout.txt')));
      const rf = rep.rewardFile !== undefined ? rep.rewardFile
        : rep.failureKind === 'harbor:missing_reward' || rep.failureKind === 'harbor:verifier_timeout' || rep.outcome === 'masked' ? null : 'txt';
      assert.equal(fs.existsSync(path.join(local, 'reward.txt')), rf === 'txt');
      assert.equal(fs.existsSync(path.join(local, 'reward.json')), rf === 'json');
      if (rf === 'json') assert.ok(Object.keys(readJson(path.join(local, 'reward.json'))).length >= 2);
      assert.equal(fs.existsSync(path.join(local, 'artifacts')), rep.artifacts ?? rep.verifierMode === 'separate');
      assert.equal(fs.existsSync(path.join(local, 'ctrf.json')), !!rep.ctrf);
      if (typeof rep.ctrf === 'object') {
        const failed = readJson(path.join(local, 'ctrf.json')).results.tests.filter((x: any) => x.status === 'failed').map((x: any) => x.name);
        assert.deepEqual(failed, rep.ctrf.failed);
      }
      const traj = path.join(local, 'trajectory.json');
      assert.equal(fs.existsSync(traj), rep.trajectory ?? true);
      if (fs.existsSync(traj)) {
        const doc = readJson(traj);
        assert.ok(TrajectorySchema.safeParse(doc).success);
        assert.equal(doc.schema_version, 'ATIF-v1.7');
        assert.deepEqual(doc.steps.map((s: any) => s.step_id), doc.steps.map((_: unknown, i: number) => i + 1));
      }
    }
    // Skipped tasks have no row anywhere; the run config names the original root.
    assert.deepEqual(r.skipped, spec.skipped);
    assert.ok(!fs.readFileSync(r.files.rows, 'utf8').includes('broken-task'));
    assert.match(fs.readFileSync(r.files.run_config, 'utf8'), new RegExp(`artifacts_dir: ${ORIGINAL}/verifier`));
    // Health: one verdict per result row, run.rollouts names this file, verdicts as the spec says.
    const qs = readJson(r.files.quality_summary);
    assert.ok(QualitySummarySchema.safeParse(qs).success);
    assert.deepEqual(qs.run.rollouts, ['rollouts.jsonl']);
    const verdicts = lines(r.files.rollout_verdicts);
    assert.equal(verdicts.length, rows.length);
    for (const v of verdicts) assert.ok(RolloutVerdictRowSchema.safeParse(v).success);
    const verdictOf = (task: string, ri: number) => verdicts.find((v) => v._ng_task_index === spec.tasks.findIndex((t) => t.id === task) && v._ng_rollout_index === ri)?.verdict;
    assert.equal(verdictOf('fix-permissions', 1), 'unhealthy');
    assert.equal(verdictOf('parse-csv', 1), 'unobserved');
    assert.equal(verdictOf('hello-world', 0), 'healthy');
    // Aggregate metrics count the persisted rows per task.
    const groups = readJson(r.files.aggregate_metrics)[0].group_level_metrics;
    for (const g of groups) assert.equal(g.num_rollouts, rows.filter((x) => x._ng_task_index === g._ng_task_index).length);
    // Freshness: rollouts T0, aggregate metrics T0+2, health reports T0+5, everything before dispatch older.
    assert.equal(mtime(r.files.rollouts), NEMO_T0);
    assert.equal(mtime(r.files.aggregate_metrics), NEMO_T0 + 2);
    assert.equal(mtime(r.files.quality_summary), NEMO_T0 + 5);
    assert.equal(mtime(r.files.rollout_verdicts), NEMO_T0 + 5);
    for (const k of ['failures', 'materialized_inputs', 'rows', 'rows_prepare', 'run_config', 'collated']) assert.ok(mtime(r.files[k]) < NEMO_T0, k);
  });

  test('fixture shapes: our rows carry every key the shared sample rows carry', async (t) => {
    const fx = path.join(fixtures, 'nemo-gym');
    if (!fs.existsSync(fx)) return t.skip('no shared fixtures');
    const dir = tmp();
    const r = await generateNemoRun(dir, nemoEveryCase());
    const ours = lines(r.files.rollouts);
    for (const theirs of lines(path.join(fx, 'rollouts.jsonl'))) {
      const mine = ours.find((x) => x.mask_sample === theirs.mask_sample && ('ng_trajectory' in x) === ('ng_trajectory' in theirs))!;
      for (const k of Object.keys(theirs)) assert.ok(k in mine, `result row lacks ${k}`);
    }
    assert.deepEqual(Object.keys(lines(r.files.failures)[0]).sort(), Object.keys(lines(path.join(fx, 'rollouts_failures.jsonl'))[0]).sort());
    assert.deepEqual(Object.keys(lines(r.files.materialized_inputs)[0]).sort(), Object.keys(lines(path.join(fx, 'rollouts_materialized_inputs.jsonl'))[0]).sort());
    assert.deepEqual(Object.keys(readJson(r.files.quality_summary).run).sort(), Object.keys(readJson(path.join(fx, 'quality_summary.json')).run).sort());
  });

  test('variants: stale aggregate metrics, reused prepared input, no rollouts, validate with no solution', async () => {
    const base = nemoEveryCase();
    const stale = await generateNemoRun(tmp(), { ...base, aggregateMetrics: 'stale', health: false });
    assert.ok(mtime(stale.files.aggregate_metrics) < mtime(stale.files.rollouts));
    assert.equal(stale.files.quality_summary, undefined);
    const reused = await generateNemoRun(tmp(), { ...base, reusedPreparedInput: true, aggregateMetrics: 'none' });
    assert.equal(reused.files.rows_metrics, undefined);
    assert.equal(reused.files.aggregate_metrics, undefined);
    assert.ok(fs.existsSync(reused.files.collated_metrics));
    const none = await generateNemoRun(tmp(), { ...base, noRollouts: true });
    assert.ok(!fs.existsSync(none.rolloutsPath));
    assert.equal(none.files.materialized_inputs, undefined);
    const dir = tmp();
    const validate = await generateNemoRun(dir, { ...base, validateNoSolution: true });
    assert.deepEqual(listFiles(dir), ['tasks.jsonl']);
    assert.deepEqual(Object.keys(validate.unvalidated), base.tasks.map((t) => t.id));
    assert.ok(Object.values(validate.unvalidated).every((v) => v === 'NO_REFERENCE_SOLUTION'));
  });

  test('stale outputs: the signatures sidecar, taken before dispatch, still matches the outputs', async () => {
    const r = await generateNemoRun(tmp(), { ...nemoEveryCase(), staleOutputs: true });
    assert.ok(r.files.signatures && fs.existsSync(r.files.signatures));
    const problems: any[] = [];
    const taken = parseSignatures(fs.readFileSync(r.files.signatures, 'utf8'), r.files.signatures, problems);
    assert.deepEqual(problems, []);
    const now = await outputSignatures(new NodeFs(), r.rolloutsPath);
    for (const k of ['rollouts', 'failures', 'materialized_inputs'] as const) assert.ok(sameSignature(taken![k], now[k]), k);
  });

  test('garbage lines and a cut-off last line sit where the spec puts them', async () => {
    const spec: NemoRunSpec = { ...nemoEveryCase(), badLines: [1, 4], partialLastLine: true };
    const r = await generateNemoRun(tmp(), spec);
    const res = await readJsonl(new NodeFs(), r.rolloutsPath, () => undefined);
    const errors = res.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors.map((p) => p.line), [1, 4]);
    assert.ok(res.incompleteTail);
    assert.ok(!fs.readFileSync(r.rolloutsPath, 'utf8').endsWith('\n'));
  });

  test('nemoLarge: rows sized by transcriptBytes, every row parses', async () => {
    const spec = nemoLarge(12, 3, 20000);
    const r = await generateNemoRun(tmp(), spec);
    const raw = fs.readFileSync(r.rolloutsPath, 'utf8').split('\n').filter(Boolean);
    assert.ok(raw.length > 30);
    for (const l of raw) {
      const row = JSON.parse(l);
      if (!row.mask_sample) assert.ok(l.length >= 20000 && l.length < 20000 * 1.5 + 8000, `row of ${l.length} bytes`);
    }
  });
});

describe('Harbor job folders', () => {
  test('same spec and seed give byte-identical folders', async () => {
    const [a, b] = [tmp(), tmp()];
    await generateHarborJob(a, harborEveryCase());
    await generateHarborJob(b, harborEveryCase());
    assert.equal(firstDifference(snapshot(a), snapshot(b)), undefined);
  });

  test('every case: TrialResult with every field Harbor writes, and the evidence each case leaves', async () => {
    const spec = harborEveryCase();
    const { jobDir, trials } = await generateHarborJob(tmp(), spec);
    assert.equal(trials.length, spec.trials.length);
    const job = readJson(path.join(jobDir, 'result.json'));
    assert.deepEqual(Object.keys(job), ['id', 'started_at', 'updated_at', 'finished_at', 'n_total_trials', 'stats']);
    assert.ok(JobResultSchema.safeParse(job).success);
    assert.ok(JobLockSchema.safeParse(readJson(path.join(jobDir, 'lock.json'))).success);
    assert.equal(job.finished_at, null, 'a running trial keeps the job unfinished');
    let completed = 0, errored = 0, cancelled = 0;
    for (const { name, case: kase } of trials) {
      const d = path.join(jobDir, name);
      assert.match(name, /^[a-z0-9-]+__[A-Za-z0-9]{7}$/);
      assert.ok(TrialConfigSchema.safeParse(readJson(path.join(d, 'config.json'))).success);
      const has = (p: string) => fs.existsSync(path.join(d, p));
      if (kase === 'running') { assert.ok(!has('result.json')); continue; }
      completed++;
      const res = readJson(path.join(d, 'result.json'));
      assert.deepEqual(Object.keys(res), TRIAL_RESULT_KEYS, name);
      assert.ok(TrialResultSchema.safeParse(res).success, name);
      assert.equal(res.trial_name, name);
      assert.ok(res.trial_uri.endsWith(`/${name}`));
      const exc = res.exception_info?.exception_type ?? null;
      if (exc) { errored++; assert.equal(fs.readFileSync(path.join(d, 'exception.txt'), 'utf8'), res.exception_info.exception_traceback); }
      if (exc === 'CancelledError') cancelled++;
      const expected: Record<string, [string | null, boolean]> = {
        passed: [null, true], failed: [null, true], partial: [null, true], 'trajectory-absent': [null, true],
        'agent-timeout-with-reward': ['AgentTimeoutError', true], 'nonzero-exit-with-reward': ['NonZeroAgentExitCodeError', true],
        'context-length': ['ContextLengthExceededError', false], 'environment-failure': ['EnvironmentStartTimeoutError', false],
        'reward-file-not-found': ['RewardFileNotFoundError', false], cancelled: ['CancelledError', false], 'multi-step': [null, true],
      };
      assert.deepEqual([exc, res.verifier_result !== null], expected[kase], `${kase}: ${name}`);
      if (kase === 'environment-failure') assert.deepEqual([res.agent_result, res.agent_setup, res.agent_execution, res.verifier], [null, null, null, null]);
      if (kase === 'reward-file-not-found') assert.ok(has('verifier/test-stdout.txt') && !has('verifier/reward.txt') && res.verifier !== null);
      if (kase === 'partial') assert.ok(Object.keys(readJson(path.join(d, 'verifier', 'reward.json'))).length > 1);
      if (kase === 'passed') assert.ok(has('verifier/reward.txt') && has('verifier/ctrf.json') && has('agent/trajectory.json'));
      if (kase === 'trajectory-absent') assert.ok(!has('agent/trajectory.json') && fs.readFileSync(path.join(d, 'trial.log'), 'utf8').includes('agent/trajectory.json'));
      if (kase === 'multi-step') {
        assert.equal(res.step_results.length, 2);
        assert.equal(res.verifier_environment_mode, null);
        assert.ok(res.step_results.some((s: any) => s.exception_info?.exception_type));
        for (const s of res.step_results) assert.ok(has(`steps/${s.step_name}/agent/trajectory.json`) && has(`steps/${s.step_name}/verifier/reward.txt`));
        assert.ok(!has('agent') && !has('verifier'));
      } else {
        assert.ok(ArtifactManifestSchema.safeParse(readJson(path.join(d, 'artifacts', 'manifest.json'))).success);
      }
      if (has('agent/trajectory.json')) assert.ok(TrajectorySchema.safeParse(readJson(path.join(d, 'agent', 'trajectory.json'))).success);
    }
    assert.deepEqual([job.stats.n_completed_trials, job.stats.n_errored_trials, job.stats.n_cancelled_trials, job.stats.n_running_trials],
      [completed, errored, cancelled, 1]);
    const evalKeys = Object.keys(job.stats.evals);
    assert.ok(evalKeys.includes('terminus-2__claude-sonnet-4-5__terminal-bench/terminal-bench-2'));
    assert.ok(evalKeys.includes('claude-code__claude-sonnet-4-5__terminal-bench/terminal-bench-2'));
  });

  test('fixture shapes: results, configs and job files have the sample\'s keys', async (t) => {
    const fx = path.join(fixtures, 'harbor', 'jobs', '2026-08-21__14-03-11');
    if (!fs.existsSync(fx)) return t.skip('no shared fixtures');
    const { jobDir, trials } = await generateHarborJob(tmp(), harborEveryCase());
    const passed = path.join(jobDir, trials.find((x) => x.case === 'passed')!.name);
    const theirs = path.join(fx, 'fix-git__Xk3pQ7a');
    for (const f of ['result.json', 'config.json']) assert.deepEqual(Object.keys(readJson(path.join(passed, f))), Object.keys(readJson(path.join(theirs, f))), f);
    assert.deepEqual(Object.keys(readJson(path.join(passed, 'result.json')).config), Object.keys(readJson(path.join(theirs, 'result.json')).config));
    assert.deepEqual(Object.keys(readJson(path.join(jobDir, 'result.json')).stats), Object.keys(readJson(path.join(fx, 'result.json')).stats));
  });

  test('harborLarge: one folder per task × attempt, the job finished, pass@k only when rewards are all single 0/1', async () => {
    const { jobDir } = await generateHarborJob(tmp(), harborLarge(8, 3));
    const dirs = fs.readdirSync(jobDir, { withFileTypes: true }).filter((e) => e.isDirectory());
    assert.equal(dirs.length, 24);
    const job = readJson(path.join(jobDir, 'result.json'));
    assert.notEqual(job.finished_at, null);
    assert.equal(job.n_total_trials, 24);
    const { jobDir: simple } = await generateHarborJob(tmp(), { jobName: 'pk', trials: ['a', 'a', 'b', 'b'].map((task, i) => ({ task, case: i === 1 ? 'passed' : 'failed' })) });
    const evals: any = Object.values(readJson(path.join(simple, 'result.json')).stats.evals)[0];
    assert.deepEqual(evals.pass_at_k, { 2: 0.5 });
  });
});

/** pass@k recomputed from scratch: exact binomials, k capped at the measured attempts, no pass → 0. */
function refPassAtK(rewards: (number | null)[], k: number): number | null {
  const m = rewards.filter((r): r is number => typeof r === 'number');
  const n = m.length, c = m.filter((r) => r >= 1).length;
  if (!n) return null;
  if (!c) return 0;
  const kk = Math.min(k, n);
  const C = (a: number, b: number) => { let r = 1; for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i; return b > a ? 0 : r; };
  return 1 - C(n - c, kk) / C(n, kk);
}

describe('viewer data dirs', () => {
  test('same spec and seed give byte-identical folders', async () => {
    const [a, b] = [tmp(), tmp()];
    await generateViewerData(a, viewerEveryCase());
    await generateViewerData(b, viewerEveryCase());
    assert.equal(firstDifference(snapshot(a), snapshot(b)), undefined);
  });

  test('summary, by_model, by_harness and passed_at agree with a recomputation from the tasks', async () => {
    const spec = viewerEveryCase();
    const r = await generateViewerData(tmp(), spec);
    assert.ok(ProjectSchema.safeParse(readJson(path.join(r.projectDir, 'project.json'))).success);
    const support = readJson(path.join(r.projectDir, 'project.json')).support;
    assert.ok(Object.values(support).some((s: any) => s.tier === 'experimental' && s.caveats.length > 0));
    for (const ds of spec.datasets) {
      const doc = readJson(path.join(r.datasets[ds.id], 'summary.json'));
      assert.ok(ViewerSummarySchema.safeParse(doc).success);
      assert.equal(fs.existsSync(path.join(r.datasets[ds.id], 'dataset.json')), ds.label !== undefined);
      const cells = doc.tasks.flatMap((t: any) => Object.entries(t.cells).map(([key, cell]: [string, any]) => ({ key, cell, rewards: cell.attempts.map((x: any) => x.reward) })));
      const all = doc.tasks.map((t: any) => Object.values(t.cells).flatMap((c: any) => c.attempts.map((x: any) => x.reward)));
      const passes = (xs: (number | null)[]) => xs.filter((x) => typeof x === 'number' && x >= 1).length;
      assert.deepEqual(doc.summary, {
        tasks_total: doc.tasks.length,
        tasks_any_pass: all.filter((xs: any[]) => passes(xs) > 0).length,
        attempts_total: all.flat().length,
        attempts_passed: passes(all.flat()),
        n_all_infra: all.filter((xs: any[]) => xs.every((x) => x === null)).length,
      });
      for (const { cell, rewards } of cells) {
        const first = rewards.findIndex((x: number | null) => typeof x === 'number' && x >= 1);
        assert.equal(cell.passed_at, first < 0 ? null : first + 1);
      }
      for (const [axis, list] of [['model', doc.by_model], ['harness', doc.by_harness]] as const) {
        for (const row of list) {
          const mine = cells.filter((c: any) => c.key.split('|')[axis === 'model' ? 0 : 1] === row[axis]);
          const measured = mine.filter((c: any) => refPassAtK(c.rewards, 1) !== null);
          assert.equal(row.cells, mine.length);
          assert.equal(row.n_measured, measured.length);
          for (const k of [1, doc.k_max]) {
            const want = measured.length ? measured.reduce((s: number, c: any) => s + refPassAtK(c.rewards, k)!, 0) / measured.length : null;
            const got = row[`pass@${k}`];
            assert.ok(want === null ? got === null : Math.abs(got - want) < 1e-4, `${ds.id} ${row[axis]} pass@${k}: ${got} vs ${want}`);
          }
        }
      }
    }
    const eval1 = readJson(path.join(r.datasets['eval-v1'], 'summary.json'));
    assert.equal(eval1.summary.n_all_infra, 1);
  });

  test('traces: every referenced trace is on disk except the one meant to be missing; training metrics parse', async () => {
    const r = await generateViewerData(tmp(), viewerEveryCase());
    assert.equal(r.missingTraces.length, 1);
    for (const [, dir] of Object.entries(r.datasets)) {
      const doc = readJson(path.join(dir, 'summary.json'));
      for (const t of doc.tasks) for (const cell of Object.values(t.cells) as any[]) for (const a of cell.attempts) {
        if (!a.trace) continue;
        const p = path.join(dir, a.trace);
        assert.equal(fs.existsSync(p), !r.missingTraces.includes(p), p);
        if (fs.existsSync(p)) assert.ok(ViewerTraceSchema.safeParse(readJson(p)).success);
      }
    }
    const runs = path.join(r.projectDir, 'runs');
    for (const id of fs.readdirSync(runs)) {
      assert.ok(TrainingRunSchema.safeParse(readJson(path.join(runs, id, 'run.json'))).success);
      const res = await readJsonl(new NodeFs(), path.join(runs, id, 'train', 'metrics.jsonl'), () => undefined);
      assert.equal(res.problems.filter((p) => p.severity === 'error').length, 0);
    }
  });
});

describe('examples/', () => {
  test('the generator writes every folder, small; the committed examples match it byte for byte', async () => {
    const out = tmp();
    await generateExamples(out);
    for (const d of ['nemo-gym/tb-mini/rollouts.jsonl', 'nemo-gym/tb-smoke/smoke.jsonl', 'harbor/jobs', 'viewer-data/projects/data-agent/project.json']) {
      assert.ok(fs.existsSync(path.join(out, d)), d);
    }
    assert.ok(!listFiles(path.join(out, 'nemo-gym', 'tb-smoke')).some((f) => f.endsWith('_run_summary.json')));
    assert.ok(fs.existsSync(path.join(out, 'nemo-gym', 'tb-mini', 'rollouts_run_summary.json')));
    assert.ok(totalBytes(out) < 700_000, `examples are ${totalBytes(out)} bytes`);
    // What a fresh clone gets is what git keeps: files, not folders (an empty one vanishes) and not what an ignore
    // rule drops (the repository-wide out/ and *.log rules once dropped a Harbor artifact and the job logs).
    assert.deepEqual(emptyFolders(out), [], 'git does not keep empty folders');
    const ignored = gitIgnored(listFiles(out).map((f) => `examples/${f}`));
    assert.deepEqual(ignored, [], 'examples/.gitignore must re-include what the repository-wide rules drop');
    const committed = path.join(repoRoot, 'examples');
    if (!fs.existsSync(path.join(committed, 'nemo-gym'))) return;
    // Everything the generator writes, the writer's run summary included (a change of the writer's output shows here
    // too: regenerate with `npm run examples` when it is meant). Top-level files (README.md, .gitignore) are hand-written.
    const strip = (m: Map<string, Buffer>) => new Map([...m].filter(([k]) => k.includes('/')));
    assert.equal(firstDifference(strip(snapshot(committed)), strip(snapshot(out))), undefined, 'run `npm run examples` after changing the generator');
  });
});

function emptyFolders(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    const entries = fs.readdirSync(d, { withFileTypes: true });
    if (!entries.length) out.push(path.relative(dir, d));
    for (const e of entries) if (e.isDirectory()) walk(path.join(d, e.name));
  };
  walk(dir);
  return out;
}

/**
 * The paths (relative to the repository) that its ignore rules drop, as `git check-ignore --no-index` says; [] when
 * the repository is not the root of a git work tree (a tarball, or a copy inside another work tree such as the
 * mutation-testing sandbox: no commit of this tree drops anything there).
 */
function gitIgnored(paths: string[]): string[] {
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: repoRoot, encoding: 'utf8' });
  if (top.status !== 0 || fs.realpathSync(top.stdout.trim()) !== fs.realpathSync(repoRoot)) return [];
  const r = spawnSync('git', ['check-ignore', '--no-index', '--stdin', '-z'], { cwd: repoRoot, input: paths.join('\0'), encoding: 'utf8' });
  // Exit 0: some paths are ignored, 1: none is, anything else: git failed.
  assert.ok(r.status === 0 || r.status === 1, `git check-ignore failed: ${r.stderr}`);
  return r.stdout.split('\0').filter(Boolean);
}
