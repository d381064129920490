// Rules 8–11 of the run summary: files that follow a completed collection, health reports, stale outputs, the rows
// metrics sidecar; and a results folder moved as a whole.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, outputSignatures, writeRunSummary } from '../../../src/core/summary';
import { run as signaturesCli } from '../../../src/cli/commands/signatures';
import { buildRun, missingEntry, T0, type MiniRun, type MiniTask } from './builders';
import { copyFixture, fixtureDir, nodeFs, posix, readJson, setMtime, tmpDir } from './helpers';

const TASK: MiniTask = { id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'failed' }] };

async function files(spec: Omit<MiniRun, 'tasks'>, tweak?: (dir: string) => void) {
  const dir = tmpDir('fresh');
  const rollouts = buildRun(dir, { tasks: [TASK], ...spec });
  tweak?.(dir);
  return (await buildRunSummary(nodeFs, posix(rollouts))).document.files;
}

test('rule 8: aggregate metrics only when at least as new as this run\'s rollouts', async () => {
  assert.equal((await files({ aggregate: 2 })).aggregate_metrics, 'rollouts_aggregate_metrics.json');
  assert.equal((await files({ aggregate: 0 })).aggregate_metrics, 'rollouts_aggregate_metrics.json');
  assert.equal((await files({ aggregate: -10 })).aggregate_metrics, null);
  const none = await files({ aggregate: 2 }, (d) => fs.rmSync(path.join(d, 'rollouts.jsonl')));
  assert.equal(none.rollouts, null);
  assert.equal(none.aggregate_metrics, null);
  assert.equal(none.quality_summary, null);
});

test('rule 9: health reports linked only when run.rollouts names this rollouts file and they are as new', async () => {
  const linked = { quality_summary: 'quality_summary.json', rollout_verdicts: 'rollout_verdicts.jsonl' };
  const unlinked = { quality_summary: null, rollout_verdicts: null };
  const pickHealth = (f: Awaited<ReturnType<typeof files>>) => ({ quality_summary: f.quality_summary, rollout_verdicts: f.rollout_verdicts });
  assert.deepEqual(pickHealth(await files({})), linked);
  assert.deepEqual(pickHealth(await files({ health: ['./rollouts.jsonl'] })), linked);
  assert.deepEqual(pickHealth(await files({ health: ['rollouts.jsonl'], healthMtime: 0 })), linked);
  assert.deepEqual(pickHealth(await files({ health: 'none' })), unlinked, 'no run.rollouts record');
  assert.deepEqual(pickHealth(await files({ health: 'garbage' })), unlinked, 'does not parse');
  assert.deepEqual(pickHealth(await files({ healthMtime: -5 })), unlinked, 'older than the rollouts');
  assert.deepEqual(pickHealth(await files({ health: ['other.jsonl'] })), unlinked, 'another stem');
  // The verdicts follow the summary: absent verdicts are null while the summary is linked.
  assert.deepEqual(pickHealth(await files({}, (d) => fs.rmSync(path.join(d, 'rollout_verdicts.jsonl')))),
    { quality_summary: 'quality_summary.json', rollout_verdicts: null });
  // An absolute record works too.
  const abs = await files({}, (d) => {
    const q = path.join(d, 'quality_summary.json');
    fs.writeFileSync(q, JSON.stringify({ run: { rollouts: [posix(path.join(d, 'rollouts.jsonl'))] }, tasks: {} }));
    setMtime(q, T0 + 5);
  });
  assert.deepEqual(pickHealth(abs), linked);
});

test('rule 9: a merged file owns the report that records its shards, as <stem>_sources.json lists them', async () => {
  const shards = (sources: unknown, recorded: string[]) => files({ health: recorded }, (d) => {
    fs.mkdirSync(path.join(d, 'shards'));
    for (const s of ['s0.jsonl', 's1.jsonl']) fs.writeFileSync(path.join(d, 'shards', s), '');
    fs.writeFileSync(path.join(d, 'rollouts_sources.json'), JSON.stringify(sources));
  });
  const both = ['shards/s0.jsonl', 'shards/s1.jsonl'];
  let f = await shards({ shards: ['shards/s0.jsonl', { path: 'shards/s1.jsonl' }] }, both);
  assert.equal(f.quality_summary, 'quality_summary.json');
  assert.equal(f.sources, 'rollouts_sources.json');
  f = await shards(both, both);
  assert.equal(f.quality_summary, 'quality_summary.json');
  f = await shards(both, ['shards/s0.jsonl']);
  assert.equal(f.quality_summary, null, 'a report of one shard only is not the merged file\'s');
  f = await shards({ nothing: true }, both);
  assert.equal(f.quality_summary, null, 'a sources file without a list names no shards');
});

test('rule 10: outputs unchanged since the signatures taken before dispatch are stale; their rows are not read', async () => {
  const dir = tmpDir('rule10');
  const rollouts = posix(buildRun(dir, { tasks: [TASK] }));
  const before = await outputSignatures(nodeFs, rollouts);
  assert.ok(before.rollouts && before.failures && before.materialized_inputs);
  const { document, problems } = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before });
  assert.deepEqual(document.stale_files, {
    rollouts: 'rollouts.jsonl', failures: 'rollouts_failures.jsonl', materialized_inputs: 'rollouts_materialized_inputs.jsonl',
  });
  assert.equal(document.files.rollouts, null);
  assert.equal(document.files.failures, null);
  assert.equal(document.files.materialized_inputs, null);
  assert.equal(document.files.aggregate_metrics, null);
  assert.equal(document.files.quality_summary, null);
  assert.equal(document.result_task_source, null);
  // The stale inputs do not give the schedule: the prepared rows name the task; no file records its repeats.
  assert.deepEqual(document.tasks, [{ task_id: 'a', task_index: 0, repeats: [] }]);
  assert.equal(problems.filter((p) => p.code === 'stale-file').length, 3);
  const counted = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before, numRepeats: 2 });
  assert.deepEqual(counted.document.tasks, [{ task_id: 'a', task_index: 0, repeats: [missingEntry(TASK, 0), missingEntry(TASK, 1)] }]);

  // A resumed run (null) reads what is on disk.
  const resumed = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: null });
  assert.deepEqual(resumed.document.stale_files, {});
  assert.deepEqual(resumed.document.tasks[0].repeats.map((r) => r.outcome), ['scored', 'failed']);

  // The sidecar `harbor-runs signatures` records is used when no signatures are passed.
  const quiet = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  let code: number;
  try { code = await signaturesCli([rollouts]); } finally { process.stderr.write = quiet; }
  assert.equal(code, 0);
  assert.deepEqual((readJson(path.join(dir, 'rollouts_signatures.json')) as { signatures: unknown }).signatures, before);
  // The run then rewrites the rollouts (a fresh start removes and rewrites them): they are its own; the failures and
  // inputs it never reached stay stale, so the rows select.
  const rewritten = fs.readFileSync(rollouts, 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.stringify({ ...JSON.parse(l), reward: 0.5 })).join('\n');
  fs.writeFileSync(rollouts, `${rewritten}\n`);
  setMtime(rollouts, T0 + 1);
  const after = await writeRunSummary(nodeFs, rollouts);
  assert.deepEqual(after.document!.stale_files, { failures: 'rollouts_failures.jsonl', materialized_inputs: 'rollouts_materialized_inputs.jsonl' });
  assert.equal(after.document!.files.rollouts, 'rollouts.jsonl');
  assert.deepEqual(after.document!.tasks[0].repeats.map((r) => [r.repeat, r.outcome, r.reward]), [[0, 'scored', 0.5]]);
});

test('rule 10: the fixture\'s stale fresh start gives variants/fresh_start_died_before_collector', { skip: !fixtureDir() && 'no shared fixtures' }, async () => {
  const src = fixtureDir()!;
  const dir = copyFixture(src);
  const rollouts = posix(path.join(dir, 'rollouts.jsonl'));
  const before = await outputSignatures(nodeFs, rollouts);
  // The sample run used +num_repeats=2, which no file of it records: the caller passes it, as the seed's CLI knows it.
  const { document } = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before, numRepeats: 2 });
  const variant = readJson(path.join(src, 'variants', 'fresh_start_died_before_collector_run_summary.json')) as Record<string, unknown>;
  assert.deepEqual(document, { schema_version: 1, ...variant });
});

test('rule 11: files.rows_metrics is null when the run reused the prepared input', async () => {
  assert.equal((await files({})).rows_metrics, 'tasks_metrics.json');
  assert.equal((await files({}, (d) => fs.rmSync(path.join(d, 'tasks_metrics.json')))).rows_metrics, null);
  assert.equal((await files({}, (d) => setMtime(path.join(d, 'tasks_metrics.json'), T0 - 9000))).rows_metrics, null,
    'a sidecar older than the rows it describes is an earlier preparation\'s');
});

test('a results folder moved as a whole still resolves (run config, or the rows\' common root)', async () => {
  for (const runConfig of [true, false]) {
    const dir = tmpDir('moved');
    const rollouts = buildRun(dir, {
      runConfig, originalRoot: '/nonexistent-root/gym/results/harbor/mini',
      tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', folder: 'absent' }] }],
    });
    const { document } = await buildRunSummary(nodeFs, posix(rollouts));
    const [r0, r1] = document.tasks[0].repeats;
    assert.equal(r0.verifier_logs, 'verifier/s-0-0');
    assert.equal(r0.reward_file, 'verifier/s-0-0/reward.txt');
    assert.deepEqual(r1.missing, ['verifier/s-0-1']);
    assert.deepEqual(document.missing_paths, ['verifier/s-0-1']);
    if (runConfig) {
      assert.equal(document.files.rows, 'tasks.jsonl');
      assert.equal(document.dataset.folder, 'datasets/mini');
    }
  }
});

test('rule 10: a rewrite that keeps the size and the mtime is told apart by the content hash: not stale', async () => {
  const dir = tmpDir('rule10-hash');
  const task: MiniTask = { id: 'a', repeats: [{ outcome: 'scored', folder: 'none', reward: 1 }] };
  const rollouts = posix(buildRun(dir, { tasks: [task] }));
  const before = await outputSignatures(nodeFs, rollouts);
  const text = fs.readFileSync(rollouts, 'utf8');
  assert.ok(text.includes('"reward":1,'));
  const { mtimeMs } = fs.statSync(rollouts);
  // Same length, another reward; the mtime put back exactly as it was.
  fs.writeFileSync(rollouts, text.replace('"reward":1,', '"reward":0,'));
  fs.utimesSync(rollouts, mtimeMs / 1000, mtimeMs / 1000);
  const now = await outputSignatures(nodeFs, rollouts);
  assert.equal(now.rollouts!.size, before.rollouts!.size);
  assert.equal(now.rollouts!.mtime_ms, before.rollouts!.mtime_ms);
  assert.notEqual(now.rollouts!.head_sha256, before.rollouts!.head_sha256);

  const { document, problems } = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before });
  assert.deepEqual(document.stale_files, { materialized_inputs: 'rollouts_materialized_inputs.jsonl' });
  assert.equal(document.files.rollouts, 'rollouts.jsonl');
  assert.deepEqual(document.tasks[0].repeats.map((r) => [r.outcome, r.reward]), [['scored', 0]]);
  assert.equal(problems.filter((p) => p.code === 'stale-file').length, 1);
});

test('rule 10: each stale output is one warning naming it; rule 11: a rows sidecar as new as the rows is this run\'s', async () => {
  const dir = tmpDir('stale-words');
  const rollouts = posix(buildRun(dir, { tasks: [TASK] }));
  const before = await outputSignatures(nodeFs, rollouts);
  const { problems } = await buildRunSummary(nodeFs, rollouts, { beforeDispatch: before });
  assert.deepEqual(problems.filter((p) => p.code === 'stale-file').map((p) => [p.file.slice(posix(dir).length + 1), p.severity, p.message]),
    ['rollouts.jsonl', 'rollouts_failures.jsonl', 'rollouts_materialized_inputs.jsonl'].map((name) => [name, 'warning',
      `${name} is unchanged since before dispatch: an earlier run left it, its rows are not read`]));
  assert.equal((await files({}, (d) => setMtime(path.join(d, 'tasks_metrics.json'), T0 - 300))).rows_metrics, 'tasks_metrics.json',
    'written in the same second as the rows');
});

test('rules 8–10: a folder where a run file is expected is no file', async () => {
  const got = await files({}, (d) => {
    for (const name of ['rollouts_failures.jsonl', 'rollouts_materialized_inputs.jsonl', 'tasks_metrics.json']) {
      fs.rmSync(path.join(d, name), { force: true });
      fs.mkdirSync(path.join(d, name));
    }
  });
  assert.deepEqual([got.failures, got.materialized_inputs, got.rows_metrics], [null, null, null]);
});
