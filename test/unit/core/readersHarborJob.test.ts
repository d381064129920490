// The Harbor job reader (src/core/readers/harborJob.ts) on job folders built in a temp dir: which folders are jobs
// and trials, the job's own files (analysis.json), the order of a task's attempts when start times are missing or
// unreadable, the identity from a job config without agent names, and the re-read of a few trial folders (which
// changed path belongs to which trial; trials added, removed, rewritten), each checked against a full read.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { Run } from '../../../src/core/model';
import {
  isHarborJobDir, readHarborJob, readHarborJobState, rereadHarborTrials, trialFolderOf, type HarborJobState,
} from '../../../src/core/readers/harborJob';

const node = new NodeFs();
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-harbor-job-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let counter = 0;

function write(file: string, content: string | object): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function jobDir(): string {
  const dir = `${tmpRoot}/job-${++counter}`;
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function jobResult(finished: boolean, nTotal = 0): object {
  return {
    id: 'job-id', started_at: '2026-08-21T14:03:11Z', finished_at: finished ? '2026-08-21T15:00:00Z' : null,
    n_total_trials: nTotal, stats: { n_completed_trials: 0, n_errored_trials: 0, evals: {} },
  };
}

function trialResult(name: string, task: string, startedAt: string | null, reward = 1): object {
  return {
    task_name: task, trial_name: name,
    config: { trial_name: name, agent: { name: 'terminus-2', model_name: 'anthropic/claude-x' } },
    agent_info: { name: 'terminus-2', version: '1' },
    verifier_result: { rewards: { reward } }, exception_info: null,
    started_at: startedAt, finished_at: '2026-08-21T12:30:00Z',
  };
}

function addTrial(job: string, name: string, task = 'demo/task', startedAt: string | null = '2026-08-21T12:00:00Z', reward = 1): void {
  write(`${job}/${name}/config.json`, { trial_name: name, task: { name: task }, agent: { name: 'terminus-2', model_name: 'anthropic/claude-x' } });
  write(`${job}/${name}/result.json`, trialResult(name, task, startedAt, reward));
  write(`${job}/${name}/verifier/reward.txt`, String(reward));
}

const trialsOf = (run: Run) => run.tasks.flatMap((t) => t.attempts.map((a) => a.details?.trial));

test('isHarborJobDir: a job needs config.json or result.json as files and a sub-folder with one of them as a file', async () => {
  // Only a result.json in the job and only a result.json in the trial: a job.
  const onlyResults = jobDir();
  write(`${onlyResults}/result.json`, jobResult(true));
  write(`${onlyResults}/t__1/result.json`, trialResult('t__1', 'demo/a', null));
  assert.equal(await isHarborJobDir(node, onlyResults), true);
  // Only config.json in both: a job.
  const onlyConfigs = jobDir();
  write(`${onlyConfigs}/config.json`, { job_name: 'x' });
  write(`${onlyConfigs}/t__1/config.json`, { trial_name: 't__1' });
  assert.equal(await isHarborJobDir(node, `${onlyConfigs}/`), true, 'a trailing slash is the same folder');
  // The job's config.json and result.json are folders: not a job.
  const folders = jobDir();
  fs.mkdirSync(`${folders}/config.json`);
  fs.mkdirSync(`${folders}/result.json`);
  write(`${folders}/t__1/result.json`, trialResult('t__1', 'demo/a', null));
  assert.equal(await isHarborJobDir(node, folders), false);
  // The only sub-folders: a hidden one with a trial's files, one whose result.json and config.json are folders, and
  // a plain file named like a trial: not a job.
  const noTrial = jobDir();
  write(`${noTrial}/config.json`, { job_name: 'x' });
  write(`${noTrial}/.cache/result.json`, trialResult('t__1', 'demo/a', null));
  fs.mkdirSync(`${noTrial}/t__2/result.json`, { recursive: true });
  fs.mkdirSync(`${noTrial}/t__2/config.json`, { recursive: true });
  write(`${noTrial}/t__3`, 'not a folder');
  assert.equal(await isHarborJobDir(node, noTrial), false);
  // The same job once one real trial folder is added (after the others in name order): a job.
  write(`${noTrial}/t__4/config.json`, { trial_name: 't__4' });
  assert.equal(await isHarborJobDir(node, noTrial), true);
});

test('the job\'s files: analysis.json listed when it is a file, not when it is a folder; hidden folders are no trials', async () => {
  const job = jobDir();
  write(`${job}/config.json`, { job_name: 'named' });
  write(`${job}/result.json`, jobResult(true, 1));
  write(`${job}/analysis.json`, { summary: 'x' });
  addTrial(job, 't__1');
  write(`${job}/.hidden/result.json`, trialResult('.hidden', 'demo/hidden', null));
  const run = await readHarborJob(node, job);
  assert.deepEqual(run.files, [
    { key: 'job-config', label: 'config.json', path: `${job}/config.json`, present: true },
    { key: 'job-lock', label: 'lock.json', path: null, present: false },
    { key: 'job-result', label: 'result.json', path: `${job}/result.json`, present: true },
    { key: 'job-log', label: 'job.log', path: null, present: false },
    { key: 'analysis', label: 'analysis.json', path: `${job}/analysis.json`, present: true },
  ]);
  assert.deepEqual(trialsOf(run), ['t__1']);
  assert.deepEqual(run.problems, []);
  assert.equal(run.identity.agent, 'terminus-2', 'a config without agents adds none (no oracle)');
  assert.equal(run.identity.model, 'anthropic/claude-x');
  const other = jobDir();
  write(`${other}/result.json`, jobResult(true, 1));
  fs.mkdirSync(`${other}/analysis.json`);
  write(`${other}/job.log`, 'log\n');
  addTrial(other, 't__1');
  const run2 = await readHarborJob(node, other);
  assert.deepEqual(run2.files.map((f) => [f.key, f.present]), [['job-config', false], ['job-lock', false], ['job-result', true], ['job-log', true]]);
  assert.deepEqual(trialsOf(run2), ['t__1'], 'a folder named analysis.json without trial files is no trial');
});

test('a task\'s attempts: by start time, a trial without a start (or an unreadable one) after the others, ties by name', async () => {
  const job = jobDir();
  write(`${job}/result.json`, jobResult(true));
  addTrial(job, 't__b', 'demo/task', '2026-08-21T12:00:00Z');
  addTrial(job, 't__a', 'demo/task', null);
  addTrial(job, 't__c', 'demo/task', '2026-08-21T11:00:00Z');
  addTrial(job, 't__0', 'demo/task', 'not a time');
  addTrial(job, 't__e', 'demo/task', '2026-08-21T12:00:00Z');
  addTrial(job, 't__d', 'demo/task', '2026-08-21T12:00:00Z');
  const run = await readHarborJob(node, job);
  assert.deepEqual(trialsOf(run), ['t__c', 't__b', 't__d', 't__e', 't__0', 't__a']);
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.label), ['#1', '#2', '#3', '#4', '#5', '#6']);
});

test('identity from a job config without agent names: an agent without a name is the oracle unless it is imported; datasets by name or path', async () => {
  const job = jobDir();
  write(`${job}/config.json`, {
    job_name: 'cfg-job',
    agents: [{ import_path: 'my.module:Agent', model_name: 'openai/gpt-x' }, { model_name: 'anthropic/claude-x' }],
    datasets: [{ path: 'local/tasks' }, { name: 'demo/bench', path: 'ignored/path' }],
  });
  write(`${job}/result.json`, jobResult(true));
  write(`${job}/t__1/config.json`, { trial_name: 't__1' });
  const run = await readHarborJob(node, job);
  assert.equal(run.identity.job, 'cfg-job');
  assert.equal(run.identity.agent, 'oracle');
  assert.equal(run.identity.model, 'anthropic/claude-x, openai/gpt-x');
  assert.equal(run.identity.dataset, 'demo/bench, local/tasks');
  assert.equal(run.identity.jobId, 'job-id');
  assert.equal(run.label, 'cfg-job · demo/bench, local/tasks · oracle · anthropic/claude-x, openai/gpt-x');
});

test('trialFolderOf: the trial folder a changed path lies in; the job folder, its own files and hidden folders are none', async () => {
  const state = { root: '/jobs/j' } as HarborJobState;
  const cases: [string, string | undefined][] = [
    ['/jobs/j/t__1/result.json', 't__1'],
    ['/jobs/j/t__1/agent/trajectory.json', 't__1'],
    ['/jobs/j/t__1', 't__1'],
    ['/jobs/j/trial.d/x', 'trial.d'],
    ['/jobs/j/result.json/x', 'result.json'],
    ['/jobs/j', undefined],
    ['/jobs/j/', undefined],
    ['/jobs/jx/t__1/result.json', undefined],
    ['/jobs/j/config.json', undefined],
    ['/jobs/j/lock.json', undefined],
    ['/jobs/j/result.json', undefined],
    ['/jobs/j/job.log', undefined],
    ['/jobs/j/analysis.json', undefined],
    ['/jobs/j/notes.txt', undefined],
    ['/jobs/j/.git/index', undefined],
    ['/jobs/j/.tmp', undefined],
    ['/other/j/t__1/result.json', undefined],
    ['/jobs/jxyz/t__1/result.json', undefined],
    ['/jobs/j/v1.2.', 'v1.2.'],
    ['/jobs/j/v1.2', undefined],
  ];
  for (const [p, want] of cases) assert.equal(trialFolderOf(state, p), want, p);
});

test('a re-read of some trial folders: added, rewritten and removed trials, a name that is no folder; the same run as a full read', async () => {
  const job = jobDir();
  write(`${job}/config.json`, { job_name: 'reread' });
  write(`${job}/result.json`, jobResult(false));
  addTrial(job, 't__b', 'demo/b', '2026-08-21T12:00:00Z', 1);
  addTrial(job, 't__d', 'demo/d', '2026-08-21T12:00:00Z', 0);
  const first = await readHarborJobState(node, job);
  assert.deepEqual(first.trials.map((t) => t.name), ['t__b', 't__d']);
  // A trial added before the others in name order, one rewritten, a name that is a file: only the first two read.
  addTrial(job, 't__a', 'demo/a', '2026-08-21T12:00:00Z', 1);
  addTrial(job, 't__d', 'demo/d', '2026-08-21T12:00:00Z', 1);
  write(`${job}/t__z`, 'a file');
  const second = await rereadHarborTrials(node, first, ['t__d', 't__a', 't__z', 't__d']);
  assert.ok(second);
  assert.equal(second.read, 2);
  assert.deepEqual(second.state.trials.map((t) => t.name), ['t__a', 't__b', 't__d']);
  assert.deepEqual(second.state.run, await readHarborJob(node, job));
  assert.equal(second.state.run.tasks.find((t) => t.id === 'demo/d')?.attempts[0].reward, 1);
  // A trial folder removed, one added after the others.
  fs.rmSync(`${job}/t__b`, { recursive: true });
  addTrial(job, 't__c', 'demo/c', '2026-08-21T12:00:00Z', 0);
  const third = await rereadHarborTrials(node, second.state, ['t__c', 't__b']);
  assert.ok(third);
  assert.equal(third.read, 1);
  assert.deepEqual(third.state.trials.map((t) => t.name), ['t__a', 't__c', 't__d']);
  assert.deepEqual(third.state.run, await readHarborJob(node, job));
  // The job finishes (more trials recorded than there are): every outcome may change, so no partial re-read.
  write(`${job}/result.json`, jobResult(true, 5));
  assert.equal(await rereadHarborTrials(node, third.state, ['t__a']), undefined);
  const full = await readHarborJobState(node, job);
  assert.equal(full.run.state, 'complete');
  assert.deepEqual(full.run.problems.filter((p) => p.code === 'missing-trials').map((p) => [p.file, p.severity, p.message]),
    [[`${job}/result.json`, 'warning', 'the job recorded 5 trials, 3 trial folders are on disk']]);
  // And reopened: undefined again.
  write(`${job}/result.json`, jobResult(false));
  assert.equal(await rereadHarborTrials(node, full, ['t__a']), undefined);
});

test('a re-read of a state without the job files kept reads them again; a job whose recorded count is met has no missing-trials', async () => {
  const job = jobDir();
  write(`${job}/config.json`, { job_name: 'kept' });
  write(`${job}/result.json`, jobResult(true, 2));
  addTrial(job, 't__a');
  addTrial(job, 't__b');
  const state = await readHarborJobState(node, job);
  assert.deepEqual(state.run.problems, []);
  assert.deepEqual(state.run.recorded, { n_total_trials: 2, counts: state.run.recorded?.counts, stats: { n_completed_trials: 0, n_errored_trials: 0, evals: {} } });
  const bare: HarborJobState = { run: state.run, root: state.root, jobFinished: state.jobFinished, trials: state.trials };
  const again = await rereadHarborTrials(node, bare, ['t__a']);
  assert.ok(again);
  assert.deepEqual(again.state.run, state.run);
  assert.equal(again.state.jobStamp, state.jobStamp);
});

test('an empty job folder and one that is not there: a missing-path error naming the folder', async () => {
  const empty = jobDir();
  const run = await readHarborJob(node, empty);
  assert.deepEqual(run.problems.filter((p) => p.code === 'missing-path').map((p) => [p.file, p.severity, p.message]),
    [[empty, 'error', `the job folder ${empty} is empty or not on disk`]]);
  assert.equal(run.state, 'incomplete');
  assert.equal(run.recorded, undefined);
  const withFile = jobDir();
  write(`${withFile}/job.log`, 'x');
  assert.deepEqual((await readHarborJob(node, withFile)).problems.filter((p) => p.code === 'missing-path'), []);
});

test('a re-read of a job that has no result.json (still starting, or it was lost): the trials re-read, the run as a full read', async () => {
  const job = jobDir();
  write(`${job}/config.json`, { job_name: 'no-result' });
  addTrial(job, 't__a');
  const state = await readHarborJobState(node, job);
  assert.equal(state.jobFinished, false);
  addTrial(job, 't__b');
  const again = await rereadHarborTrials(node, state, ['t__b']);
  assert.ok(again);
  assert.equal(again.read, 1);
  assert.deepEqual(again.state.run, await readHarborJob(node, job));
  assert.equal(again.state.run.state, 'incomplete');
});

test('a job config.json of the wrong types: its schema problems name the job\'s config', async () => {
  const job = jobDir();
  write(`${job}/result.json`, jobResult(true, 1));
  write(`${job}/config.json`, { job_name: 7, n_attempts: 'two' });
  addTrial(job, 't__1');
  const run = await readHarborJob(node, job);
  const schema = run.problems.filter((p) => p.file === `${job}/config.json` && p.code === 'schema').map((p) => p.message);
  assert.equal(schema.length, 2);
  for (const m of schema) assert.match(m, /^job config\.json \.(job_name|n_attempts): /);
});
