// Runs made by the project's sample-run generator (scripts/sample-runs/nemoGym.ts): every case of the NeMo Gym
// sample's table, and the rule-12 / rule-10 / rule-11 variants of its spec, summarised with what the rules say.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { buildRunSummary, serializeSummary, writeRunSummary, type RunSummaryDocument } from '../../../src/core/summary';
import { generateNemoRun, nemoEveryCase, type NemoRunSpec } from '../../../scripts/sample-runs/nemoGym';
import { nodeFs, posix, tmpDir } from './helpers';
import { RunSummarySchema } from '../../../src/core/schemas/runSummary';
import { runSummaryJsonSchema } from '../../../scripts/export-schema';
import { SummaryReadSchema } from '../../../src/core/readers/nemo/summaryShape';

async function summarise(spec: NemoRunSpec) {
  const dir = path.join(tmpDir('gen'), 'results', 'harbor', spec.taskset);
  const run = await generateNemoRun(dir, spec);
  const res = await buildRunSummary(nodeFs, posix(run.rolloutsPath), { skipped: run.skipped, unvalidated: run.unvalidated });
  return { run, ...res };
}

test('generated every-case run: outcomes, missing paths and files as the rules say', async () => {
  const { document } = await summarise(nemoEveryCase());
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => r.outcome)]), [
    ['hello-world', ['scored', 'scored']],
    ['fix-permissions', ['scored', 'scored']],
    ['count-lines', ['scored', 'scored']],
    ['parse-csv', ['failed', 'masked']],
    ['slow-tests', ['scored', 'scored']],
    ['long-build', ['failed', 'missing']],
    ['bad-reward', ['masked', 'scored']],
  ]);
  const fix1 = document.tasks[1].repeats[1];
  assert.equal(fix1.verifier_logs, null);
  assert.equal(fix1.missing.length, 1);
  assert.deepEqual(document.missing_paths, fix1.missing);
  const count0 = document.tasks[2].repeats[0];
  assert.match(count0.reward_file ?? '', /^verifier\/resources-session-[0-9a-f]{32}\/reward\.json$/);
  assert.match(count0.artifacts ?? '', /\/artifacts$/);
  const count1 = document.tasks[2].repeats[1];
  assert.equal(count1.reward_file, null);
  assert.equal(count1.trajectory, null);
  assert.deepEqual(count1.missing, []);
  assert.deepEqual(document.skipped, { 'broken-task': 'broken-task: instruction.md is missing' });
  assert.equal(document.files.quality_summary, 'quality_summary.json');
  assert.equal(document.files.aggregate_metrics, 'rollouts_aggregate_metrics.json');
  assert.equal(document.task_source, 'harbor_tb-mini_resources_server');
  assert.equal(document.result_task_source, 'harbor_tb-mini_resources_server');
  assert.deepEqual(document.stale_files, {});
});

test('generated variants: no rollouts, validate with no solution, stale outputs, reused prepared input', async () => {
  const base = nemoEveryCase();
  const none = await summarise({ ...base, noRollouts: true });
  assert.equal(none.document.files.rollouts, null);
  assert.equal(none.document.files.materialized_inputs, null);
  // No schedule and no rows: the prepared rows name the tasks; no file records the repeat count, so none is
  // invented: every task with no repeat, and the summary says the schedule is unknown.
  assert.deepEqual(none.document.tasks.map((t) => [t.task_id, t.task_index, t.repeats.map((r) => [r.repeat, r.outcome])]),
    base.tasks.map((t, i) => [t.id, i, []]));
  assert.match(String(none.document.schedule_unknown), /no file of this run records its schedule/);

  const validate = await summarise({ ...base, validateNoSolution: true });
  assert.deepEqual(validate.document.tasks, []);
  assert.deepEqual(Object.values(validate.document.unvalidated), Array(base.tasks.length).fill('NO_REFERENCE_SOLUTION'));

  const stale = await summarise({ ...base, staleOutputs: true });
  assert.deepEqual(Object.keys(stale.document.stale_files).sort(), ['failures', 'materialized_inputs', 'rollouts']);
  // The stale materialized inputs are not this run's schedule: the prepared rows name the tasks, with no repeat.
  assert.deepEqual(stale.document.tasks.map((t) => t.task_id), base.tasks.map((t) => t.id));
  assert.ok(stale.document.tasks.every((t) => t.repeats.length === 0));

  const reused = await summarise({ ...base, reusedPreparedInput: true });
  assert.equal(reused.document.files.rows_metrics, null);
});

// The run of a summary the writer just produced is not validated again by the reader (runFromWrittenSummary,
// readNemoRollouts): that holds only because every document the writer builds passes the read schema.
test('every generated variant\'s document passes the reader\'s schema (why a just-written summary is not validated again)', async () => {
  const base = nemoEveryCase();
  const variants: NemoRunSpec[] = [base, { ...base, noRollouts: true }, { ...base, validateNoSolution: true },
    { ...base, staleOutputs: true }, { ...base, reusedPreparedInput: true }];
  for (const spec of variants) {
    const { document } = await summarise(spec);
    const parsed = SummaryReadSchema.safeParse(JSON.parse(serializeSummary(document)));
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3)));
    assert.ok(RunSummarySchema.safeParse(document).success);
  }
});

// The documented key orders (docs/run-summary.md), written out here rather than taken from the writer's layout.
const TOP = ['schema_version', 'target', 'taskset', 'agent', 'dataset', 'task_source', 'result_task_source', 'files',
  'stale_files', 'missing_paths', 'unvalidated', 'skipped', 'tasks'];
const DATASET = ['source', 'name', 'version', 'folder', 'digests'];
const FILES = ['rollouts', 'failures', 'materialized_inputs', 'aggregate_metrics', 'rows', 'rows_prepare', 'rows_metrics',
  'collated', 'collated_metrics', 'run_config', 'quality_summary', 'rollout_verdicts'];

/** The same object with its keys in reverse order (values untouched). */
const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

test('generated run: the summary\'s top, dataset and files keys are written in the documented order, whatever order they come in', async () => {
  const { run, document } = await summarise(nemoEveryCase());
  assert.ok(document.dataset && Object.keys(document.dataset.digests).length > 0);
  const check = (text: string, what: string) => {
    const doc = JSON.parse(text) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(doc), TOP, `${what}: top-level keys`);
    assert.deepEqual(Object.keys(doc.dataset), DATASET, `${what}: dataset keys`);
    assert.deepEqual(Object.keys(doc.files), FILES, `${what}: files keys`);
    // The digests keep the task order of the run config; the values are the generator's.
    assert.deepEqual(doc.dataset.digests, document.dataset!.digests);
  };
  check(serializeSummary(document), 'as built');
  const shuffled = reversed({ ...document, dataset: reversed(document.dataset!), files: reversed(document.files) }) as RunSummaryDocument;
  assert.notDeepEqual(Object.keys(shuffled), TOP);
  check(serializeSummary(shuffled), 'given in reverse');
  // What the writer puts on disk.
  const written = await writeRunSummary(nodeFs, posix(run.rolloutsPath), { skipped: run.skipped, unvalidated: run.unvalidated });
  assert.equal(written.error, undefined);
  check(fs.readFileSync(written.path, 'utf8'), 'written');
});

test('generated run without a previous summary: the run config gives the identity; the target is recorded nowhere else', async () => {
  const { document } = await summarise(nemoEveryCase());
  assert.equal(document.target, null);
  assert.equal(document.taskset, 'tb-mini');
  assert.equal(document.agent, 'terminus_2_sandboxed_agent');
  assert.deepEqual(Object.keys(document.dataset!.digests), nemoEveryCase().tasks.map((t) => t.id));
  assert.match(document.dataset!.folder ?? '', /(^|\/)datasets\/tb-mini$/);
  assert.deepEqual([document.dataset!.source, document.dataset!.name, document.dataset!.version], [null, null, null]);
});

test('the exported JSON Schema requires our keys but not schema_version; a generated summary passes without it', async () => {
  const schema = runSummaryJsonSchema() as { required: string[] };
  assert.ok(!schema.required.includes('schema_version'));
  for (const k of ['files', 'tasks', 'missing_paths', 'stale_files']) assert.ok(schema.required.includes(k), k);
  const { document } = await summarise(nemoEveryCase());
  const { schema_version: _drop, ...withoutVersion } = JSON.parse(serializeSummary(document)) as Record<string, unknown>;
  assert.equal(RunSummarySchema.safeParse(withoutVersion).success, false, 'our own summaries carry schema_version');
  assert.ok(RunSummarySchema.partial({ schema_version: true }).safeParse(withoutVersion).success);
  const { tasks: _tasks, ...withoutTasks } = withoutVersion;
  assert.equal(RunSummarySchema.partial({ schema_version: true }).safeParse(withoutTasks).success, false);
});
