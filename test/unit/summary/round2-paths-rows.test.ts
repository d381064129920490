// Round 2 of the writer (items 6–9): folders resolved before `..`, promised files, what was skipped over (a cut-off
// last row, two rows for one repeat, an unreadable rollouts file), and a resumed run after a fresh start that died.
// Each test states the whole expected document by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FsPort } from '../../../src/core/fs/port';
import { buildRunSummary, outputSignatures, writeRunSummary } from '../../../src/core/summary';
import { run as signaturesCli } from '../../../src/cli/commands/signatures';
import { buildRun, T0 } from './builders';
import { nodeFs, posix, readJson, setMtime, tmpDir } from './helpers';

const META = [{ agent_timeout_sec: '900.0' }];
const input = (id: string) => ({ digests: { _ng_digest: `d-${id}` }, metadata: META });
const NO_PATHS = { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };
const FILES = {
  rollouts: 'rollouts.jsonl', failures: null, materialized_inputs: 'rollouts_materialized_inputs.jsonl',
  aggregate_metrics: 'rollouts_aggregate_metrics.json', rows: 'tasks.jsonl', rows_prepare: 'tasks_prepare.jsonl',
  rows_metrics: 'tasks_metrics.json', collated: 'rollouts/preprocessed_datasets/validation.jsonl',
  collated_metrics: 'rollouts/preprocessed_datasets/validation_metrics.json', run_config: null,
  quality_summary: 'quality_summary.json', rollout_verdicts: 'rollout_verdicts.jsonl',
};
const NO_FILES = Object.fromEntries(Object.keys(FILES).map((k) => [k, null]));
const LABEL = 'harbor_mini_resources_server';
const head = (digests: Record<string, string>) => ({
  schema_version: 1, target: null, taskset: 'mini', agent: null,
  dataset: { source: null, name: null, version: null, folder: null, digests }, task_source: LABEL, result_task_source: LABEL,
});
const quiet = async <T>(f: () => Promise<T>): Promise<T> => {
  const w = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try { return await f(); } finally { process.stderr.write = w; }
};

test('item 6: a verifier folder named through link/.. is the one the link leads to, not the text collapsed', async () => {
  const dir = posix(tmpDir('item6'));
  fs.mkdirSync(`${dir}/real/inner`, { recursive: true });
  fs.mkdirSync(`${dir}/real/verifier/s1`, { recursive: true });
  fs.writeFileSync(`${dir}/real/verifier/s1/test-stdout.txt`, 'ok');
  fs.writeFileSync(`${dir}/real/verifier/s1/reward.txt`, '1');
  // The decoy a textual collapse would report: <dir>/verifier/s1, holding nothing the row's verification wrote.
  fs.mkdirSync(`${dir}/verifier/s1`, { recursive: true });
  fs.symlinkSync(`${dir}/real/inner`, `${dir}/link`);
  fs.writeFileSync(`${dir}/r.jsonl`, `${JSON.stringify({
    _ng_task_id: { taskset: 'mini', task_id: 'a' }, _ng_task_index: 0, _ng_rollout_index: 0, reward: 1.0, mask_sample: false,
    failure_kind: null, failure_reason: null, verifier_logs_dir: `${dir}/link/../verifier/s1`, verifier_mode: 'shared',
  })}\n`);
  const { document } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document, {
    ...head({}), task_source: null, result_task_source: null,
    files: { ...NO_FILES, rollouts: 'r.jsonl' },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [{ task_id: 'a', task_index: 0, repeats: [{
      repeat: 0, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
      verifier_logs: 'real/verifier/s1', test_stdout: 'real/verifier/s1/test-stdout.txt', reward_file: 'real/verifier/s1/reward.txt',
      trajectory: null, artifacts: null, missing: [], input: { digests: {}, metadata: [] },
    }] }],
  });
});

test('item 7: test-stdout.txt (and a separate-mode artifacts/) gone from a folder that is there is missing', async () => {
  const dir = tmpDir('item7');
  const rollouts = buildRun(dir, { tasks: [{ id: 'a', repeats: [
    { outcome: 'scored', files: ['reward.txt', 'trajectory.json'] },
    { outcome: 'scored', mode: 'separate', files: ['test-stdout.txt', 'reward.json'] },
    { outcome: 'scored', failureKind: 'harbor:missing_reward', files: ['test-stdout.txt'] },
  ] }] });
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  const entry = (repeat: number, rest: Record<string, unknown>) => ({
    repeat, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
    ...NO_PATHS, verifier_logs: `verifier/s-0-${repeat}`, input: input('a'), ...rest,
  });
  assert.deepEqual(document, {
    ...head({ a: 'd-a' }), files: FILES, stale_files: {},
    missing_paths: ['verifier/s-0-0/test-stdout.txt', 'verifier/s-0-1/artifacts'], unvalidated: {}, skipped: {},
    tasks: [{ task_id: 'a', task_index: 0, repeats: [
      entry(0, { reward_file: 'verifier/s-0-0/reward.txt', trajectory: 'verifier/s-0-0/trajectory.json', missing: ['verifier/s-0-0/test-stdout.txt'] }),
      entry(1, { verifier_mode: 'separate', test_stdout: 'verifier/s-0-1/test-stdout.txt', reward_file: 'verifier/s-0-1/reward.json',
        missing: ['verifier/s-0-1/artifacts'] }),
      // No reward file, which the row's failure_kind already says; no trajectory (its export is optional).
      entry(2, { failure_kind: 'harbor:missing_reward', test_stdout: 'verifier/s-0-2/test-stdout.txt' }),
    ] }],
  });
});

test('item 8: a cut-off last row and a second row for one repeat are warnings naming file, line and task', async () => {
  const dir = tmpDir('item8');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'missing' }] }] }));
  const first = JSON.parse(fs.readFileSync(rollouts, 'utf8').split('\n')[0]) as Record<string, unknown>;
  // Line 2: the same repeat again (reward 0.5); line 3: repeat 1, cut off by a kill.
  fs.appendFileSync(rollouts, `${JSON.stringify({ ...first, reward: 0.5 })}\n`);
  fs.appendFileSync(rollouts, '{"_ng_task_id": {"taskset": "mini", "task_id": "a"}, "_ng_rollout_index": 1, "reward": 1.0, "response": {"outp');
  setMtime(rollouts, T0);
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(document, {
    ...head({ a: 'd-a' }), files: FILES, stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [{ task_id: 'a', task_index: 0, repeats: [
      { repeat: 0, outcome: 'scored', reward: 0.5, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
        ...NO_PATHS, input: input('a') },
      { repeat: 1, outcome: 'missing', reward: null, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null,
        ...NO_PATHS, input: input('a') },
    ] }],
  });
  const dup = problems.find((p) => p.code === 'duplicate-row');
  assert.deepEqual([dup?.file, dup?.line, dup?.severity], [rollouts, 2, 'warning']);
  assert.match(dup!.message, /task a repeat 0 \(the first is line 1\)/);
  const cut = problems.find((p) => p.code === 'incomplete-tail');
  assert.deepEqual([cut?.file, cut?.line, cut?.severity], [rollouts, 3, 'warning']);
  assert.match(cut!.message, /cut off .*\(task a repeat 1\)/);
});

test('item 8: an unreadable rollouts file is an error naming it: nothing is written, the earlier summary stays', async () => {
  const dir = tmpDir('item8u');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  const summary = path.join(dir, 'rollouts_run_summary.json');
  fs.writeFileSync(summary, '{"earlier": true}\n');
  const eio = () => Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
  // (the tests run as root, where a chmod does not make a file unreadable: the disk error comes from the FsPort)
  const failing: FsPort = Object.assign(Object.create(nodeFs) as FsPort, {
    openSequential: async (p: string) => { if (p === rollouts) throw eio(); return nodeFs.openSequential!(p); },
    readChunks: (p: string, n?: number) => {
      if (p === rollouts) return (async function* () { throw eio(); })();
      return nodeFs.readChunks(p, n);
    },
  });
  const res = await writeRunSummary(failing, rollouts);
  assert.match(res.error ?? '', /cannot read .*rollouts\.jsonl: EIO.*not written/);
  assert.equal(res.document, undefined);
  assert.ok(res.problems.some((p) => p.file === rollouts && p.code === 'unreadable' && p.severity === 'error'));
  assert.equal(fs.readFileSync(summary, 'utf8'), '{"earlier": true}\n');
});

test('item 9: a resumed run after a fresh start that died reads its own files, not the sidecar\'s "stale"', async () => {
  const dir = tmpDir('item9');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'failed' }] }] }));
  // The fresh start records its signatures, then dies before its servers are up: nothing changes.
  assert.equal(await quiet(() => signaturesCli([rollouts])), 0);
  const died = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(Object.keys(died.document.stale_files), ['rollouts', 'failures', 'materialized_inputs']);
  // The resume appends repeat 1's retry to the rollouts it resumed (the inputs and failures are its own too).
  const first = JSON.parse(fs.readFileSync(rollouts, 'utf8').split('\n')[0]) as Record<string, unknown>;
  fs.appendFileSync(rollouts, `${JSON.stringify({ ...first, _ng_rollout_index: 1, reward: 0.25 })}\n`);
  setMtime(rollouts, T0 + 1);
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  const entry = (repeat: number, reward: number) => ({
    repeat, outcome: 'scored', reward, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
    ...NO_PATHS, input: input('a'),
  });
  assert.deepEqual(document, {
    ...head({ a: 'd-a' }), files: { ...FILES, failures: 'rollouts_failures.jsonl', aggregate_metrics: 'rollouts_aggregate_metrics.json' },
    stale_files: {}, missing_paths: [], unvalidated: {}, skipped: {},
    tasks: [{ task_id: 'a', task_index: 0, repeats: [entry(0, 1), entry(1, 0.25)] }],
  });
  assert.ok(problems.some((p) => p.code === 'resumed' && p.severity === 'info'));

  // A resume that had nothing left to run appends nothing: the sidecar then records the resume itself.
  const idle = posix(buildRun(tmpDir('item9b'), { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  assert.equal(await quiet(() => signaturesCli([idle])), 0);
  assert.deepEqual(Object.keys((await buildRunSummary(nodeFs, idle)).document.stale_files), ['rollouts', 'materialized_inputs']);
  assert.equal(await quiet(() => signaturesCli([idle, '--resumed'])), 0);
  assert.equal((readJson(path.join(path.dirname(idle), 'rollouts_signatures.json')) as { resumed?: boolean }).resumed, true);
  assert.deepEqual((await buildRunSummary(nodeFs, idle)).document.stale_files, {});
  // Signatures the caller passes are a fresh start's by definition.
  assert.deepEqual(Object.keys((await buildRunSummary(nodeFs, idle, { beforeDispatch: await outputSignatures(nodeFs, idle) })).document.stale_files),
    ['rollouts', 'materialized_inputs']);
});
