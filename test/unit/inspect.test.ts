// `harbor-runs inspect`, run as the user runs it: the built CLI (out/cli.js) in a child process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as findRepoRoot } from '../support/paths';
import { spawnSync } from 'node:child_process';
import { generateExamples } from '../../scripts/sample-runs/examples';

// Every temp folder of this file sits in one, removed after its tests.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-inspect-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const cli = path.resolve(__dirname, '..', '..', 'cli.js');
const repoRoot = findRepoRoot();
const fixtures = path.resolve(repoRoot, '..', 'shared', 'fixtures');

function inspect(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, 'inspect', ...args], { encoding: 'utf8', cwd: os.tmpdir() });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

interface JsonRun {
  kind: string; label: string; anchor: string;
  counts: { total: number; byOutcome: Record<string, number>; measured: number; passed: number };
  maxAttempts: number;
  passAtK: { k: number; value: number | null; nTasks: number; nMeasured: number; nAllInfra: number }[];
  tasks: { id: string; attempts: { outcome: string; sourceOutcome?: string; missing: string[]; reward: number | null }[] }[];
  skipped: { taskId: string }[];
  problems: { code: string; file: string; line?: number }[];
}

/** A NeMo Gym run (3 tasks × 2 repeats) with one absent verifier folder and one all-infra task. */
function makeRoot(): string {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-inspect-')).split(path.sep).join('/');
  const rep = (n: number, o: Record<string, unknown>) => ({ repeat: n, outcome: 'scored', reward: 1, missing: [], ...o });
  write(`${root}/run/rollouts.jsonl`, '');
  write(`${root}/run/rollouts_run_summary.json`, {
    taskset: 'tb', agent: 'oracle', files: { rollouts: 'rollouts.jsonl', run_config: 'run_config.yaml' },
    missing_paths: ['verifier/gone'], skipped: { broken: 'did not load' },
    tasks: [
      { task_id: 'a', task_index: 0, repeats: [rep(0, {}), rep(1, { reward: 0 })] },
      { task_id: 'b', task_index: 1, repeats: [rep(0, { reward: 0 }), rep(1, { missing: ['verifier/gone'] })] },
      { task_id: 'c', task_index: 2, repeats: [rep(0, { outcome: 'failed', reward: null }), rep(1, { outcome: 'masked', reward: 0, mask_sample: true })] },
    ],
  });
  return root;
}

test('usage errors exit 2, an unreadable path exits 1, both with a message on stderr', () => {
  const none = inspect();
  assert.equal(none.code, 2);
  assert.match(none.err, /missing <path>/);
  assert.match(none.err, /usage: harbor-runs inspect/);
  const two = inspect('a', 'b');
  assert.equal(two.code, 2);
  const bad = inspect('.', '--frobnicate');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown option --frobnicate/);
  const gone = inspect(path.join(tmpRoot, 'no-such-folder-here'));
  assert.equal(gone.code, 1);
  assert.match(gone.err, /cannot read .*no such file or folder/);
  assert.equal(gone.out, '');
});

test('text: kind, identity, counts by outcome, pass@1 and pass@k, missing paths relative to the path given, problems with file:line', () => {
  const root = makeRoot();
  const r = inspect(root);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^1 run under /);
  assert.match(r.out, /nemo-gym: tb · oracle/);
  assert.match(r.out, /taskset=tb {2}agent=oracle/);
  assert.match(r.out, /attempts {3}6 in 3 tasks: passed 2, failed 2, infra-error 2/);
  // a: [1, 0] → 0.5; b: [0, 1] → 0.5; c: all infra. pass@2: 1, 1.
  assert.match(r.out, /pass@1 +0\.500 over 2 measured of 3 \(1 all-infra/);
  assert.match(r.out, /pass@2 +1\.000 over 2 measured of 3/);
  assert.match(r.out, /missing {4}run\/run_config\.yaml \(run config\)/);
  assert.match(r.out, /missing {4}run\/verifier\/gone \(b #2\)/);
  assert.match(r.out, /skipped {4}broken: did not load/);
  assert.match(r.out, /error +run\/rollouts_run_summary\.json:\d+:\d+ +missing-path/);
  assert.match(r.out, /c +#1 infra-error \(no reward; failure row\) +#2 infra-error \(no reward; masked row\)/);
});

test('--json prints the documented document with counts and pass@k per run', () => {
  const root = makeRoot();
  const r = inspect(root, '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { schema: string; root: string; runs: JsonRun[] };
  assert.equal(doc.schema, 'harbor-runs/inspect@1');
  assert.equal(doc.root, root);
  assert.equal(doc.runs.length, 1);
  const run = doc.runs[0];
  assert.equal(run.counts.total, 6);
  assert.equal(run.counts.byOutcome['infra-error'], 2);
  assert.equal(run.counts.measured, 4);
  assert.equal(run.maxAttempts, 2);
  assert.deepEqual(run.passAtK, [
    { k: 1, value: 0.5, nTasks: 3, nMeasured: 2, nAllInfra: 1 },
    { k: 2, value: 1, nTasks: 3, nMeasured: 2, nAllInfra: 1 },
  ]);
  assert.deepEqual(run.tasks[1].attempts[1].missing, [`${root}/run/verifier/gone`]);
});

test('--include and --exclude select runs by their path relative to the root', () => {
  const root = makeRoot();
  write(`${root}/other/x_run_summary.json`, { files: {}, tasks: [] });
  const all = JSON.parse(inspect(root, '--json').out) as { runs: JsonRun[] };
  assert.equal(all.runs.length, 2);
  const inc = JSON.parse(inspect(root, '--json', '--include', 'other/**').out) as { runs: JsonRun[] };
  assert.deepEqual(inc.runs.map((x) => path.basename(x.anchor)), ['x_run_summary.json']);
  const exc = JSON.parse(inspect(root, '--json', '--exclude=other').out) as { runs: JsonRun[] };
  assert.deepEqual(exc.runs.map((x) => path.basename(x.anchor)), ['rollouts_run_summary.json']);
  const none = inspect(root, '--include', 'nothing/**');
  assert.equal(none.code, 0);
  assert.match(none.out, /No runs found/);
});

test('a summary that does not parse still exits 0 and names file:line', () => {
  const root = makeRoot();
  write(`${root}/run/rollouts_run_summary.json`, '{\n  "files": {,\n}');
  const r = inspect(root);
  assert.equal(r.code, 0);
  assert.match(r.out, /error +run\/rollouts_run_summary\.json:2:\d+ +parse-error/);
});

test('conformance: the shared Harbor sample reports pass, fail and an environment failure', (t) => {
  const dir = path.join(fixtures, 'harbor');
  if (!fs.existsSync(dir)) { t.skip('no shared fixtures'); return; }
  const r = inspect(dir, '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { runs: JsonRun[] };
  // The every-case job (examples/compare/ holds other Harbor jobs).
  const job = doc.runs.find((x) => x.kind === 'harbor-job' && x.anchor.includes('/harbor/jobs/'));
  assert.ok(job);
  const outcomes = Object.fromEntries(job.tasks.map((task) => [task.id.split('/').pop(), task.attempts.map((a) => a.outcome)]));
  assert.deepEqual(outcomes, { 'fix-git': ['passed'], 'regex-log': ['failed'], 'build-cython-ext': ['infra-error'] });
  assert.equal(job.passAtK[0].nAllInfra, 1);
  const text = inspect(dir).out;
  assert.match(text, /EnvironmentStartTimeoutError/);
});

test('conformance: the shared NeMo Gym sample reports the absent verifier folder, skipped task, failure row and masked row', (t) => {
  const dir = path.join(fixtures, 'nemo-gym');
  if (!fs.existsSync(dir)) { t.skip('no shared fixtures'); return; }
  const r = inspect(dir, '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { runs: JsonRun[] };
  const run = doc.runs.find((x) => x.anchor.endsWith('/nemo-gym/rollouts_run_summary.json'));
  assert.ok(run);
  const by = (id: string) => run.tasks.find((x) => x.id === id)!.attempts;
  assert.deepEqual(by('hello-world').map((a) => a.outcome), ['passed', 'passed']);
  assert.deepEqual(by('fix-permissions').map((a) => a.outcome), ['failed', 'passed']);
  assert.equal(by('fix-permissions')[1].missing.length, 1);
  assert.deepEqual(by('parse-csv').map((a) => [a.outcome, a.sourceOutcome]), [['infra-error', 'failed'], ['infra-error', 'masked']]);
  assert.deepEqual(run.skipped.map((s) => s.taskId), ['broken-task']);
  const text = inspect(dir).out;
  assert.match(text, /missing +verifier\/resources-session-19c06ac165441cb97932123d63eca824 \(fix-permissions #2\)/);
  assert.match(text, /skipped +broken-task/);
  assert.match(text, /failure row; environment_server_failed at seed/);
  assert.match(text, /masked row; provider_unavailable/);
  // The stale-files variant names its stale files.
  assert.match(text, /stale +variants\/rollouts\.jsonl/);
});

// What the two conformance tests above check on the shared samples, checked on the project's own generated examples
// (the same cases), so that it holds without the shared files.
test('generated examples: pass, fail and an environment failure of the job; the absent folder, skipped task, failure and masked rows of the NeMo Gym run', async () => {
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'hr-examples-'));
  await generateExamples(dir);
  const r = inspect(dir, '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { runs: JsonRun[] };
  // The every-case job (examples/compare/ holds other Harbor jobs).
  const job = doc.runs.find((x) => x.kind === 'harbor-job' && x.anchor.includes('/harbor/jobs/'));
  assert.ok(job);
  const outcomes = Object.fromEntries(job.tasks.map((task) => [task.id.split('/').pop(), task.attempts.map((a) => a.outcome)]));
  assert.deepEqual(outcomes['fix-git'], ['passed', 'failed', 'passed']);
  assert.deepEqual(outcomes['build-cython-ext'], ['infra-error']);
  assert.ok(job.passAtK[0].nAllInfra >= 1);
  const nemo = doc.runs.find((x) => x.anchor.endsWith('/tb-mini/rollouts_run_summary.json'));
  assert.ok(nemo);
  const by = (id: string) => nemo.tasks.find((x) => x.id === id)!.attempts;
  assert.deepEqual(by('fix-permissions').map((a) => a.outcome), ['failed', 'passed']);
  assert.equal(by('fix-permissions')[1].missing.length, 1);
  assert.deepEqual(by('parse-csv').map((a) => [a.outcome, a.sourceOutcome]), [['infra-error', 'failed'], ['infra-error', 'masked']]);
  assert.deepEqual(nemo.skipped.map((s) => s.taskId), ['broken-task']);
  const text = inspect(dir).out;
  assert.match(text, /EnvironmentStartTimeoutError/);
  assert.match(text, /missing +\S*verifier\/resources-session-[0-9a-f]{32} \(fix-permissions #2\)/);
  assert.match(text, /skipped +broken-task/);
  assert.match(text, /failure row; environment_server_failed at seed/);
  assert.match(text, /masked row; provider_unavailable/);
});

test('conformance: NeMo Gym\'s own blackjack rollouts (no task id; the task index names the task) read as its metrics say', (t) => {
  const dir = path.join(fixtures, 'nemo-gym', 'real', 'blackjack');
  if (!fs.existsSync(dir)) { t.skip('no shared fixtures'); return; }
  const r = inspect(dir, '--json');
  assert.equal(r.code, 0, r.err);
  const [run] = (JSON.parse(r.out) as { runs: JsonRun[] }).runs;
  assert.deepEqual(run.problems, []);
  assert.deepEqual(run.tasks.map((task) => task.id), ['0']);
  const rewards = run.tasks[0].attempts.map((a) => a.reward);
  assert.deepEqual(rewards, [-1, 1, -1, 1, 1]);
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.outcome), ['failed', 'passed', 'failed', 'passed', 'passed']);
  // The run's own aggregate metrics, written by NeMo Gym from the same rows, give the same mean reward.
  const [metrics] = JSON.parse(fs.readFileSync(path.join(dir, 'example_rollouts_aggregate_metrics.json'), 'utf8')) as
    { agent_metrics: Record<string, number> }[];
  const mean = (rewards as number[]).reduce((a, b) => a + b, 0) / rewards.length;
  assert.ok(Math.abs(mean - metrics.agent_metrics['mean/reward']) < 1e-9, `${mean} vs ${metrics.agent_metrics['mean/reward']}`);
});
