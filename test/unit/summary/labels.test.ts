// Rule 2's label and digests when the run's materialized inputs do not give them: the label from the collated
// input's first rows, else the prepared `_prepare.jsonl`, else the run config's resources server, else (rows
// prepared, nothing dispatched) `harbor_<taskset>_resources_server`; the digests from the run config, the schedule,
// or the prepared rows. Expected values written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary } from '../../../src/core/summary';
import { buildRun } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const relabel = (p: string, label: string) => fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replaceAll('"task_source":"L"', `"task_source":"${label}"`));

test('task_source without materialized inputs: the collated input, else _prepare.jsonl, else the run config, else the taskset', async () => {
  const dir = tmpDir('labels');
  const rollouts = posix(buildRun(dir, { materialized: false, runConfig: true, taskSource: 'L', tasks: [
    { id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }, { id: 'b', repeats: [{ outcome: 'missing' }] },
  ] }));
  const collated = path.join(dir, 'rollouts', 'preprocessed_datasets', 'validation.jsonl');
  const prepare = path.join(dir, 'tasks_prepare.jsonl');
  relabel(collated, 'from-collated');
  relabel(prepare, 'from-prepare');
  const label = async () => (await buildRunSummary(nodeFs, rollouts)).document.task_source;
  assert.equal(await label(), 'from-collated');
  // Only the first 8 lines are looked at: a label on line 8 counts, one on line 9 does not.
  const rows = fs.readFileSync(collated, 'utf8');
  fs.writeFileSync(collated, '{"x": 1}\n'.repeat(6) + 'not json\n' + rows);
  assert.equal(await label(), 'from-collated');
  fs.writeFileSync(collated, '{"x": 1}\n'.repeat(8) + rows);
  assert.equal(await label(), 'from-prepare');
  fs.rmSync(collated);
  assert.equal(await label(), 'from-prepare');
  fs.writeFileSync(prepare, '{"task_source": 5}\n');
  // The run config's resources server is what the rows were materialized with; the result rows say otherwise.
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.equal(document.task_source, 'harbor_mini_resources_server', 'the run config names the resources server');
  assert.equal(document.result_task_source, 'L');
  assert.deepEqual(problems.filter((p) => p.code === 'task-source-mismatch').map((p) => [p.jsonPath, p.severity, p.message]), [[
    ['result_task_source'], 'warning',
    'the rows carry task_source \'L\' but were materialized as \'harbor_mini_resources_server\': another run wrote that results file']]);
  fs.rmSync(prepare);
  fs.rmSync(path.join(dir, 'run_config.yaml'));
  // No file records the label: the taskset of the prepared rows names it, and a guess is no ground for a mismatch.
  const guessed = await buildRunSummary(nodeFs, rollouts);
  assert.equal(guessed.document.task_source, 'harbor_mini_resources_server');
  assert.equal(guessed.document.result_task_source, 'L');
  assert.deepEqual(guessed.problems.filter((p) => p.code === 'task-source-mismatch'), []);
  fs.rmSync(path.join(dir, 'tasks.jsonl'));
  assert.equal(await label(), null, 'no file of the run records a label');
});

test('digests: the run config\'s, else the schedule\'s _ng_digest per task, else the prepared rows\'; the taskset likewise', async () => {
  const dir = tmpDir('digests');
  const tasks = [{ id: 'a', repeats: [{ outcome: 'scored' as const, folder: 'none' as const }] }, { id: 'b', repeats: [{ outcome: 'missing' as const }] }];
  const rollouts = posix(buildRun(dir, { runConfig: true, tasks }));
  const cfg = path.join(dir, 'run_config.yaml');
  fs.writeFileSync(cfg, fs.readFileSync(cfg, 'utf8').replace('a: d-a', 'a: cfg-a'));
  const ds = async () => (await buildRunSummary(nodeFs, rollouts)).document;
  assert.deepEqual((await ds()).dataset.digests, { a: 'cfg-a', b: 'd-b' });
  fs.rmSync(cfg);
  // The schedule (materialized inputs) names both tasks' digests.
  const mat = path.join(dir, 'rollouts_materialized_inputs.jsonl');
  fs.writeFileSync(mat, fs.readFileSync(mat, 'utf8').replaceAll('"d-', '"m-'));
  assert.deepEqual((await ds()).dataset.digests, { a: 'm-a', b: 'm-b' });
  // No schedule: the rollouts select, and the prepared rows give digests and taskset.
  fs.rmSync(mat);
  const prepared = path.join(dir, 'tasks.jsonl');
  fs.writeFileSync(prepared, fs.readFileSync(prepared, 'utf8').replaceAll('"d-', '"p-').replaceAll('"taskset":"mini"', '"taskset":"prep"')
    + 'not json\n{"task_id": "c", "task_input": {"task_data": {"_ng_digest": "p-c"}}}\n{"task_id": {"task_id": "d"}, "task_input": {}}\n');
  fs.writeFileSync(rollouts, fs.readFileSync(rollouts, 'utf8').replaceAll('"taskset":"mini"', '"taskset":null'));
  const doc = await ds();
  assert.deepEqual(doc.dataset.digests, { a: 'p-a', b: 'p-b', c: 'p-c' });
  assert.equal(doc.taskset, 'prep');
  assert.deepEqual(doc.tasks.map((t) => t.task_id), ['a']);
});
