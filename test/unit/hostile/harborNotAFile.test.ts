// A Harbor trial whose evidence is there under its name but is not a regular file (a FIFO, a link to a device, a
// folder): never read, and said as such ("not-a-file", naming the path), not reported as pruned ("missing-path");
// the other trials of the job are read as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import type { HarborJobSpec } from '../../../scripts/sample-runs/harborSpec';
import { makeDeviceLink, makeFifo } from '../../../scripts/sample-runs/hostile';
import { tempDir } from './helpers';

const spec = (): HarborJobSpec => ({
  ...harborEveryCase(),
  trials: ['a', 'b', 'c', 'd', 'e'].map((t) => ({ task: `task-${t}`, case: 'passed' as const, turns: 2 })),
  finished: true,
});

test('Harbor trial: result.json a FIFO, reward.txt a link to /dev/zero, trajectory.json a folder: not-a-file, each named, unread; the rest read', { timeout: 30_000 }, async () => {
  const jobs = tempDir('harbor-nf-');
  const job = await generateHarborJob(jobs, spec());
  const dirOf = (i: number) => `${job.jobDir}/${job.trials[i].name}`;
  fs.rmSync(`${dirOf(0)}/result.json`);
  makeFifo(`${dirOf(0)}/result.json`);
  fs.rmSync(`${dirOf(1)}/verifier/reward.txt`, { force: true });
  fs.rmSync(`${dirOf(1)}/verifier/reward.json`, { force: true });
  makeDeviceLink(`${dirOf(1)}/verifier/reward.txt`);
  fs.rmSync(`${dirOf(2)}/agent/trajectory.json`);
  fs.mkdirSync(`${dirOf(2)}/agent/trajectory.json`);
  // A trial whose result.json is simply gone, for the difference.
  fs.rmSync(`${dirOf(3)}/result.json`);

  const t0 = performance.now();
  const run = await readHarborJob(new NodeFs(), job.jobDir);
  assert.ok(performance.now() - t0 < 20_000, 'the read finished (a FIFO read would hang)');
  const problemAt = (p: string) => run.problems.filter((x) => x.file === p);

  const fifo = problemAt(`${dirOf(0)}/result.json`);
  assert.deepEqual(fifo.map((p) => p.code), ['not-a-file']);
  assert.match(fifo[0].message, /result\.json is there but is not a regular file \(a FIFO/);
  const zero = problemAt(`${dirOf(1)}/verifier/reward.txt`);
  assert.deepEqual(zero.map((p) => p.code), ['not-a-file']);
  assert.match(zero[0].message, /reward\.txt is there but is not a regular file/);
  const folder = problemAt(`${dirOf(2)}/agent/trajectory.json`);
  assert.deepEqual(folder.map((p) => p.code), ['not-a-file']);
  assert.match(folder[0].message, /trajectory\.json is there but is a folder, so it was not read/);
  const gone = problemAt(`${dirOf(3)}/result.json`);
  assert.deepEqual(gone.map((p) => p.code), ['missing-path']);
  assert.match(gone[0].message, /result\.json is missing/);

  // Every trial is still an attempt; the untouched one is read whole, with its reward.
  const attempts = run.tasks.flatMap((t) => t.attempts);
  assert.equal(attempts.length, 5);
  const e = run.tasks.find((t) => t.id.endsWith('task-e'))!.attempts[0];
  assert.equal(e.reward, 1);
  assert.deepEqual(e.missing, []);
});

test('Harbor trial without config.json whose result.json is a FIFO or a folder, the job still running: still an attempt, not-a-file said', { timeout: 30_000 }, async () => {
  const jobs = tempDir('harbor-nf-running-');
  const job = await generateHarborJob(jobs, { ...spec(), finished: false });
  const dirOf = (i: number) => `${job.jobDir}/${job.trials[i].name}`;
  for (const i of [0, 1]) fs.rmSync(`${dirOf(i)}/config.json`, { force: true });
  fs.rmSync(`${dirOf(0)}/result.json`);
  makeFifo(`${dirOf(0)}/result.json`);
  fs.rmSync(`${dirOf(1)}/result.json`);
  fs.mkdirSync(`${dirOf(1)}/result.json`);
  // A running trial whose result is not written yet: an attempt, and no problem (it is not missing yet).
  fs.rmSync(`${dirOf(2)}/result.json`);

  const run = await readHarborJob(new NodeFs(), job.jobDir);
  assert.equal(run.tasks.flatMap((t) => t.attempts).length, 5, 'every trial folder is an attempt');
  const codes = (i: number) => run.problems.filter((p) => p.file === `${dirOf(i)}/result.json`).map((p) => [p.code, p.message]);
  assert.deepEqual(codes(0), [['not-a-file', `trial ${job.trials[0].name}: result.json is there but is not a regular file (a FIFO, a device, a socket or a broken link), so it was not read (a trial keeps its result there)`]]);
  assert.deepEqual(codes(1), [['not-a-file', `trial ${job.trials[1].name}: result.json is there but is a folder, so it was not read (a trial keeps its result there)`]]);
  assert.deepEqual(codes(2), []);
});

test('the job\'s own result.json a FIFO, config.json a link to /dev/zero, lock.json a folder: not-a-file, each named, unread; the trials read', { timeout: 30_000 }, async () => {
  const jobs = tempDir('harbor-nf-job-');
  const job = await generateHarborJob(jobs, spec());
  makeFifo(`${job.jobDir}/result.json`);
  fs.rmSync(`${job.jobDir}/lock.json`, { force: true });
  fs.mkdirSync(`${job.jobDir}/lock.json`);
  const other = await generateHarborJob(tempDir('harbor-nf-job2-'), spec());
  makeDeviceLink(`${other.jobDir}/config.json`);

  const t0 = performance.now();
  const run = await readHarborJob(new NodeFs(), job.jobDir);
  const run2 = await readHarborJob(new NodeFs(), other.jobDir);
  assert.ok(performance.now() - t0 < 20_000, 'the reads finished (a FIFO read would hang)');
  const said = (r: typeof run, p: string) => r.problems.filter((x) => x.file === p).map((x) => [x.code, x.severity, x.message]);
  assert.deepEqual(said(run, `${job.jobDir}/result.json`), [['not-a-file', 'warning',
    'job result.json is there but is not a regular file (a FIFO, a device, a socket or a broken link), so it was not read']]);
  assert.deepEqual(said(run, `${job.jobDir}/lock.json`), [['not-a-file', 'warning', 'job lock.json is there but is a folder, so it was not read']]);
  assert.deepEqual(said(run2, `${other.jobDir}/config.json`), [['not-a-file', 'warning',
    'job config.json is there but is not a regular file (a FIFO, a device, a socket or a broken link), so it was not read']]);
  for (const r of [run, run2]) assert.equal(r.tasks.flatMap((t) => t.attempts).length, 5, 'every trial is read');
  assert.equal(run2.identity.jobId !== null, true, 'the other job\'s result.json is read');
});
