// A trial folder copied in from another job (its config names another job_id, or a trials_dir of another job's
// name) is a warning naming the trial, the file and both jobs; it is still read and counted. A pruned job (its own
// config.json and result.json gone) is known by what most of its trials name; a whole job copied under another
// folder name is not flagged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { lastPart } from '../../../src/core/readers/harbor/foreignTrials';
import type { Run } from '../../../src/core/model';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { tempDir } from '../hostile/helpers';

const nfs = new NodeFs();
const foreign = (run: Run) => run.problems.filter((p) => p.code === 'foreign-trial');
const attempts = (run: Run) => run.tasks.reduce((n, t) => n + t.attempts.length, 0);
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;

async function twoJobs() {
  const jobs = tempDir('jobs-foreign-');
  const mine = await generateHarborJob(jobs, harborEveryCase());
  const other = await generateHarborJob(jobs, { ...harborEveryCase(), jobName: '2026-08-22__09-00-00' });
  const ownId = readJson(path.join(mine.jobDir, 'result.json')).id as string;
  const otherId = readJson(path.join(other.jobDir, 'result.json')).id as string;
  assert.notEqual(ownId, otherId);
  return { mine, other, ownId, otherId };
}

test('a job\'s own trials name it: nothing said (and a whole job copied under another folder name neither)', async () => {
  const { mine } = await twoJobs();
  assert.deepEqual(foreign(await readHarborJob(nfs, mine.jobDir)), []);
  const copy = path.join(path.dirname(mine.jobDir), '..', 'backup', 'renamed-copy');
  fs.cpSync(mine.jobDir, copy, { recursive: true });
  assert.deepEqual(foreign(await readHarborJob(nfs, copy.split(path.sep).join('/'))), []);
});

test('a trial copied in from another job: a warning at its result.json naming both jobs, the trial still counted', async () => {
  const { mine, other, ownId, otherId } = await twoJobs();
  const before = attempts(await readHarborJob(nfs, mine.jobDir));
  const done = other.trials.find((t) => fs.existsSync(path.join(other.jobDir, t.name, 'result.json')))!;
  fs.cpSync(path.join(other.jobDir, done.name), path.join(mine.jobDir, done.name), { recursive: true });
  // A running trial (config.json only) from the other job too: its config.json says which job it is.
  const running = other.trials.find((t) => !fs.existsSync(path.join(other.jobDir, t.name, 'result.json')))!;
  fs.cpSync(path.join(other.jobDir, running.name), path.join(mine.jobDir, running.name), { recursive: true });

  const run = await readHarborJob(nfs, mine.jobDir);
  assert.equal(attempts(run), before + 2, 'read and counted, not dropped');
  const ps = foreign(run);
  assert.deepEqual(ps.map((p) => [p.file, p.severity]).sort(), [
    [`${mine.jobDir}/${done.name}/result.json`, 'warning'], [`${mine.jobDir}/${running.name}/config.json`, 'warning'],
  ].sort());
  const p = ps.find((x) => x.file.endsWith('/result.json'))!;
  assert.equal(p.message, `trial ${done.name} names another job: job_id ${otherId}, not ${ownId} (this job's); `
    + 'trials_dir jobs/2026-08-22__09-00-00 (job 2026-08-22__09-00-00), not job 2026-08-21__14-03-11 (this job\'s). '
    + 'Copied in from another job? It is counted with this job\'s trials');

  // Pruned: the job's own config.json and result.json gone; most of its trials still name it.
  fs.rmSync(path.join(mine.jobDir, 'config.json'));
  fs.rmSync(path.join(mine.jobDir, 'result.json'));
  const pruned = await readHarborJob(nfs, mine.jobDir);
  assert.equal(attempts(pruned), before + 2);
  assert.deepEqual(foreign(pruned).map((x) => path.basename(path.dirname(x.file))).sort(), [done.name, running.name].sort());
  assert.match(foreign(pruned)[0].message, /not .+ \(named by most of its trials: the job's own files are not here\)/);
});

test('a pruned job of one job\'s trials says nothing; with no majority, nothing is guessed', async () => {
  const { mine, other } = await twoJobs();
  for (const f of ['config.json', 'result.json']) fs.rmSync(path.join(mine.jobDir, f));
  assert.deepEqual(foreign(await readHarborJob(nfs, mine.jobDir)), []);
  // Half from each job: neither is the job's by majority.
  const half = fs.mkdtempSync(path.join(path.dirname(mine.jobDir), 'half-'));
  const [a, b] = [mine.trials[0].name, other.trials[0].name];
  fs.cpSync(path.join(mine.jobDir, a), path.join(half, a), { recursive: true });
  fs.cpSync(path.join(other.jobDir, b), path.join(half, b), { recursive: true });
  assert.deepEqual(foreign(await readHarborJob(nfs, half.split(path.sep).join('/'))), []);
});

test('lastPart: the job name at the end of a trials_dir as Harbor wrote it', () => {
  assert.deepEqual(['jobs/j1', '/abs/jobs/j1/', 'C:\\runs\\jobs\\j1', 'j1'].map(lastPart), ['j1', 'j1', 'j1', 'j1']);
});
