// What buildRunSummary says, word for word, where its warnings were only counted before: task_source labels that
// disagree or do not match, rows the schedule does not select, a resume told apart by appended outputs, and an
// unvalidated task that has rows. Runs built by the rule tests' builders; every message written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, outputSignatures } from '../../../src/core/summary';
import { buildRun, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const said = (problems: { code: string; severity: string; file: string; message: string }[], dir: string, ...codes: string[]) =>
  problems.filter((p) => codes.includes(p.code)).map((p) => [p.severity, p.code, p.file.slice(posix(dir).length + 1), p.message]);

test('task_source: rows with two labels are one warning naming both; rows with none are no mismatch', async () => {
  const dir = tmpDir('labels-two');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', taskSource: 'x' }, { outcome: 'scored', taskSource: 'y' }] }] }));
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.equal(document.result_task_source, null);
  assert.deepEqual(said(problems, dir, 'task-source-disagreement', 'task-source-mismatch'), [['warning', 'task-source-disagreement', 'rollouts.jsonl',
    'the result and failure rows carry different task_source labels (x, y): another run wrote part of them']]);

  const one = tmpDir('labels-one');
  const r1 = posix(buildRun(one, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] }] }));
  const first = await buildRunSummary(nodeFs, r1);
  assert.deepEqual(said(first.problems, one, 'task-source-disagreement', 'task-source-mismatch'), []);
  assert.notEqual(first.document.result_task_source, null);
  // The rows without a label: nothing to compare with what they were materialized as.
  fs.writeFileSync(r1, fs.readFileSync(r1, 'utf8').split('\n').filter(Boolean)
    .map((l) => { const o = JSON.parse(l); delete o.task_source; return JSON.stringify(o); }).join('\n') + '\n');
  const none = await buildRunSummary(nodeFs, r1);
  assert.equal(none.document.result_task_source, null);
  assert.notEqual(none.document.task_source, null);
  assert.deepEqual(said(none.problems, one, 'task-source-disagreement', 'task-source-mismatch'), []);
});

test('rows the materialized inputs do not select: one warning with their count', async () => {
  const dir = tmpDir('not-selected');
  const task: MiniTask = { id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'failed' }] };
  const rollouts = posix(buildRun(dir, { tasks: [task] }));
  const row = JSON.parse(fs.readFileSync(rollouts, 'utf8').split('\n')[0]);
  fs.appendFileSync(rollouts, `${JSON.stringify({ ...row, _ng_rollout_index: 7 })}\n${JSON.stringify({ ...row, _ng_task_index: 5, _ng_task_id: 'zz' })}\n`);
  const { problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(said(problems, dir, 'row-not-selected'), [['warning', 'row-not-selected', 'rollouts.jsonl',
    '2 row(s) name a task or repeat the materialized inputs do not select: left out']]);
});

test('a resume that appended to the outputs after the signatures sidecar: an info Problem says so', async () => {
  const dir = tmpDir('resumed');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] }] }));
  const sigs = await outputSignatures(nodeFs, rollouts);
  fs.writeFileSync(path.join(dir, 'rollouts_signatures.json'), JSON.stringify({ schema_version: 1, rollouts: 'rollouts.jsonl', taken_at_ms: 1, signatures: sigs }));
  fs.appendFileSync(rollouts, fs.readFileSync(rollouts, 'utf8').split('\n')[0] + '\n');
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(document.stale_files, {});
  assert.deepEqual(said(problems, dir, 'resumed'), [['info', 'resumed', 'rollouts.jsonl',
    'resumed: the outputs grew by appending since the signatures sidecar was taken, so they are this run\'s (the sidecar is an earlier fresh start\'s)']]);
});

test('an unvalidated task the earlier summary names that has rows: the warning says where the name came from', async () => {
  const dir = tmpDir('unvalidated-rows');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] }));
  const first = await buildRunSummary(nodeFs, rollouts);
  fs.writeFileSync(path.join(dir, 'rollouts_run_summary.json'), JSON.stringify({ ...first.document, unvalidated: { a: 'no solution' } }, null, 2));
  const { problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(said(problems, dir, 'unvalidated-has-rows', 'unvalidated-in-model-run').map((p) => p.slice(0, 2).concat(p[3])), [
    ['warning', 'unvalidated-has-rows', 'task a is named unvalidated (the earlier summary) but has rows in this run: its entry is kept'],
  ]);
});

test('rollouts gone, the failures carry the rows: the label and selection warnings are placed on what carries them', async () => {
  const dir = tmpDir('labels-failures');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'failed', taskSource: 'x' }, { outcome: 'failed', taskSource: 'y' }] }] }));
  const failures = rollouts.replace(/\.jsonl$/, '_failures.jsonl');
  const row = JSON.parse(fs.readFileSync(failures, 'utf8').split('\n')[0]);
  fs.appendFileSync(failures, `${JSON.stringify({ ...row, _ng_rollout_index: 7 })}\n`);
  fs.rmSync(rollouts, { force: true });
  const { problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(said(problems, dir, 'task-source-disagreement', 'row-not-selected').map((p) => p.slice(0, 3)), [
    ['warning', 'row-not-selected', 'rollouts_failures.jsonl'],
    ['warning', 'task-source-disagreement', 'rollouts.jsonl'],
  ]);
});

test('a run folder with none of its files: nothing is read, so nothing is unreadable', async () => {
  const dir = tmpDir('no-files');
  fs.mkdirSync(dir, { recursive: true });
  const { document, problems } = await buildRunSummary(nodeFs, posix(path.join(dir, 'rollouts.jsonl')));
  assert.deepEqual(problems.filter((p) => p.code === 'unreadable' || !p.file), []);
  assert.deepEqual(document.tasks, []);
});
