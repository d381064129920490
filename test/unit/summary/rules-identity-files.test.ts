// Rules 1–3 of the run summary (docs/run-summary.md): where it goes, the run's identity, the run's files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, runSummaryPathFor, writeRunSummary } from '../../../src/core/summary';
import { buildRun, digestOf, T0 } from './builders';
import { nodeFs, posix, readJson, tmpDir } from './helpers';

test('rule 1: <stem>_run_summary.json beside the rollouts; a run that wrote no rollouts (only a sidecar) gets an empty summary, a path where nothing of a run is gets none', async () => {
  assert.equal(runSummaryPathFor('/r/results/eval.jsonl'), '/r/results/eval_run_summary.json');
  assert.equal(runSummaryPathFor('/r/a.b/out.v2.jsonl'), '/r/a.b/out.v2_run_summary.json');
  const dir = tmpDir('rule1');
  const rollouts = posix(path.join(dir, 'never', 'written', 'out.jsonl'));
  const typo = await writeRunSummary(nodeFs, rollouts);
  assert.match(typo.error ?? '', /no run at/);
  assert.equal(fs.existsSync(path.join(dir, 'never')), false, 'no folder created for a typo');
  fs.mkdirSync(path.join(dir, 'never', 'written'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'never', 'written', 'out_signatures.json'), '{}');
  const res = await writeRunSummary(nodeFs, rollouts);
  assert.equal(res.error, undefined);
  assert.equal(res.path, posix(path.join(dir, 'never', 'written', 'out_run_summary.json')));
  assert.deepEqual(readJson(res.path), {
    schema_version: 1, target: null, taskset: null, agent: null,
    dataset: { source: null, name: null, version: null, folder: null, digests: {} },
    task_source: null, result_task_source: null,
    files: {
      rollouts: null, failures: null, materialized_inputs: null, aggregate_metrics: null, rows: null, rows_prepare: null,
      rows_metrics: null, collated: null, collated_metrics: null, run_config: null, quality_summary: null, rollout_verdicts: null,
    },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {}, tasks: [],
  });
});

test('rule 2: identity from the run config, the dataset manifest and the rows; flags override', async () => {
  const dir = tmpDir('rule2');
  const rollouts = buildRun(path.join(dir, 'results'), {
    runConfig: true, taskset: 'tb', originalRoot: posix(path.join(dir, 'results')),
    tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }, { id: 'b', repeats: [{ outcome: 'failed' }] }],
  });
  // The run config names <root>/datasets/tb; its manifest.toml gives source, name and version.
  fs.mkdirSync(path.join(dir, 'results', 'datasets', 'tb'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'results', 'datasets', 'tb', 'manifest.toml'),
    '[task]\nname = "x"\n\n[dataset]\nsource = "harbor-registry"  # hub\nname = "tb"\nversion = \'2.1\'\n');
  const { document, problems } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.equal(document.target, null);
  assert.equal(document.taskset, 'tb');
  assert.equal(document.agent, 'terminus_2_sandboxed_agent');
  assert.deepEqual(document.dataset, {
    source: 'harbor-registry', name: 'tb', version: '2.1', folder: 'datasets/tb', digests: { a: digestOf('a'), b: digestOf('b') },
  });
  assert.equal(document.task_source, 'harbor_tb_resources_server');
  assert.equal(document.result_task_source, 'harbor_tb_resources_server');
  assert.ok(!problems.some((p) => p.code.startsWith('task-source')));

  const flagged = await buildRunSummary(nodeFs, posix(rollouts), { identity: { target: 'harbor:tb@2.1', agent: 'oracle_agent', taskset: 'other' } });
  assert.equal(flagged.document.target, 'harbor:tb@2.1');
  assert.equal(flagged.document.agent, 'oracle_agent');
  assert.equal(flagged.document.taskset, 'other');
});

test('rule 2: result rows of another run keep their label and are flagged; disagreeing rows give null', async () => {
  const dir = tmpDir('rule2b');
  const other = buildRun(path.join(dir, 'other'), {
    tasks: [{ id: 'a', repeats: [{ outcome: 'scored', taskSource: 'someone_else' }, { outcome: 'failed', taskSource: 'someone_else' }] }],
  });
  const a = await buildRunSummary(nodeFs, posix(other));
  assert.equal(a.document.task_source, 'harbor_mini_resources_server');
  assert.equal(a.document.result_task_source, 'someone_else');
  assert.ok(a.problems.some((p) => p.code === 'task-source-mismatch' && p.severity === 'warning'));

  const mixed = buildRun(path.join(dir, 'mixed'), {
    tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', taskSource: 'someone_else' }] }],
  });
  const b = await buildRunSummary(nodeFs, posix(mixed));
  assert.equal(b.document.result_task_source, null);
  assert.ok(b.problems.some((p) => p.code === 'task-source-disagreement'));

  // No rows at all: null, and nothing to flag.
  const none = buildRun(path.join(dir, 'none'), { tasks: [{ id: 'a', repeats: [{ outcome: 'missing' }] }] });
  const c = await buildRunSummary(nodeFs, posix(none));
  assert.equal(c.document.result_task_source, null);
  assert.equal(c.document.task_source, 'harbor_mini_resources_server');
});

test('rule 2: regenerating keeps the identity a previous summary recorded', async () => {
  const dir = tmpDir('rule2c');
  const rollouts = buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] });
  fs.writeFileSync(path.join(dir, 'rollouts_run_summary.json'), JSON.stringify({
    target: 'harbor:mini@1.0', agent: 'my_agent', dataset: { source: 'harbor-registry', name: 'mini', version: '1.0', folder: '../ds' },
    skipped: { z: 'z: task.toml is missing' }, unvalidated: [{ task_id: 'q', reason: 'NO_REFERENCE_SOLUTION' }],
  }));
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.equal(document.target, 'harbor:mini@1.0');
  assert.equal(document.agent, 'my_agent');
  assert.deepEqual(document.dataset, { source: 'harbor-registry', name: 'mini', version: '1.0', folder: '../ds', digests: { a: digestOf('a') } });
  assert.deepEqual(document.skipped, { z: 'z: task.toml is missing' });
  // The agent kept (my_agent: no file of this run names one) is a model agent, and a model run validates none: the
  // earlier summary's unvalidated list is not carried over.
  assert.deepEqual(document.unvalidated, {});
  assert.equal(document.taskset, 'mini');
});

test('rule 3: every file of the run under its stable key', async () => {
  const dir = tmpDir('rule3');
  const rollouts = buildRun(dir, { runConfig: true, tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'failed' }] }] });
  const conflict = path.join(dir, 'rollouts', 'preprocessed_datasets', 'validation_metrics_conflict.json');
  fs.writeFileSync(conflict, '{}');
  fs.writeFileSync(path.join(dir, 'rollouts_sources.json'), '[]');
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.deepEqual(document.files, {
    rollouts: 'rollouts.jsonl',
    failures: 'rollouts_failures.jsonl',
    materialized_inputs: 'rollouts_materialized_inputs.jsonl',
    aggregate_metrics: 'rollouts_aggregate_metrics.json',
    rows: 'tasks.jsonl',
    rows_prepare: 'tasks_prepare.jsonl',
    rows_metrics: 'tasks_metrics.json',
    collated: 'rollouts/preprocessed_datasets/validation.jsonl',
    collated_metrics: 'rollouts/preprocessed_datasets/validation_metrics.json',
    collated_conflict: 'rollouts/preprocessed_datasets/validation_metrics_conflict.json',
    run_config: 'run_config.yaml',
    quality_summary: 'quality_summary.json',
    rollout_verdicts: 'rollout_verdicts.jsonl',
    sources: 'rollouts_sources.json',
  });
  // Another split names other collated files; absent ones are null.
  const other = await buildRunSummary(nodeFs, posix(rollouts), { split: 'train' });
  assert.equal(other.document.files.collated, null);
  assert.equal(other.document.files.collated_metrics, null);
  assert.equal('collated_conflict' in other.document.files, false);
  void T0;
});
