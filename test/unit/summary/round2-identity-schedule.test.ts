// Round 2 of the writer (items 1–5): the identity is this run's, a model run validates none, stale inputs are not the
// schedule, no repeat count is invented, rollouts written outside the results folder. Each test states the whole
// expected document by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, outputSignatures } from '../../../src/core/summary';
import { buildRun, T0 } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const META = [{ agent_timeout_sec: '900.0' }];
const input = (id: string) => ({ digests: { _ng_digest: `d-${id}` }, metadata: META });
const NO_PATHS = { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };
const missing = (id: string, repeat: number) => ({
  repeat, outcome: 'missing', reward: null, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null,
  ...NO_PATHS, input: input(id),
});
const scored = (id: string, i: number, repeat: number, extra: Record<string, unknown> = {}) => ({
  repeat, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
  verifier_logs: `verifier/s-${i}-${repeat}`, test_stdout: `verifier/s-${i}-${repeat}/test-stdout.txt`,
  reward_file: `verifier/s-${i}-${repeat}/reward.txt`, trajectory: `verifier/s-${i}-${repeat}/trajectory.json`, artifacts: null,
  missing: [], input: input(id), ...extra,
});
/** `files` of a builders run beside its rollouts (no failures file, no run config unless asked). */
const FILES = {
  rollouts: 'rollouts.jsonl', failures: null, materialized_inputs: 'rollouts_materialized_inputs.jsonl',
  aggregate_metrics: 'rollouts_aggregate_metrics.json', rows: 'tasks.jsonl', rows_prepare: 'tasks_prepare.jsonl',
  rows_metrics: 'tasks_metrics.json', collated: 'rollouts/preprocessed_datasets/validation.jsonl',
  collated_metrics: 'rollouts/preprocessed_datasets/validation_metrics.json', run_config: null,
  quality_summary: 'quality_summary.json', rollout_verdicts: 'rollout_verdicts.jsonl',
};
const LABEL = 'harbor_mini_resources_server';

function previousSummary(dir: string, doc: Record<string, unknown>): void {
  fs.writeFileSync(path.join(dir, 'rollouts_run_summary.json'), JSON.stringify(doc));
}

test('item 1: the identity is this run\'s; an earlier summary fills only what no file records, and a difference is a warning', async () => {
  const dir = tmpDir('item1');
  const rollouts = buildRun(dir, { runConfig: true, tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] });
  fs.mkdirSync(path.join(dir, 'datasets', 'mini'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'datasets', 'mini', 'manifest.toml'), '[dataset]\nsource = "harbor-registry"\nname = "mini"\nversion = "2.0"\n');
  previousSummary(dir, {
    target: 'harbor:mini@1.0', taskset: 'mini', agent: 'old_agent',
    dataset: { source: 'harbor-registry', name: 'mini', version: '1.0', folder: '../old/mini', digests: { a: 'stale-digest' } },
    skipped: { z: 'z: task.toml is missing' }, unvalidated: {},
  });
  const { document, problems } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.deepEqual(document, {
    schema_version: 1,
    target: 'harbor:mini@1.0', // no file of the run records it: the earlier summary's
    taskset: 'mini',
    agent: 'terminus_2_sandboxed_agent', // run_config.yaml, not the earlier summary's old_agent
    dataset: { source: 'harbor-registry', name: 'mini', version: '2.0', folder: 'datasets/mini', digests: { a: 'd-a' } },
    task_source: LABEL, result_task_source: LABEL,
    files: { ...FILES, run_config: 'run_config.yaml' },
    stale_files: {}, missing_paths: [], unvalidated: {},
    skipped: { z: 'z: task.toml is missing' }, // exists nowhere else
    tasks: [{ task_id: 'a', task_index: 0, repeats: [scored('a', 0, 0)] }],
  });
  const changed = problems.filter((p) => p.code === 'identity-changed').map((p) => p.message);
  assert.deepEqual(changed.map((m) => /says (\S+) /.exec(m)?.[1]), ['agent', 'dataset.version', 'dataset.folder']);
  assert.match(changed[0], /'old_agent'.*'terminus_2_sandboxed_agent'/);
});

test('item 2: a model run validates none; scored rows are never dropped; a validate keeps tasks without rows out', async () => {
  const dir = tmpDir('item2');
  const tasks = [{ id: 'a', repeats: [{ outcome: 'scored' as const }] }, { id: 'b', repeats: [{ outcome: 'missing' as const }] }];
  const rollouts = posix(buildRun(dir, { runConfig: true, tasks }));
  previousSummary(dir, { unvalidated: { a: 'NO_REFERENCE_SOLUTION', b: 'NO_REFERENCE_SOLUTION' } });
  const model = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(model.document, {
    schema_version: 1, target: null, taskset: 'mini', agent: 'terminus_2_sandboxed_agent',
    dataset: { source: null, name: null, version: null, folder: 'datasets/mini', digests: { a: 'd-a', b: 'd-b' } },
    task_source: LABEL, result_task_source: LABEL,
    files: { ...FILES, run_config: 'run_config.yaml' },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [
      { task_id: 'a', task_index: 0, repeats: [scored('a', 0, 0)] },
      { task_id: 'b', task_index: 1, repeats: [missing('b', 0)] },
    ],
  });
  assert.ok(model.problems.some((p) => p.code === 'unvalidated-in-model-run' && /terminus_2_sandboxed_agent/.test(p.message)));

  // A validate (the reference agent): a task without rows is left out as unvalidated; one with rows keeps its entry.
  const validate = await buildRunSummary(nodeFs, rollouts, { identity: { agent: 'oracle_agent' } });
  assert.deepEqual(validate.document.unvalidated, { b: 'NO_REFERENCE_SOLUTION' });
  assert.deepEqual(validate.document.tasks, [{ task_id: 'a', task_index: 0, repeats: [scored('a', 0, 0)] }]);
  assert.ok(validate.problems.some((p) => p.code === 'unvalidated-has-rows' && /task a /.test(p.message)));
});

test('item 3: stale materialized inputs are not this run\'s schedule: the prepared rows name the tasks', async () => {
  const dir = tmpDir('item3');
  const rollouts = posix(buildRun(dir, {
    tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'failed' }] }, { id: 'b', repeats: [{ outcome: 'scored' }] }],
  }));
  // The earlier run's inputs scheduled another task, three times.
  const old = [0, 1, 2].map((r) => JSON.stringify({ task_id: { taskset: 'mini', task_id: 'old' }, task_input: { task_data: { _ng_digest: 'd-old' } },
    task_source: 'old_label', _ng_task_index: 0, _ng_rollout_index: r })).join('\n');
  fs.writeFileSync(path.join(dir, 'rollouts_materialized_inputs.jsonl'), `${old}\n`);
  const before = await outputSignatures(nodeFs, rollouts);
  const { document, problems } = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before, numRepeats: 2 });
  assert.deepEqual(document, {
    schema_version: 1, target: null, taskset: 'mini', agent: null,
    dataset: { source: null, name: null, version: null, folder: null, digests: { a: 'd-a', b: 'd-b' } },
    task_source: LABEL, result_task_source: null,
    files: { ...FILES, rollouts: null, materialized_inputs: null, aggregate_metrics: null, quality_summary: null, rollout_verdicts: null },
    stale_files: { rollouts: 'rollouts.jsonl', failures: 'rollouts_failures.jsonl', materialized_inputs: 'rollouts_materialized_inputs.jsonl' },
    missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [
      { task_id: 'a', task_index: 0, repeats: [missing('a', 0), missing('a', 1)] },
      { task_id: 'b', task_index: 1, repeats: [missing('b', 0), missing('b', 1)] },
    ],
  });
  assert.ok(!problems.some((p) => /old/.test(p.message)), 'nothing of the stale file is read');
});

test('item 4: no repeat count is invented; it comes from the caller or a file of the run, else the schedule is unknown', async () => {
  const dir = tmpDir('item4');
  const rollouts = posix(buildRun(dir, { materialized: false, tasks: [{ id: 'a', repeats: [{ outcome: 'missing' }, { outcome: 'missing' }] }] }));
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(document, {
    schema_version: 1, target: null, taskset: 'mini', agent: null,
    dataset: { source: null, name: null, version: null, folder: null, digests: { a: 'd-a' } },
    task_source: LABEL, result_task_source: null,
    files: { ...FILES, materialized_inputs: null },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    schedule_unknown: 'no file of this run records its schedule (no materialized inputs of its own, no rollouts, no failures) '
      + 'and the repeat count was not given: the tasks are listed with no repeat',
    tasks: [{ task_id: 'a', task_index: 0, repeats: [] }],
  });
  assert.ok(problems.some((p) => p.code === 'schedule-unknown' && p.severity === 'warning' && /--num-repeats/.test(p.message)));
  // The caller knows it (the seed's CLI holds num_repeats in memory).
  const given = await buildRunSummary(nodeFs, rollouts, { numRepeats: 2 });
  assert.deepEqual(given.document.tasks, [{ task_id: 'a', task_index: 0, repeats: [missing('a', 0), missing('a', 1)] }]);
  assert.equal(given.document.schedule_unknown, undefined);
  // A validate whose every task is unvalidated lists no task: an unknown schedule is then not worth a word.
  const validate = await buildRunSummary(nodeFs, rollouts, { identity: { agent: 'oracle_agent' }, unvalidated: { a: 'NO_REFERENCE_SOLUTION' } });
  assert.deepEqual(validate.document.tasks, []);
  assert.equal(validate.document.schedule_unknown, undefined);
  assert.ok(!validate.problems.some((p) => p.code === 'schedule-unknown'));
  // A file of the run records it.
  fs.writeFileSync(path.join(dir, 'run_config.yaml'), 'num_repeats: 3\n');
  const recorded = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(recorded.document.tasks[0].repeats.map((r) => r.repeat), [0, 1, 2]);
});

test('item 5: rollouts written outside the results folder: the run config is found through the rows, or given', async () => {
  const dir = tmpDir('item5');
  const results = path.join(dir, 'results');
  buildRun(results, { runConfig: true, tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] });
  fs.mkdirSync(path.join(dir, 'out'));
  for (const f of ['rollouts.jsonl', 'rollouts_materialized_inputs.jsonl']) fs.renameSync(path.join(results, f), path.join(dir, 'out', f));
  const rollouts = posix(path.join(dir, 'out', 'rollouts.jsonl'));
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  const expected = {
    schema_version: 1, target: null, taskset: 'mini', agent: 'terminus_2_sandboxed_agent',
    dataset: { source: null, name: null, version: null, folder: '../results/datasets/mini', digests: { a: 'd-a' } },
    task_source: LABEL, result_task_source: LABEL,
    files: {
      rollouts: 'rollouts.jsonl', failures: null, materialized_inputs: 'rollouts_materialized_inputs.jsonl', aggregate_metrics: null,
      rows: '../results/tasks.jsonl', rows_prepare: '../results/tasks_prepare.jsonl', rows_metrics: '../results/tasks_metrics.json',
      collated: null, collated_metrics: null, run_config: '../results/run_config.yaml', quality_summary: null, rollout_verdicts: null,
    },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [{ task_id: 'a', task_index: 0, repeats: [{
      ...scored('a', 0, 0), verifier_logs: '../results/verifier/s-0-0', test_stdout: '../results/verifier/s-0-0/test-stdout.txt',
      reward_file: '../results/verifier/s-0-0/reward.txt', trajectory: '../results/verifier/s-0-0/trajectory.json',
    }] }],
  };
  assert.deepEqual(document, expected);
  const said = problems.find((p) => p.code === 'run-config-located');
  assert.equal(said?.file, posix(path.join(results, 'run_config.yaml')));

  // Given explicitly (the rows name no verifier folder to find it by): the same identity, and said so.
  const bare = posix(path.join(dir, 'bare.jsonl'));
  fs.writeFileSync(bare, '');
  const given = await buildRunSummary(nodeFs, bare, { runConfig: posix(path.join(results, 'run_config.yaml')) });
  assert.equal(given.document.agent, 'terminus_2_sandboxed_agent');
  assert.equal(given.document.files.run_config, 'results/run_config.yaml');
  assert.equal(given.document.files.rows, 'results/tasks.jsonl');
  assert.match(given.problems.find((p) => p.code === 'run-config-located')?.message ?? '', /as given/);
  void T0;
});
