// buildRunSummary at three edges the rule tests did not reach: progress reported when the bytes read reach exactly
// 4 MiB, a moved run whose dataset folder lies outside its results folder and is not reachable here, and the
// identity of a run whose schedule carries digests but no taskset while its prepared rows carry both. Runs built by
// the rule tests' builders and then edited; every expected value written by hand from the rules.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, outputSignatures, UnreadableRunFile } from '../../../src/core/summary';
import { buildRun } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

/** Rewrites a file's text and puts its mtime back (the freshness rules compare the run's files by mtime). */
function rewrite(p: string, edit: (text: string) => string): void {
  const { atime, mtime } = fs.statSync(p);
  fs.writeFileSync(p, edit(fs.readFileSync(p, 'utf8')));
  fs.utimesSync(p, atime, mtime);
}

test('progress: reported as soon as the bytes read reach exactly 4 MiB, not one line later', async () => {
  const dir = tmpDir('progress-exact');
  const rollouts = posix(buildRun(dir, { materialized: false, tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'scored', folder: 'none' }] }] }));
  // The first row padded so that it and its newline are 4 MiB to the byte; the second row as it was.
  rewrite(rollouts, (text) => {
    const [first, second] = text.split('\n');
    const row = JSON.parse(first) as Record<string, unknown>;
    const bare = Buffer.byteLength(JSON.stringify({ ...row, pad: '' })) + 1;
    return `${JSON.stringify({ ...row, pad: 'x'.repeat((4 << 20) - bare) })}\n${second}\n`;
  });
  const total = fs.statSync(rollouts).size;
  assert.equal(Buffer.byteLength(fs.readFileSync(rollouts, 'utf8').split('\n')[0]) + 1, 4 << 20);
  const seen: [number, number][] = [];
  const { document } = await buildRunSummary(nodeFs, rollouts, { onProgress: (a, b) => seen.push([a, b]) });
  assert.deepEqual(document.tasks[0].repeats.map((r) => r.outcome), ['scored', 'scored']);
  assert.deepEqual(seen, [[4 << 20, total], [total, total]]);
});

test('a moved run: a dataset folder outside the results folder, not reachable here, is named relative to the results folder it had', async () => {
  const dir = tmpDir('moved-dataset');
  const old = '/nonexistent-root/gym/results/harbor/mini';
  const rollouts = buildRun(dir, { runConfig: true, originalRoot: old, tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] });
  // The run config names the dataset beside `results/`, not under it: moving the results folder did not move it.
  rewrite(path.join(dir, 'run_config.yaml'), (text) => text.replace(`folder: ${old}/datasets/mini`, 'folder: /nonexistent-root/gym/datasets/mini'));
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.equal(document.dataset.folder, '../../../datasets/mini');
  // Its counterpart under the results folder is still found where the folder is now.
  assert.equal(document.tasks[0].repeats[0].verifier_logs, 'verifier/s-0-0');
});

test('identity: the schedule\'s digests are kept and the taskset comes from the prepared rows when the schedule names none', async () => {
  const dir = tmpDir('identity-prepared');
  const rollouts = buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }, { id: 'b', repeats: [{ outcome: 'scored', folder: 'none' }] }] });
  // The schedule and the result rows name their tasks by a plain id (no taskset); the prepared rows keep
  // `{taskset, task_id}` and carry digests of their own, other than the schedule's.
  const plain = (text: string) => text.replace(/\{"taskset":"mini","task_id":"([ab])"\}/g, '"$1"');
  rewrite(path.join(dir, 'rollouts_materialized_inputs.jsonl'), plain);
  rewrite(rollouts, plain);
  rewrite(path.join(dir, 'tasks.jsonl'), (text) => text.replace(/"_ng_digest":"d-([ab])"/g, '"_ng_digest":"p-$1"'));
  assert.ok(!fs.readFileSync(rollouts, 'utf8').includes('"taskset"'));
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.equal(document.taskset, 'mini');
  assert.deepEqual(document.dataset.digests, { a: 'd-a', b: 'd-b' });
  assert.equal(document.task_source, 'harbor_mini_resources_server');

  // With no digests in the schedule either, the prepared rows give both.
  rewrite(path.join(dir, 'rollouts_materialized_inputs.jsonl'), (text) => text.replace(/"_ng_digest":"d-[ab]"/g, '"other":"x"'));
  const again = await buildRunSummary(nodeFs, posix(rollouts));
  assert.equal(again.document.taskset, 'mini');
  assert.deepEqual(again.document.dataset.digests, { a: 'p-a', b: 'p-b' });
});

test('rule 10: an output removed between its stat and its hash is compared by the size and mtime that stat gave', async () => {
  const dir = tmpDir('stale-race');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  // Before dispatch there were no rollouts, and the schedule's head could not be hashed (its signature then carries
  // an empty hash).
  const before = await outputSignatures(nodeFs, rollouts);
  before.rollouts = null;
  before.materialized_inputs = { ...before.materialized_inputs!, head_sha256: '' };
  // The schedule is removed right after the writer's first look at it.
  let removed = false;
  const racy = Object.create(nodeFs) as typeof nodeFs;
  racy.stat = async (p: string) => {
    const st = await nodeFs.stat(p);
    if (p === schedule && st && !removed) { removed = true; fs.rmSync(p); }
    return st;
  };
  const { document, problems } = await buildRunSummary(racy, rollouts, { beforeDispatch: before });
  assert.ok(removed);
  assert.deepEqual(document.stale_files, { materialized_inputs: 'rollouts_materialized_inputs.jsonl' });
  assert.deepEqual(problems.filter((p) => p.code === 'stale-file').map((p) => p.file), [schedule]);
  assert.deepEqual(document.tasks[0].repeats.map((r) => r.outcome), ['scored']);
});

test('the schedule: a line whose task_input holds a value that is not JSON is that line\'s parse error; the rest is read', async () => {
  const dir = tmpDir('schedule-bad-input');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'scored', folder: 'none' }] }] }));
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  // Line 2's brackets and strings balance, so the line reads as one object; its task_data is the word `nope`.
  rewrite(schedule, (text) => {
    const lines = text.split('\n');
    lines[1] = lines[1].replace(/"task_data":\{[^}]*\}/, '"task_data":nope');
    assert.ok(lines[1].includes('nope'));
    return lines.join('\n');
  });
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  const bad = problems.filter((p) => p.code === 'parse-error');
  assert.deepEqual(bad.map((p) => [p.file, p.line, p.severity]), [[schedule, 2, 'error']]);
  assert.match(bad[0].message, /^line 2 is not a valid JSON object: /);
  // Repeat 0 is scheduled and scored; repeat 1's schedule line is lost, so its row is one the schedule does not select.
  assert.deepEqual(document.tasks[0].repeats.map((r) => [r.repeat, r.outcome]), [[0, 'scored']]);
  assert.deepEqual(problems.filter((p) => p.code === 'row-not-selected').map((p) => p.file), [rollouts]);
});

test('a result row with a task id that names no task is left out, even with a task index (only a row with no id at all is named by its index)', async () => {
  const dir = tmpDir('row-bad-id');
  const rollouts = posix(buildRun(dir, { materialized: false, tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  fs.appendFileSync(rollouts, '{"_ng_task_id": {"taskset": "mini"}, "_ng_task_index": 1, "_ng_rollout_index": 0, "reward": 1.0}\n'
    + '{"_ng_task_index": 2, "_ng_rollout_index": 0, "reward": 1.0}\n');
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(problems.filter((p) => p.code === 'row-without-identity').map((p) => [p.file, p.line, p.message]),
    [[rollouts, 2, 'line 2 names no task (no task id, no _ng_task_index): left out']]);
  assert.deepEqual(document.tasks.map((t) => t.task_id), ['a', '2']);
});

test('the rollouts removed while the schedule is read: the writer stops with the rollouts unreadable', async () => {
  const dir = tmpDir('rollouts-gone');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  let removed = false;
  const racy = Object.create(nodeFs) as typeof nodeFs;
  racy.openSequential = async (p: string) => {
    if (p === schedule && !removed) { removed = true; fs.rmSync(rollouts); }
    return nodeFs.openSequential(p);
  };
  await assert.rejects(buildRunSummary(racy, rollouts), (e: Error) => e instanceof UnreadableRunFile && e.file === rollouts);
  assert.ok(removed);
});
