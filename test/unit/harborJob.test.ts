// readHarborJob / isHarborJobDir on job folders built in temp dirs, plus the shared sample job when it exists.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import type { Attempt, Evidence, Run } from '../../src/core/model';
import { isHarborJobDir, readHarborJob } from '../../src/core/readers/harborJob';
import { discoverRuns } from '../../src/core/discovery';

const nodeFs = new NodeFs();
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-job-test-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let counter = 0;

// ---------------------------------------------------------------- builders

function write(file: string, content: string | object): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 4));
}

function newJob(opts: { finished?: boolean; config?: object | string; nTotal?: number } = {}): string {
  const dir = path.join(tmpRoot, `job-${++counter}`);
  write(path.join(dir, 'config.json'), opts.config ?? { job_name: `job-${counter}`, agents: [{ name: 'terminus-2', model_name: 'anthropic/claude-x' }], datasets: [{ name: 'demo/bench' }] });
  write(path.join(dir, 'result.json'), {
    id: 'job-id', started_at: '2026-08-21T14:03:11.204318', updated_at: null,
    finished_at: opts.finished === false ? null : '2026-08-21T14:13:27.002116',
    n_total_trials: opts.nTotal ?? 0, stats: { n_completed_trials: 0, n_errored_trials: 0, evals: {} },
  });
  write(path.join(dir, 'job.log'), 'log\n');
  return dir;
}

interface TrialOpts {
  task?: string;
  agent?: string;
  model?: string;
  reward?: number | Record<string, number> | null;
  exception?: string;
  startedAt?: string;
  agentRan?: boolean;
  /** Files relative to the trial dir. */
  files?: Record<string, string | object>;
  result?: object | string | false;
  over?: Record<string, unknown>;
}

function resultOf(jobDir: string, name: string, o: TrialOpts): Record<string, unknown> {
  const task = o.task ?? 'demo/task';
  const agent = o.agent ?? 'terminus-2';
  const rewards = o.reward === undefined || o.reward === null ? null : typeof o.reward === 'number' ? { reward: o.reward } : o.reward;
  const started = o.startedAt ?? '2026-08-21T12:00:00.000000Z';
  const t = { started_at: started, finished_at: '2026-08-21T12:01:00.000000Z' };
  return {
    id: `id-${name}`, task_name: task, trial_name: name, trial_uri: `file://${jobDir}/${name}`,
    task_id: { path: task }, source: 'demo/bench', task_checksum: 'abc',
    config: { trial_name: name, agent: { name: agent, model_name: o.model ?? 'anthropic/claude-x' } },
    agent_info: { name: agent, version: '1.0', model_info: { name: 'claude-x', provider: 'anthropic' } },
    agent_result: o.agentRan === false ? null : { n_input_tokens: 100, n_cache_tokens: 40, n_output_tokens: 10, cost_usd: 0.02, rollout_details: null, metadata: { n_episodes: 3 } },
    verifier_result: rewards ? { rewards } : null,
    verifier_environment_mode: 'shared',
    exception_info: o.exception ? { exception_type: o.exception, exception_message: 'boom', exception_traceback: 'tb', occurred_at: t.finished_at } : null,
    started_at: started, finished_at: '2026-08-21T12:02:30.000000Z',
    environment_setup: t, agent_setup: t, agent_execution: o.agentRan === false ? null : t,
    verifier: rewards ? t : null,
    step_results: null,
    ...o.over,
  };
}

function addTrial(jobDir: string, name: string, o: TrialOpts = {}): string {
  const dir = path.join(jobDir, name);
  write(path.join(dir, 'config.json'), { trial_name: name, task: { name: o.task ?? 'demo/task' }, agent: { name: o.agent ?? 'terminus-2', model_name: o.model ?? 'anthropic/claude-x' } });
  write(path.join(dir, 'trial.log'), 'trial log\n');
  if (o.result !== false) write(path.join(dir, 'result.json'), o.result ?? resultOf(jobDir, name, o));
  for (const [rel, content] of Object.entries(o.files ?? {})) write(path.join(dir, rel), content);
  return dir;
}

/** The usual files of a scored terminus-2 trial. */
const scoredFiles = (reward: string) => ({
  'agent/trajectory.json': { schema_version: 'ATIF-v1.7', agent: { name: 'terminus-2', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'x' }] },
  'verifier/test-stdout.txt': 'ok\n',
  'verifier/reward.txt': reward,
});

const attemptsOf = (run: Run): Attempt[] => run.tasks.flatMap((t) => t.attempts);
const ev = (a: Attempt, label: string): Evidence | undefined => a.evidence.find((e) => e.label === label);
const problemCodes = (run: Run) => run.problems.map((p) => p.code);

// ---------------------------------------------------------------- tests

test('a finished job: outcomes, rewards, tasks, cells, timing, tokens, run files', async () => {
  const job = newJob({ nTotal: 3 });
  addTrial(job, 'a__1', { task: 'demo/a', reward: 1, files: scoredFiles('1') });
  addTrial(job, 'b__1', { task: 'demo/b', reward: 0, files: { ...scoredFiles('0'), 'verifier/ctrf.json': { results: { tests: [{ name: 't1', status: 'passed' }, { name: 't2', status: 'failed', message: 'assert 1 == 2' }] } } } });
  addTrial(job, 'c__1', { task: 'demo/c', exception: 'EnvironmentStartTimeoutError', agentRan: false, files: { 'exception.txt': 'Traceback' } });
  const run = await readHarborJob(nodeFs, job);
  assert.equal(run.kind, 'harbor-job');
  assert.equal(run.state, 'complete');
  assert.equal(run.root, job);
  assert.deepEqual(run.tasks.map((t) => t.id), ['demo/a', 'demo/b', 'demo/c']);
  const [a, b, c] = attemptsOf(run);
  assert.deepEqual([a.outcome, a.reward], ['passed', 1]);
  assert.deepEqual([b.outcome, b.reward], ['failed', 0]);
  assert.deepEqual([c.outcome, c.reward], ['infra-error', null]);
  assert.equal(c.exception?.type, 'EnvironmentStartTimeoutError');
  assert.equal(a.cell, 'terminus-2|anthropic/claude-x');
  assert.equal(a.id, 'demo/a#0');
  assert.equal(a.label, '#1');
  assert.equal(a.durationSec, 150);
  assert.deepEqual(a.tokens, { input: 100, cached: 40, output: 10 });
  assert.equal(a.costUsd, 0.02);
  assert.equal(a.nTurns, 3);
  assert.equal(a.dir, path.join(job, 'a__1'));
  assert.deepEqual(ev(b, 'ctrf.json')?.failedTests, [{ name: 't2', message: 'assert 1 == 2' }]);
  for (const label of ['result.json', 'config.json', 'trial.log', 'trajectory.json', 'verifier/', 'test-stdout.txt', 'reward.txt']) {
    assert.equal(ev(a, label)?.present, true, label);
  }
  assert.equal(ev(c, 'exception.txt')?.present, true);
  assert.deepEqual(a.missing, []);
  assert.deepEqual(c.missing, []);
  assert.equal(run.identity.job, run.identity.job && path.basename(job));
  assert.equal(run.identity.agent, 'terminus-2');
  assert.equal(run.identity.model, 'anthropic/claude-x');
  assert.equal(run.identity.dataset, 'demo/bench');
  assert.deepEqual(run.files.map((f) => [f.key, f.present]), [['job-config', true], ['job-lock', false], ['job-result', true], ['job-log', true]]);
  assert.deepEqual(run.problems, []);
});

test('attempts: sorted by started_at then trial name, numbered per cell', async () => {
  const job = newJob();
  addTrial(job, 't__zzz', { reward: 0, startedAt: '2026-08-21T12:00:00Z', files: scoredFiles('0') });
  addTrial(job, 't__aaa', { reward: 1, startedAt: '2026-08-21T12:05:00Z', files: scoredFiles('1') });
  addTrial(job, 't__mmm', { reward: 0, startedAt: '2026-08-21T12:00:00Z', files: scoredFiles('0') });
  addTrial(job, 't__other', { reward: 1, model: 'openai/gpt-x', startedAt: '2026-08-21T11:00:00Z', files: scoredFiles('1') });
  const run = await readHarborJob(nodeFs, job);
  assert.equal(run.tasks.length, 1);
  const at = run.tasks[0].attempts;
  assert.deepEqual(at.map((a) => a.details?.trial), ['t__other', 't__mmm', 't__zzz', 't__aaa']);
  assert.deepEqual(at.map((a) => a.index), [0, 0, 1, 2]);
  assert.equal(at[0].id, 'demo/task#terminus-2|openai/gpt-x#0');
  assert.equal(at[3].id, 'demo/task#terminus-2|anthropic/claude-x#2');
  assert.equal(run.identity.model, 'anthropic/claude-x, openai/gpt-x');
});

test('a running job: trials without result.json are running, the run is running', async () => {
  const job = newJob({ finished: false });
  addTrial(job, 'done__1', { reward: 1, files: scoredFiles('1') });
  addTrial(job, 'busy__1', { result: false, task: 'demo/busy' });
  const run = await readHarborJob(nodeFs, job);
  assert.equal(run.state, 'running');
  const busy = run.tasks.find((t) => t.id === 'demo/busy')!.attempts[0];
  assert.equal(busy.outcome, 'running');
  assert.deepEqual(busy.missing, []);
  assert.equal(busy.cell, 'terminus-2|anthropic/claude-x');
});

test('a job that never recorded its end, every trial done: incomplete', async () => {
  const job = newJob({ finished: false });
  addTrial(job, 'done__1', { reward: 1, files: scoredFiles('1') });
  const run = await readHarborJob(nodeFs, job);
  assert.equal(run.state, 'incomplete');
  assert.equal(attemptsOf(run)[0].outcome, 'passed');
});

test('a finished job: a trial without result.json is incomplete and its result.json is missing', async () => {
  const job = newJob({ nTotal: 2 });
  addTrial(job, 'ok__1', { reward: 1, files: scoredFiles('1') });
  const lost = addTrial(job, 'lost__1', { result: false, task: 'demo/lost' });
  const run = await readHarborJob(nodeFs, job);
  const a = run.tasks.find((t) => t.id === 'demo/lost')!.attempts[0];
  assert.equal(a.outcome, 'incomplete');
  assert.deepEqual(a.missing, [path.join(lost, 'result.json')]);
  assert.equal(ev(a, 'result.json')?.present, false);
  assert.ok(run.problems.some((p) => p.code === 'missing-path' && p.file === path.join(lost, 'result.json')));
});

test('missing evidence: reward file after the verifier ran, trajectory of an ATIF agent, exception.txt', async () => {
  const job = newJob();
  const t = addTrial(job, 'x__1', { reward: 1, exception: 'AgentTimeoutError', files: { 'verifier/test-stdout.txt': 'out' } });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.equal(a.outcome, 'truncated');
  assert.equal(a.reward, 1);
  assert.deepEqual(a.missing.sort(), [
    path.join(t, 'agent', 'trajectory.json'), path.join(t, 'exception.txt'), path.join(t, 'verifier', 'reward.txt'),
  ].sort());
  assert.equal(run.problems.filter((p) => p.code === 'missing-path').length, 3);
  assert.equal(ev(a, 'trajectory.json')?.namedBy?.includes('terminus-2'), true);
});

test('multi-key rewards expect reward.json; a non-ATIF agent (oracle) is not expected to write a trajectory', async () => {
  const job = newJob();
  const t = addTrial(job, 'o__1', { agent: 'oracle', reward: { correctness: 1, quality: 0.5 }, files: { 'agent/oracle.txt': 'ran' } });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.deepEqual(a.missing, [path.join(t, 'verifier', 'reward.json')]);
  assert.equal(a.outcome, 'no-result');
  assert.deepEqual(a.rewards, { correctness: 1, quality: 0.5 });
  assert.equal(ev(a, 'agent/')?.present, true);
});

test('absent optional evidence is not listed', async () => {
  const job = newJob();
  addTrial(job, 'n__1', { agentRan: false });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.equal(a.outcome, 'no-result');
  assert.deepEqual(a.evidence.map((e) => e.label), ['result.json', 'config.json', 'trial.log']);
  assert.deepEqual(a.missing, []);
});

test('trajectory continuations, artifacts with manifest, legacy test-stderr.txt', async () => {
  const job = newJob();
  addTrial(job, 'c__1', {
    reward: 0,
    files: {
      ...scoredFiles('0'),
      'agent/trajectory.cont-2.json': '{}', 'agent/trajectory.cont-10.json': '{}', 'agent/trajectory.cont-1.json': '{}',
      'verifier/test-stderr.txt': 'err',
      'artifacts/manifest.json': [{ source: '/logs/artifacts', destination: 'artifacts/logs/artifacts', type: 'directory', status: 'ok', service: null }, { source: '/app/out', destination: 'artifacts/app/out', type: 'file', status: 'failed', service: 'db' }],
    },
  });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.deepEqual(a.evidence.filter((e) => e.kind === 'trajectory').map((e) => e.label),
    ['trajectory.json', 'trajectory.cont-1.json', 'trajectory.cont-2.json', 'trajectory.cont-10.json']);
  assert.equal(ev(a, 'test-stderr.txt')?.kind, 'test-stdout');
  assert.equal(ev(a, 'artifacts/')?.isDir, true);
  assert.equal(ev(a, 'manifest.json')?.present, true);
  assert.ok(run.problems.some((p) => p.code === 'artifact-failed' && p.message.includes('/app/out')));
});

test('multi-step trial: steps/<name>/ as evidence with children; step exceptions decide', async () => {
  const job = newJob();
  const t = addTrial(job, 'ms__1', {
    reward: 0.5,
    over: {
      agent_result: null,
      step_results: [
        { step_name: 'one', agent_result: { n_input_tokens: 10, n_output_tokens: 1 }, verifier_result: { rewards: { reward: 1 } }, exception_info: null, verifier: { started_at: 'a', finished_at: 'b' } },
        { step_name: 'two', agent_result: { n_input_tokens: 20, n_output_tokens: 2 }, verifier_result: { rewards: { reward: 0 } }, exception_info: { exception_type: 'AgentTimeoutError', exception_message: 'late' }, verifier: { started_at: 'a', finished_at: 'b' } },
      ],
    },
    files: {
      'steps/one/agent/trajectory.json': '{}', 'steps/one/verifier/reward.txt': '1', 'steps/one/verifier/test-stdout.txt': 'ok',
      'steps/two/agent/trajectory.json': '{}', 'steps/two/verifier/test-stdout.txt': 'ok',
    },
  });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.equal(a.outcome, 'truncated');
  assert.equal(a.reward, 0.5);
  assert.equal(a.exception?.where, 'two');
  assert.deepEqual(a.steps?.map((s) => [s.name, s.reward]), [['one', 1], ['two', 0]]);
  assert.deepEqual(a.tokens, { input: 30, cached: null, output: 3 });
  const steps = a.evidence.filter((e) => e.kind === 'step');
  assert.deepEqual(steps.map((s) => s.label), ['steps/one/', 'steps/two/']);
  assert.deepEqual(steps[0].children?.map((c) => c.label), ['agent/', 'trajectory.json', 'verifier/', 'test-stdout.txt', 'reward.txt']);
  // Step two's verifier ran and left no reward file; no root-level trajectory or reward is expected.
  assert.deepEqual(a.missing, [path.join(t, 'steps', 'two', 'verifier', 'reward.txt')]);
});

test('bad JSON anywhere is a Problem with line and column; the rest is still read', async () => {
  const job = newJob({ config: '{\n  "job_name": "x",\n  "agents": [\n}' });
  addTrial(job, 'good__1', { reward: 1, files: scoredFiles('1') });
  const bad = addTrial(job, 'bad__1', { task: 'demo/bad', result: '{\n    "task_name": "demo/bad",\n    "reward": oops\n}' });
  addTrial(job, 'typed__1', { task: 'demo/typed', result: { task_name: 'demo/typed', verifier_result: { rewards: { reward: 'high' } } } });
  const run = await readHarborJob(nodeFs, job);
  const cfgProblem = run.problems.find((p) => p.file === path.join(job, 'config.json'));
  assert.equal(cfgProblem?.code, 'parse-error');
  assert.equal(cfgProblem?.line, 4);
  const resProblem = run.problems.find((p) => p.file === path.join(bad, 'result.json'));
  assert.equal(resProblem?.code, 'parse-error');
  assert.equal(resProblem?.line, 3);
  assert.equal(typeof resProblem?.column, 'number');
  const byTask = Object.fromEntries(run.tasks.map((t) => [t.id, t.attempts[0]]));
  assert.equal(byTask['demo/task'].outcome, 'passed');
  // The unparsable result falls back to the trial config for its task name, and scores nothing.
  assert.equal(byTask['demo/bad'].outcome, 'infra-error');
  assert.equal(byTask['demo/typed'].outcome, 'infra-error');
  const typed = run.problems.find((p) => p.code === 'invalid-result');
  assert.ok(typed?.message.includes('verifier_result.rewards.reward'));
  assert.equal(typed?.line, 5, 'placed at the offending key');
  assert.equal(run.identity.job, path.basename(job), 'job name falls back to the folder name');
});

test('a moved job folder: paths resolve under the job dir, the recorded trial_uri is kept as a detail', async () => {
  const job = newJob();
  addTrial(job, 'm__1', { reward: 1, files: scoredFiles('1'), over: { trial_uri: 'file:///somewhere/else/jobs/j/m__1' } });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.equal(a.dir, path.join(job, 'm__1'));
  assert.equal(ev(a, 'reward.txt')?.path, path.join(job, 'm__1', 'verifier', 'reward.txt'));
  assert.equal(a.details?.recordedDir, '/somewhere/else/jobs/j/m__1');
});

test('a finished job with fewer trial folders than it recorded is flagged', async () => {
  const job = newJob({ nTotal: 3 });
  addTrial(job, 'one__1', { reward: 1, files: scoredFiles('1') });
  const run = await readHarborJob(nodeFs, job);
  assert.ok(problemCodes(run).includes('missing-trials'));
});

test('a folder that is not there gives a Run with a problem, not a throw', async () => {
  const run = await readHarborJob(nodeFs, path.join(tmpRoot, 'nope'));
  assert.equal(run.tasks.length, 0);
  assert.ok(run.problems.length > 0);
});

test('isHarborJobDir: a job dir yes; a trial dir, an empty dir, a jobs dir no', async () => {
  const job = newJob();
  const trial = addTrial(job, 'x__1', { reward: 1 });
  assert.equal(await isHarborJobDir(nodeFs, job), true);
  assert.equal(await isHarborJobDir(nodeFs, trial), false);
  assert.equal(await isHarborJobDir(nodeFs, tmpRoot), false);
  const empty = path.join(tmpRoot, `empty-${++counter}`);
  fs.mkdirSync(empty);
  assert.equal(await isHarborJobDir(nodeFs, empty), false);
  const noTrials = newJob();
  assert.equal(await isHarborJobDir(nodeFs, noTrials), false);
});

test('discovery lists a job folder once to find it is one (isHarborJobDir takes the listing it has)', async () => {
  const job = newJob();
  addTrial(job, 'x__1', { reward: 1 });
  const listed: string[] = [];
  const counting = Object.assign(Object.create(nodeFs) as NodeFs, {
    readDir: (p: string) => { listed.push(p); return nodeFs.readDir(p); },
  });
  const found = await discoverRuns(counting, job);
  assert.deepEqual(found.map((c) => c.variant), ['job']);
  assert.equal(listed.filter((p) => p === job).length, 1, listed.join('\n'));
  assert.equal(await isHarborJobDir(nodeFs, job, await nodeFs.readDir(job)), true);
  assert.equal(await isHarborJobDir(nodeFs, job, []), false, 'the listing given is the one used');
});

// ---------------------------------------------------------------- conformance: the shared sample job

const fixtures = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'harbor');
const sampleJob = path.join(fixtures, 'jobs', '2026-08-21__14-03-11');
const variant = path.join(fixtures, 'variants', 'agent-timeout-with-reward.result.json');
const skip = !fs.existsSync(sampleJob) && 'no shared fixtures';

test('conformance: the sample job reads as Harbor describes it', { skip }, async () => {
  assert.equal(await isHarborJobDir(nodeFs, sampleJob), true);
  const run = await readHarborJob(nodeFs, sampleJob);
  assert.equal(run.state, 'complete');
  const by = Object.fromEntries(run.tasks.map((t) => [t.id, t.attempts]));
  const fix = by['terminal-bench/fix-git'][0];
  const regex = by['terminal-bench/regex-log'][0];
  const cython = by['terminal-bench/build-cython-ext'][0];
  assert.deepEqual([fix.outcome, fix.reward], ['passed', 1]);
  assert.deepEqual([regex.outcome, regex.reward], ['failed', 0]);
  assert.deepEqual([cython.outcome, cython.reward], ['infra-error', null]);
  assert.equal(cython.exception?.type, 'EnvironmentStartTimeoutError');
  assert.deepEqual(ev(regex, 'ctrf.json')?.failedTests?.map((t) => t.name), ['test_outputs.py::test_regex_matches_dates']);
  assert.equal(fix.cell, 'terminus-2|anthropic/claude-sonnet-4-5');
  assert.equal(fix.dir, path.join(sampleJob, 'fix-git__Xk3pQ7a'));
  assert.deepEqual(attemptsOf(run).flatMap((a) => a.missing), []);
  assert.equal(run.problems.filter((p) => p.severity !== 'info').length, 0, JSON.stringify(run.problems));
  assert.equal(run.identity.dataset, 'terminal-bench/terminal-bench-2');
  assert.equal(run.identity.harborVersion, '0.22.0');
  assert.deepEqual(run.files.map((f) => f.present), [true, true, true, true]);
});

test('conformance: variants/agent-timeout-with-reward.result.json in a trial dir → truncated with reward 1', { skip: !fs.existsSync(variant) && 'no shared fixtures' }, async () => {
  const job = newJob();
  addTrial(job, 'regex-log__9mFhT2c', { result: fs.readFileSync(variant, 'utf8'), files: { ...scoredFiles('1'), 'exception.txt': 'tb' } });
  const run = await readHarborJob(nodeFs, job);
  const a = attemptsOf(run)[0];
  assert.equal(a.outcome, 'truncated');
  assert.equal(a.reward, 1);
  assert.equal(a.exception?.type, 'AgentTimeoutError');
  assert.deepEqual(a.missing, []);
});

test('a job read through batched gathers (worker thread) is the same run as one read call by call', async () => {
  const { generateHarborJob, harborEveryCase, harborLarge } = await import('../../scripts/sample-runs/harborJob');
  for (const [label, spec] of [['every-case', harborEveryCase()], ['large', harborLarge(150, 3)]] as const) {
    const { jobDir } = await generateHarborJob(path.join(tmpRoot, `gather-${label}`), spec);
    const job = jobDir.split(path.sep).join('/');
    const callByCall = Object.assign(Object.create(nodeFs) as NodeFs, { gather: undefined, listDirs: undefined });
    let progress = 0;
    const fast = await readHarborJob(nodeFs, job, { onProgress: (p) => { progress = p.done; assert.ok(p.partial().tasks.length > 0); } });
    const slow = await readHarborJob(callByCall, job);
    assert.deepEqual(fast, slow, label);
    assert.equal(progress, spec.trials.length, `${label}: progress reached every trial folder`);
    assert.equal(attemptsOf(fast).length, spec.trials.length, label);
  }
});

test('trials are gathered 32 folders first, then batches that double up to 64 (this thread parses sooner)', async () => {
  const { generateHarborJob, harborLarge } = await import('../../scripts/sample-runs/harborJob');
  const { jobDir } = await generateHarborJob(path.join(tmpRoot, 'ramp'), harborLarge(200, 3));
  const done: number[] = [];
  const run = await readHarborJob(nodeFs, jobDir.split(path.sep).join('/'), { onProgress: (p) => done.push(p.done) });
  assert.deepEqual(done, [32, 96, 160, 224, 288, 352, 416, 480, 544, 600]);
  assert.equal(attemptsOf(run).length, 600);
});

test('the folders of two batches ahead are asked before this thread parses a batch (the worker kept busy)', async () => {
  const { generateHarborJob, harborLarge } = await import('../../scripts/sample-runs/harborJob');
  const { jobDir } = await generateHarborJob(path.join(tmpRoot, 'ahead'), harborLarge(100, 3));
  const job = jobDir.split(path.sep).join('/');
  const asked: string[] = [];
  const port = Object.assign(Object.create(nodeFs) as NodeFs, {
    gather: (lists: string[], reads: { path: string; maxBytes: number }[], stats?: string[]) => {
      const trials = reads.filter((r) => r.path.endsWith('/result.json') && path.posix.dirname(path.posix.dirname(r.path)) === job).length;
      // The job's own files are asked first (no trial's result among them): not counted.
      if (trials || asked.length) asked.push(trials ? `folders ${trials}` : 'follow-ups');
      return nodeFs.gather(lists, reads, stats);
    },
  });
  const run = await readHarborJob(port, job);
  assert.deepEqual(asked.slice(0, asked.indexOf('follow-ups')), ['folders 32', 'folders 64', 'folders 64'], asked.join(', '));
  assert.equal(attemptsOf(run).length, 300);
});
