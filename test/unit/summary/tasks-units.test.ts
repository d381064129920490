// Rules 4–7 at the task level, called directly or through small runs: the order of tasks without an index, the
// promised files of a verifier folder that is the summary's own folder (or a drive root), exactly 200 missing paths,
// an empty unvalidated list, and a cancel before or while the tasks are built. Expected values written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { buildRunSummary } from '../../../src/core/summary';
import { Selection } from '../../../src/core/summary/rows';
import { listMissing, repeatEntry, settleUnvalidated } from '../../../src/core/summary/tasks';
import { buildRun } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

test('tasks without a task index come after the indexed ones, in the order their rows came', async () => {
  const d = posix(tmpDir('order'));
  const rows = [{ _ng_task_id: 'n2', _ng_rollout_index: 0 }, { _ng_task_id: 'i1', _ng_task_index: 1, _ng_rollout_index: 0 },
    { _ng_task_id: 'n1', _ng_rollout_index: 0 }, { _ng_task_id: 'i0', _ng_task_index: 0, _ng_rollout_index: 0 }, { _ng_task_id: 'n3', _ng_rollout_index: 0 }];
  fs.writeFileSync(`${d}/rollouts.jsonl`, rows.map((r) => JSON.stringify({ ...r, reward: 1 })).join('\n') + '\n');
  const { document } = await buildRunSummary(nodeFs, `${d}/rollouts.jsonl`);
  assert.deepEqual(document.tasks.map((t) => t.task_id), ['i0', 'i1', 'n2', 'n1', 'n3']);
  // Many of them (the sort merges runs of them): still in row order.
  const many = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? { _ng_task_id: `i${i}`, _ng_task_index: 1000 - i, _ng_rollout_index: 0 }
    : { _ng_task_id: `n${i}`, _ng_rollout_index: 0 }));
  fs.writeFileSync(`${d}/rollouts.jsonl`, many.map((r) => JSON.stringify({ ...r, reward: 1 })).join('\n') + '\n');
  const again = await buildRunSummary(nodeFs, `${d}/rollouts.jsonl`);
  assert.deepEqual(again.document.tasks.map((t) => t.task_id), [...many.filter((r) => 'i' === r._ng_task_id[0]).reverse(), ...many.filter((r) => r._ng_task_id[0] === 'n')]
    .map((r) => r._ng_task_id));
});

test('the promised files of a verifier folder named `.` (the summary\'s own) or a drive root, when absent', () => {
  const result = { reward: 1, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'separate', logsDir: '/x', metadata: null };
  const none = { test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };
  assert.deepEqual(repeatEntry({ repeat: 0, result }, { verifier_logs: '.', ...none }).missing, ['test-stdout.txt', 'artifacts']);
  assert.deepEqual(repeatEntry({ repeat: 0, result }, { verifier_logs: 'D:/', ...none }).missing, ['D:/test-stdout.txt', 'D:/artifacts']);
  assert.deepEqual(repeatEntry({ repeat: 0, result }, { verifier_logs: 'v/s', ...none }).missing, ['v/s/test-stdout.txt', 'v/s/artifacts']);
});

test('listMissing: exactly 200 missing paths are 200 warnings and no "more"', () => {
  const tasks = [{ task_id: 'a', task_index: 0, repeats: Array.from({ length: 200 }, (_, r) => ({ repeat: r, missing: [`v/s${r}`] })) }];
  const problems: Problem[] = [];
  assert.equal(listMissing(tasks as never, '/s.json', problems).length, 200);
  assert.equal(problems.length, 200);
  assert.ok(problems.every((p) => p.code === 'missing-path'));
});

test('settleUnvalidated: an empty list is nothing to say, whoever ran', () => {
  const problems: Problem[] = [];
  assert.deepEqual(settleUnvalidated({}, 'the caller', 'some_model_agent', new Selection(), '/s.json', problems), {});
  assert.deepEqual(problems, []);
});

test('a cancel before the run is read, or while its tasks are built, stops the summary with the signal\'s reason', async () => {
  const dir = tmpDir('cancel');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] }] }));
  const before = new AbortController();
  const reason = new Error('stop');
  before.abort(reason);
  await assert.rejects(buildRunSummary(nodeFs, rollouts, { signal: before.signal }), (e) => e === reason);
  // Cancelled once the scan is over: the first verifier folder related to the summary (as the tasks are built).
  const during = new AbortController();
  const port = Object.assign(Object.create(nodeFs) as FsPort, {
    realpathDirs: (p: string) => { if (p.includes('/verifier/')) during.abort(reason); return nodeFs.realpathDirs(p); },
  });
  await assert.rejects(buildRunSummary(port, rollouts, { signal: during.signal }), (e) => e === reason);
  assert.ok(during.signal.aborted);
});
