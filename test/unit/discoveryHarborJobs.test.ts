// Discovery of Harbor job folders (src/core/discovery.ts, docs/formats.md#harbor-job): a job given as the root,
// a trial's parts holding no runs, and a job whose own config.json and result.json were pruned, found from its
// Harbor-named trial folders (and look-alikes that are not).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { write } from '../support/files';
import { discoverRuns } from '../../src/core/discovery';
import { loadRuns } from '../../src/core/load';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-disc-jobs-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const nfs = new NodeFs();

function show(root: string, list: { variant: string; anchor: string }[]) {
  return list.map((c) => [c.variant, path.posix.relative(root, c.anchor)]);
}

test('a job folder given as the root is "." to include and exclude', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-dot-')).split(path.sep).join('/');
  write(`${root}/job/result.json`, {});
  write(`${root}/job/t__1/config.json`, { trial_name: 't__1' });
  const job = `${root}/job`;
  assert.deepEqual((await discoverRuns(nfs, job)).map((c) => c.variant), ['job']);
  assert.deepEqual(await discoverRuns(nfs, job, { exclude: ['.'] }), []);
  assert.deepEqual((await discoverRuns(nfs, job, { include: ['.'] })).map((c) => c.variant), ['job']);
});

test('a trial folder with only verifier/ beside its result: its parts hold no runs', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-vonly-')).split(path.sep).join('/');
  write(`${root}/trial/result.json`, {});
  write(`${root}/trial/verifier/reward.txt`, '1');
  write(`${root}/trial/artifacts/m_run_summary.json`, '{}');
  write(`${root}/trial/other/n_run_summary.json`, '{}');
  assert.deepEqual((await discoverRuns(nfs, root)).map((c) => path.posix.relative(root, c.anchor)), ['trial/other/n_run_summary.json']);
});

test('a job whose config.json and result.json were pruned: its Harbor-named trials make it a job, read with a warning; other look-alikes do not', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-pruned-')).split(path.sep).join('/');
  const trial = (dir: string, reward: number) => {
    write(`${dir}/result.json`, { trial_name: path.posix.basename(dir), task_name: 'fix-git', verifier_result: { rewards: { reward } } });
    write(`${dir}/verifier/reward.txt`, String(reward));
  };
  trial(`${root}/jobs/j1/fix-git__Xk3pQ7a`, 1);
  trial(`${root}/jobs/j1/fix-git__abc1234`, 0);
  write(`${root}/jobs/j1/notes/x_run_summary.json`, '{}'); // below a job: no other run
  write(`${root}/repo/config.json`, {}); // a folder of code: config.json beside agent/, not named as a trial
  write(`${root}/repo/agent/main.py`, '');
  write(`${root}/pkgs/tool/config.json`, {});
  write(`${root}/pkgs/tool/agent/x.py`, '');
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found).map((x) => x.join(' ')), ['job jobs/j1']);
  // given the job folder itself, or its trial folder: the same job, or nothing (a trial alone is no job)
  assert.deepEqual(show(root, await discoverRuns(nfs, `${root}/jobs/j1`)).map((x) => x.join(' ')), ['job jobs/j1']);
  assert.deepEqual(await discoverRuns(nfs, `${root}/jobs/j1/fix-git__Xk3pQ7a`), []);
  const [run] = await loadRuns(nfs, [`${root}/jobs/j1`]);
  assert.equal(run.tasks.flatMap((t) => t.attempts).length, 2);
  assert.ok(run.problems.some((p) => p.code === 'missing-file' && p.file === `${root}/jobs/j1/config.json` && /pruned/.test(p.message)),
    JSON.stringify(run.problems.map((p) => p.code)));
});
