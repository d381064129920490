import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as findRepoRoot } from '../support/paths';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { readNemoRollouts, readRunSummary } from '../../src/core/readers/runSummary';
import type { Run } from '../../src/core/model';
import { writeRunSummary } from '../../src/core/summary';
import { generateNemoRun, nemoEveryCase } from '../../scripts/sample-runs/nemoGym';

// Every temp folder of this file sits in one, removed after its tests.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-summary-reader-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const nfs = new NodeFs();
const repoRoot = findRepoRoot();
const fixtures = path.resolve(repoRoot, '..', 'shared', 'fixtures');

function tmp(): string {
  return fs.mkdtempSync(path.join(tmpRoot, 'hr-summary-')).split(path.sep).join('/');
}

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

type Obj = Record<string, unknown>;

function repeat(n: number, over: Obj = {}): Obj {
  return {
    repeat: n, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null,
    verifier_mode: 'shared', verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null,
    missing: [], input: { digests: { _ng_digest: 'abc' }, metadata: [{ agent_timeout_sec: '900.0' }] }, ...over,
  };
}

function logs(sid: string): Obj {
  const v = `verifier/${sid}`;
  return { verifier_logs: v, test_stdout: `${v}/test-stdout.txt`, reward_file: `${v}/reward.txt`, trajectory: `${v}/trajectory.json` };
}

/** A run folder with a summary: hello (2 passes, r0 with a ctrf), fix (fail + absent folder), csv (failure row + masked). */
function makeRun(over: Obj = {}): { dir: string; summary: string; doc: Obj } {
  const dir = tmp();
  for (const sid of ['s-hello-0', 's-hello-1', 's-fix-0']) {
    write(`${dir}/verifier/${sid}/test-stdout.txt`, 'ok\n');
    write(`${dir}/verifier/${sid}/reward.txt`, '1');
    write(`${dir}/verifier/${sid}/trajectory.json`, '{}');
  }
  write(`${dir}/verifier/s-hello-0/ctrf.json`, { results: { tests: [{ name: 't::ok', status: 'passed' }] } });
  write(`${dir}/verifier/s-fix-0/ctrf.json`, { results: { tests: [
    { name: 't::ok', status: 'passed' }, { name: 't::bad', status: 'failed', message: 'assert 1 == 2' }] } });
  write(`${dir}/rollouts.jsonl`, '');
  write(`${dir}/rollouts_failures.jsonl`, '');
  write(`${dir}/rollout_verdicts.jsonl`, [
    { _ng_task_index: 1, _ng_rollout_index: 1, verdict: 'unhealthy', findings: [{ check: 'agent_turn_hollow' }], unobserved: [] },
    { _ng_task_index: 0, _ng_rollout_index: 0, verdict: 'healthy', findings: [], unobserved: [] },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n');
  const doc: Obj = {
    schema_version: 1,
    target: 'harbor:tb-mini@1.0', taskset: 'tb-mini', agent: 'terminus_2_sandboxed_agent',
    dataset: { source: 'harbor-registry', name: 'tb-mini', version: '1.0', folder: '../datasets/tb-mini', digests: {} },
    task_source: 'harbor_tb-mini_resources_server', result_task_source: 'harbor_tb-mini_resources_server',
    files: { rollouts: 'rollouts.jsonl', failures: 'rollouts_failures.jsonl', rollout_verdicts: 'rollout_verdicts.jsonl', run_config: null },
    stale_files: {},
    missing_paths: ['verifier/s-fix-1'],
    unvalidated: {},
    skipped: { 'broken-task': 'instruction.md is missing' },
    tasks: [
      { task_id: 'hello', task_index: 0, repeats: [repeat(0, logs('s-hello-0')), repeat(1, logs('s-hello-1'))] },
      { task_id: 'fix', task_index: 1, repeats: [repeat(0, { ...logs('s-fix-0'), reward: 0 }), repeat(1, { missing: ['verifier/s-fix-1'] })] },
      { task_id: 'csv', task_index: 2, repeats: [
        repeat(0, { outcome: 'failed', reward: null, mask_sample: null, failure_reason: 'sandbox did not start',
          failure_class: 'environment_server_failed', failure_stage: 'seed', failure_terminal: false, verifier_mode: null }),
        repeat(1, { outcome: 'masked', reward: 0, mask_sample: true, failure_kind: 'provider_unavailable' }),
      ] },
    ],
    ...over,
  };
  const summary = `${dir}/rollouts_run_summary.json`;
  write(summary, doc);
  return { dir, summary, doc };
}

function attempt(run: Run, task: string, n: number) {
  const a = run.tasks.find((t) => t.id === task)?.attempts[n];
  assert.ok(a, `${task} #${n}`);
  return a;
}

test('identity, label, files and outcomes of a summary', async () => {
  const { dir, summary } = makeRun();
  const run = await readRunSummary(nfs, summary);
  assert.equal(run.kind, 'nemo-gym');
  assert.equal(run.root, dir);
  assert.equal(run.anchor, summary);
  assert.equal(run.id, `nemo-gym:${summary}`);
  assert.equal(run.label, 'tb-mini · terminus_2_sandboxed_agent');
  assert.equal(run.identity.dataset, 'tb-mini@1.0');
  assert.equal(run.identity.target, 'harbor:tb-mini@1.0');
  assert.equal(run.identity.task_source, 'harbor_tb-mini_resources_server');
  assert.equal(run.summaryPath, summary);
  assert.equal(run.rolloutsPath, `${dir}/rollouts.jsonl`);
  assert.equal(run.summaryIsVirtual, undefined);
  assert.deepEqual(run.files.map((f) => [f.key, f.present, f.path]), [
    ['rollouts', true, `${dir}/rollouts.jsonl`], ['failures', true, `${dir}/rollouts_failures.jsonl`],
    ['rollout_verdicts', true, `${dir}/rollout_verdicts.jsonl`], ['run_config', false, null]]);
  assert.equal(run.files[0].label, 'Rollouts');
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.outcome)),
    [['passed', 'passed'], ['failed', 'passed'], ['infra-error', 'infra-error']]);
  assert.deepEqual(run.skipped, [{ taskId: 'broken-task', reason: 'instruction.md is missing' }]);
  const failureRow = attempt(run, 'csv', 0);
  assert.equal(failureRow.sourceOutcome, 'failed');
  assert.deepEqual(failureRow.failure, { reason: 'sandbox did not start', class: 'environment_server_failed', stage: 'seed', terminal: false });
  const masked = attempt(run, 'csv', 1);
  assert.equal(masked.sourceOutcome, 'masked');
  assert.equal(masked.reward, null, 'a masked row is not measured, whatever reward it carries');
  assert.equal(attempt(run, 'fix', 0).reward, 0);
  assert.equal(attempt(run, 'hello', 1).id, 'hello#1');
  assert.equal(attempt(run, 'hello', 1).label, '#2');
  assert.equal(attempt(run, 'hello', 0).details?.digest, 'abc');
  assert.equal(attempt(run, 'hello', 0).details?.agent_timeout_sec, '900.0');
});

test('evidence is resolved against the summary folder, checked on disk, with the ctrf failures', async () => {
  const { dir, summary } = makeRun();
  const run = await readRunSummary(nfs, summary);
  const a = attempt(run, 'fix', 0);
  assert.equal(a.dir, `${dir}/verifier/s-fix-0`);
  assert.deepEqual(a.evidence.map((e) => [e.kind, e.present, e.path]), [
    ['verifier-logs', true, `${dir}/verifier/s-fix-0`], ['ctrf', true, `${dir}/verifier/s-fix-0/ctrf.json`],
    ['test-stdout', true, `${dir}/verifier/s-fix-0/test-stdout.txt`], ['reward-file', true, `${dir}/verifier/s-fix-0/reward.txt`],
    ['trajectory', true, `${dir}/verifier/s-fix-0/trajectory.json`]]);
  const ctrf = a.evidence.find((e) => e.kind === 'ctrf');
  assert.deepEqual(ctrf?.failedTests, [{ name: 't::bad', message: 'assert 1 == 2' }]);
  assert.deepEqual(a.missing, []);
  // A passed attempt shows its ctrf.json without reading it; a folder without one shows none.
  const passed = attempt(run, 'hello', 0).evidence.find((e) => e.kind === 'ctrf');
  assert.equal(passed?.present, true);
  assert.equal(passed?.failedTests, undefined);
  assert.equal(attempt(run, 'hello', 1).evidence.some((e) => e.kind === 'ctrf'), false);
});

test('health verdicts are linked by task index and repeat', async () => {
  const { summary } = makeRun();
  const run = await readRunSummary(nfs, summary);
  assert.deepEqual(attempt(run, 'fix', 1).health, { verdict: 'unhealthy', checks: ['agent_turn_hollow'] });
  assert.deepEqual(attempt(run, 'hello', 0).health, { verdict: 'healthy', checks: [] });
  assert.equal(attempt(run, 'hello', 1).health, undefined);
});

test('every missing_paths entry is an error at its JSON path naming the attempt; the attempt lists it', async () => {
  const { dir, summary } = makeRun();
  const run = await readRunSummary(nfs, summary);
  const p = run.problems.filter((x) => x.code === 'missing-path');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'error');
  assert.deepEqual(p[0].jsonPath, ['missing_paths', 0]);
  assert.equal(p[0].file, summary);
  const text = fs.readFileSync(summary, 'utf8').split('\n');
  assert.match(text[(p[0].line ?? 0) - 1], /"verifier\/s-fix-1"/);
  assert.match(p[0].message, /fix #2/);
  const a = attempt(run, 'fix', 1);
  assert.deepEqual(a.missing, [`${dir}/verifier/s-fix-1`]);
  assert.deepEqual(a.evidence.map((e) => [e.kind, e.present]), [['verifier-logs', false]]);
});

test('files and evidence deleted after the summary was written are flagged', async () => {
  const { dir, summary } = makeRun();
  fs.rmSync(`${dir}/rollouts_failures.jsonl`);
  fs.rmSync(`${dir}/verifier/s-hello-1/test-stdout.txt`);
  const run = await readRunSummary(nfs, summary);
  assert.equal(run.files.find((f) => f.key === 'failures')?.present, false);
  const fp = run.problems.find((x) => x.code === 'missing-file');
  assert.deepEqual(fp?.jsonPath, ['files', 'failures']);
  const a = attempt(run, 'hello', 1);
  assert.deepEqual(a.missing, [`${dir}/verifier/s-hello-1/test-stdout.txt`]);
  assert.equal(a.evidence.find((e) => e.kind === 'test-stdout')?.present, false);
  const ep = run.problems.find((x) => x.code === 'missing-evidence');
  assert.deepEqual(ep?.jsonPath, ['tasks', 0, 'repeats', 1, 'test_stdout']);
});

test('stale files (object or list), tasks as an object, unvalidated as a list', async () => {
  const { dir, summary } = makeRun({
    files: { rollouts: null, failures: null, rows: null },
    stale_files: { rollouts: 'rollouts.jsonl', failures: 'rollouts_failures.jsonl' },
    tasks: { hello: { task_index: 0, repeats: [repeat(0, { outcome: 'missing', reward: null })] } },
    unvalidated: [{ task_id: 'fix', reason: 'NO_REFERENCE_SOLUTION' }],
    missing_paths: [],
  });
  const run = await readRunSummary(nfs, summary);
  const stale = run.files.filter((f) => f.stale);
  assert.deepEqual(stale.map((f) => [f.key, f.path, f.present]), [
    ['rollouts', `${dir}/rollouts.jsonl`, true], ['failures', `${dir}/rollouts_failures.jsonl`, true]]);
  assert.equal(run.files.filter((f) => f.key === 'rollouts').length, 1, 'the stale entry replaces the null one');
  const sp = run.problems.filter((x) => x.code === 'stale-file');
  assert.deepEqual(sp.map((x) => [x.jsonPath, x.severity]), [[['stale_files', 'rollouts'], 'warning'], [['stale_files', 'failures'], 'warning']]);
  assert.deepEqual(run.tasks.map((t) => [t.id, t.attempts[0].outcome]), [['hello', 'missing']]);
  assert.deepEqual(run.unvalidated, [{ taskId: 'fix', reason: 'NO_REFERENCE_SOLUTION' }]);

  write(summary, { files: {}, stale_files: ['rollouts.jsonl'] });
  const listed = await readRunSummary(nfs, summary);
  assert.deepEqual(listed.problems.filter((x) => x.code === 'stale-file').map((x) => x.jsonPath), [['stale_files', 0]]);
  assert.equal(listed.files[0].stale, true);
});

test('a task_source that disagrees with the result rows is a warning at result_task_source', async () => {
  const { summary } = makeRun({ result_task_source: 'someone_else' });
  const run = await readRunSummary(nfs, summary);
  const p = run.problems.find((x) => x.code === 'task-source-mismatch');
  assert.ok(p);
  assert.deepEqual(p.jsonPath, ['result_task_source']);
  assert.ok(p.line && p.line > 1);
});

test('a summary that does not parse: a problem with line and column, and an empty run that still appears', async () => {
  const dir = tmp();
  const summary = `${dir}/x_run_summary.json`;
  write(summary, '{\n  "files": {\n    "rollouts": "x.jsonl"\n  \n  "tasks": []\n}\n');
  const run = await readRunSummary(nfs, summary);
  assert.equal(run.tasks.length, 0);
  assert.equal(run.id, `nemo-gym:${summary}`);
  assert.equal(run.rolloutsPath, `${dir}/x.jsonl`);
  assert.equal(run.problems.length, 1);
  assert.equal(run.problems[0].code, 'parse-error');
  assert.equal(run.problems[0].line, 5);
  assert.equal(run.problems[0].column, 3);
});

test('a summary that is gone or not an object is one problem, never a throw', async () => {
  const dir = tmp();
  const gone = await readRunSummary(nfs, `${dir}/gone_run_summary.json`);
  assert.equal(gone.problems[0].code, 'missing-file');
  write(`${dir}/arr_run_summary.json`, '[1, 2]');
  const arr = await readRunSummary(nfs, `${dir}/arr_run_summary.json`);
  assert.equal(arr.problems[0].code, 'schema');
});

test('schema issues are warnings at their JSON path; the rest is still read', async () => {
  const { summary, doc } = makeRun();
  ((doc.tasks as Obj[])[0].repeats as Obj[])[0].reward = '1';
  write(summary, doc);
  const run = await readRunSummary(nfs, summary);
  const p = run.problems.find((x) => x.code === 'schema');
  assert.ok(p);
  assert.deepEqual(p.jsonPath, ['tasks', 0, 'repeats', 0, 'reward']);
  assert.equal(p.severity, 'warning');
  assert.equal(run.tasks.length, 3);
  assert.equal(attempt(run, 'hello', 0).reward, null);
});

test('a rollouts file without a summary is read through the summary built in memory', async () => {
  const dir = tmp();
  const rows = [0, 1].map((r) => ({
    _ng_task_id: { taskset: 'ts', task_id: 'hello' }, _ng_task_index: 0, _ng_rollout_index: r,
    task_input: { task_data: { _ng_digest: 'abc' }, responses_create_params: { metadata: {} } },
  }));
  write(`${dir}/out_materialized_inputs.jsonl`, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  write(`${dir}/out.jsonl`, JSON.stringify({
    _ng_task_id: { taskset: 'ts', task_id: 'hello' }, _ng_task_index: 0, _ng_rollout_index: 0, reward: 1,
    mask_sample: false, failure_kind: null, verifier_logs_dir: null, verifier_mode: 'shared',
  }) + '\n');
  const run = await readNemoRollouts(nfs, `${dir}/out.jsonl`);
  assert.equal(run.summaryIsVirtual, true);
  assert.equal(run.summaryPath, `${dir}/out_run_summary.json`);
  assert.equal(run.anchor, `${dir}/out.jsonl`);
  assert.equal(run.rolloutsPath, `${dir}/out.jsonl`);
  assert.equal(fs.existsSync(`${dir}/out_run_summary.json`), false, 'nothing is written');
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.outcome)), [['passed', 'missing']]);
});

test('conformance: the shared NeMo Gym sample summary reads as its README describes', async (t) => {
  const summary = path.join(fixtures, 'nemo-gym', 'rollouts_run_summary.json').split(path.sep).join('/');
  if (!fs.existsSync(summary)) { t.skip('no shared fixtures'); return; }
  const run = await readRunSummary(nfs, summary);
  const by = (id: string) => run.tasks.find((x) => x.id === id)!.attempts;
  assert.deepEqual(by('hello-world').map((a) => a.outcome), ['passed', 'passed']);
  assert.deepEqual(by('fix-permissions').map((a) => a.outcome), ['failed', 'passed']);
  assert.equal(by('fix-permissions')[1].missing.length, 1, 'absent verifier folder');
  assert.equal(by('fix-permissions')[1].health?.verdict, 'unhealthy');
  assert.deepEqual(by('count-lines').map((a) => a.outcome), ['passed', 'failed']);
  assert.equal(by('count-lines')[0].evidence.find((e) => e.kind === 'artifacts')?.present, true);
  assert.deepEqual(by('parse-csv').map((a) => [a.outcome, a.sourceOutcome]), [['infra-error', 'failed'], ['infra-error', 'masked']]);
  assert.deepEqual(run.skipped.map((s) => s.taskId), ['broken-task']);
  assert.deepEqual(run.problems.map((p) => p.code), ['missing-path']);
});

// What the conformance test above checks on the shared sample, checked on the project's own every-case run (the
// same cases, generated) so that it holds without the shared files.
test('the generated every-case run\'s summary reads as its spec describes', async () => {
  const dir = `${tmp()}/results/harbor/tb-mini`;
  const gen = await generateNemoRun(dir, { ...nemoEveryCase(), originalRoot: '/home/dev/gym/results/harbor/tb-mini' });
  const written = await writeRunSummary(nfs, gen.rolloutsPath.split(path.sep).join('/'), { skipped: gen.skipped, identity: gen.identity });
  assert.equal(written.error, undefined);
  const run = await readRunSummary(nfs, written.path);
  const by = (id: string) => run.tasks.find((x) => x.id === id)!.attempts;
  assert.deepEqual(by('hello-world').map((a) => a.outcome), ['passed', 'passed']);
  assert.deepEqual(by('fix-permissions').map((a) => a.outcome), ['failed', 'passed']);
  assert.equal(by('fix-permissions')[1].missing.length, 1, 'absent verifier folder');
  assert.equal(by('fix-permissions')[1].health?.verdict, 'unhealthy');
  assert.deepEqual(by('count-lines').map((a) => a.outcome), ['passed', 'failed']);
  assert.equal(by('count-lines')[0].evidence.find((e) => e.kind === 'artifacts')?.present, true);
  assert.deepEqual(by('parse-csv').map((a) => [a.outcome, a.sourceOutcome]), [['infra-error', 'failed'], ['infra-error', 'masked']]);
  assert.deepEqual(by('long-build').map((a) => a.outcome), ['infra-error', 'missing']);
  assert.deepEqual(run.skipped.map((s) => s.taskId), ['broken-task']);
  assert.deepEqual(run.problems.map((p) => p.code), ['missing-path']);
});

test('rows written after the summary: the summary is flagged out of date at the files entry, not for a few seconds of skew', async () => {
  const { dir, summary } = makeRun();
  const t = 1787400000;
  const at = (f: string, s: number) => fs.utimesSync(f, s, s);
  at(summary, t);
  at(`${dir}/rollouts.jsonl`, t + 1);
  at(`${dir}/rollouts_failures.jsonl`, t - 50);
  let run = await readRunSummary(nfs, summary);
  assert.equal(run.summaryOutdated, undefined, 'a second of skew (a checkout, a copy) is not "written after"');
  assert.equal(run.problems.filter((p) => p.code === 'summary-outdated').length, 0);

  at(`${dir}/rollouts.jsonl`, t + 60);
  at(`${dir}/rollouts_failures.jsonl`, t + 30);
  run = await readRunSummary(nfs, summary);
  assert.equal(run.summaryOutdated, true);
  const outdated = run.problems.filter((p) => p.code === 'summary-outdated');
  assert.deepEqual(outdated.map((p) => [p.file, p.jsonPath, p.severity]), [
    [summary, ['files', 'rollouts'], 'warning'], [summary, ['files', 'failures'], 'warning']]);
  assert.match(outdated[0].message, /rollouts\.jsonl changed after this summary was written/);
  assert.ok(outdated[0].line && outdated[0].line > 1, 'placed at its line in the summary');
});

test('a rollouts file read without a summary is never "out of date"', async () => {
  const { dir } = makeRun();
  fs.rmSync(`${dir}/rollouts_run_summary.json`);
  const run = await readNemoRollouts(nfs, `${dir}/rollouts.jsonl`);
  assert.equal(run.summaryIsVirtual, true);
  assert.equal(run.summaryOutdated, undefined);
});

test('the folders listed up front (listDirs) give the same run as a listing per repeat', async () => {
  const { dir, summary } = makeRun();
  fs.rmSync(`${dir}/verifier/s-hello-1/test-stdout.txt`);
  fs.mkdirSync(`${dir}/verifier/empty`);
  const perRepeat: typeof nfs = Object.assign(Object.create(nfs) as typeof nfs, { listDirs: undefined });
  let batched = 0;
  const counting: typeof nfs = Object.assign(Object.create(nfs) as typeof nfs, {
    listDirs: (ps: readonly string[]) => { batched += ps.length; return nfs.listDirs(ps); },
  });
  const a = await readRunSummary(counting, summary);
  const b = await readRunSummary(perRepeat, summary);
  assert.ok(batched >= 3, 'the verifier folders were listed in a batch');
  assert.deepEqual(a, b);
  assert.ok(a.problems.some((p) => p.code === 'missing-evidence'));
});

test('the ctrf.json files read up front (gather) give the same run as a read per repeat, and only those of repeats that did not pass', async () => {
  const { generateNemoRun, nemoEveryCase } = await import('../../scripts/sample-runs/nemoGym');
  const { writeRunSummary } = await import('../../src/core/summary');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-gather-'));
  try {
    const gen = await generateNemoRun(path.join(dir, 'run'), nemoEveryCase());
    const w = await writeRunSummary(nfs, gen.rolloutsPath.split(path.sep).join('/'), { skipped: gen.skipped, unvalidated: gen.unvalidated });
    assert.equal(w.error, undefined);
    const read: string[] = [];
    const counting: typeof nfs = Object.assign(Object.create(nfs) as typeof nfs, {
      gather: (l: readonly string[], r: readonly { path: string; maxBytes: number }[], s?: readonly string[]) => {
        read.push(...r.map((x) => x.path));
        return nfs.gather(l, r, s);
      },
    });
    const perRepeat: typeof nfs = Object.assign(Object.create(nfs) as typeof nfs, { gather: undefined, listDirs: undefined });
    const a = await readRunSummary(counting, w.path);
    const b = await readRunSummary(perRepeat, w.path);
    assert.deepEqual(a, b);
    const ctrfs = a.tasks.flatMap((t) => t.attempts.filter((x) => x.evidence.some((e) => e.kind === 'ctrf' && e.failedTests)));
    assert.ok(ctrfs.length > 0, 'some repeat shows failed tests from its ctrf.json');
    assert.ok(read.length > 0 && read.every((p) => p.endsWith('/ctrf.json')));
    const passedDirs = a.tasks.flatMap((t) => t.attempts.filter((x) => x.outcome === 'passed').map((x) => x.dir));
    assert.ok(read.every((p) => !passedDirs.includes(path.posix.dirname(p))), 'no ctrf.json of a passed repeat is read');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
