// The writer on rows at the edges of what the rules say: rows that name no task or repeat, plain-string task ids,
// rows without a task index, and the caps on how many problems one file (50) and missing_paths (200) list.
// Each expected value is written by hand from the rules (docs/run-summary.md), not taken from the writer.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { buildRunSummary } from '../../../src/core/summary';
import { buildRun, type MiniRepeat } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const NO_PATHS = { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [] };

function row(fields: Record<string, unknown>): string {
  return JSON.stringify({ reward: 1.0, mask_sample: false, failure_kind: null, failure_reason: null, verifier_logs_dir: null,
    verifier_mode: 'shared', ...fields });
}

test('rows that name no task id or no repeat are left out with a warning at their line; the rest are read', async () => {
  const dir = posix(tmpDir('noid'));
  fs.writeFileSync(`${dir}/r.jsonl`, [
    row({ _ng_task_id: { taskset: 't', task_id: 'a' }, _ng_task_index: 0, _ng_rollout_index: 0 }),
    row({ _ng_task_id: { taskset: 't', task_id: 'a' }, _ng_task_index: 0 }), // no repeat
    row({ _ng_rollout_index: 1 }), // no task id, no task index
    row({ _ng_task_id: { taskset: 't' }, _ng_rollout_index: 2 }), // an id object without task_id
    row({ _ng_task_id: 7, _ng_rollout_index: 3 }), // a task id that is a number
    row({ _ng_task_id: 'a', _ng_task_index: 0, _ng_rollout_index: 1.5 }), // a repeat that is not an integer
  ].join('\n') + '\n');
  const { document, problems } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => r.repeat)]), [['a', [0]]]);
  const left = problems.filter((p) => p.code === 'row-without-identity');
  assert.deepEqual(left.map((p) => [p.file, p.line, p.severity]), [2, 3, 4, 5, 6].map((n) => [`${dir}/r.jsonl`, n, 'warning']));
  assert.equal(left[0].message, 'line 2 names no repeat (no whole-number _ng_rollout_index): left out');
  assert.equal(left[1].message, 'line 3 names no task (no task id, no _ng_task_index): left out');
  // A task id that is there but not a string or an id object is not replaced by anything else.
  assert.equal(left[3].message, 'line 5 names no task (no task id, no _ng_task_index): left out');
});

test('rows of an environment that writes no task id (as NeMo Gym\'s blackjack): the task index names the task', async () => {
  const dir = posix(tmpDir('indexid'));
  const gym = (fields: Record<string, unknown>): string => JSON.stringify({ reward: 1.0, terminated: true, truncated: false, ...fields });
  fs.writeFileSync(`${dir}/r_materialized_inputs.jsonl`, [
    JSON.stringify({ responses_create_params: { input: [] }, _ng_task_index: 1, _ng_rollout_index: 0 }),
    JSON.stringify({ responses_create_params: { input: [] }, _ng_task_index: 1, _ng_rollout_index: 1 }),
    JSON.stringify({ responses_create_params: { input: [] }, _ng_task_index: 0, _ng_rollout_index: 0 }),
  ].join('\n') + '\n');
  fs.writeFileSync(`${dir}/r.jsonl`, [
    gym({ _ng_task_index: 1, _ng_rollout_index: 1, reward: -1.0 }),
    gym({ _ng_task_index: 0, _ng_rollout_index: 0 }),
    gym({ _ng_task_index: -1, _ng_rollout_index: 0 }), // a negative index names no task
    gym({ _ng_task_index: 2.5, _ng_rollout_index: 0 }), // nor does a fraction
  ].join('\n') + '\n');
  const { document, problems } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  // The schedule (materialized inputs) selects three repeats of two tasks; task 1's repeat 0 has no row.
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.task_index, t.repeats.map((r) => [r.repeat, r.outcome, r.reward])]), [
    ['0', 0, [[0, 'scored', 1]]],
    ['1', 1, [[0, 'missing', null], [1, 'scored', -1]]],
  ]);
  assert.deepEqual(problems.filter((p) => p.code === 'row-without-identity').map((p) => [p.file, p.line]),
    [[`${dir}/r.jsonl`, 3], [`${dir}/r.jsonl`, 4]]);
});

test('a plain-string task id is the task; a row without a task index comes after the indexed tasks, in file order', async () => {
  const dir = posix(tmpDir('plainid'));
  fs.writeFileSync(`${dir}/r.jsonl`, [
    row({ _ng_task_id: 'late', _ng_rollout_index: 0, reward: 0.25 }),
    row({ _ng_task_id: { taskset: 't', task_id: 'b' }, _ng_task_index: 5, _ng_rollout_index: 0 }),
    row({ _ng_task_id: 'later', _ng_rollout_index: 0 }),
    row({ _ng_task_id: { taskset: 't', task_id: 'a' }, _ng_task_index: 2, _ng_rollout_index: 1 }),
    row({ _ng_task_id: { taskset: 't', task_id: 'a' }, _ng_task_index: 2, _ng_rollout_index: 0, reward: 0.5 }),
  ].join('\n') + '\n');
  const { document } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.task_index, t.repeats.map((r) => [r.repeat, r.reward])]), [
    ['a', 2, [[0, 0.5], [1, 1]]],
    ['b', 5, [[0, 1]]],
    ['late', null, [[0, 0.25]]],
    ['later', null, [[0, 1]]],
  ]);
  // The taskset of the rows' id objects names the run when nothing else does; a plain id names none.
  assert.equal(document.taskset, 't');
});

test('one file lists at most 50 problems, then one line says how many more', async () => {
  const dir = tmpDir('cap50');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  fs.appendFileSync(rollouts, 'not json\n'.repeat(53));
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  assert.deepEqual(document.tasks[0].repeats.map((r) => r.outcome), ['scored']);
  const mine = problems.filter((p) => p.file === rollouts);
  assert.equal(mine.length, 51);
  assert.deepEqual(mine.slice(0, 50).map((p) => [p.line, p.code]), Array.from({ length: 50 }, (_, i) => [i + 2, 'parse-error']));
  assert.deepEqual(mine[50], { file: rollouts, severity: 'warning', code: 'more-problems',
    message: `3 more problems in ${rollouts} not listed` });
  // Exactly 50: no "more" line.
  const dir2 = tmpDir('cap50b');
  const r2 = posix(buildRun(dir2, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  fs.appendFileSync(r2, 'not json\n'.repeat(50));
  const second = (await buildRunSummary(nodeFs, r2)).problems.filter((p) => p.file === r2);
  assert.deepEqual(second.map((p) => p.code), Array(50).fill('parse-error'));
});

test('missing_paths lists every gone folder; the first 200 are problems at their index, then one says how many more', async () => {
  const dir = tmpDir('cap200');
  const gone: MiniRepeat = { outcome: 'scored', folder: 'absent' };
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: Array.from({ length: 203 }, () => gone) }] }));
  const { document, problems } = await buildRunSummary(nodeFs, rollouts);
  const expected = Array.from({ length: 203 }, (_, r) => `verifier/s-0-${r}`);
  assert.deepEqual(document.missing_paths, expected);
  assert.deepEqual(document.tasks[0].repeats.map((r) => r.missing), expected.map((m) => [m]));
  const listed = problems.filter((p) => p.code === 'missing-path');
  assert.deepEqual(listed.map((p) => p.jsonPath), Array.from({ length: 200 }, (_, i) => ['missing_paths', i]));
  assert.equal(listed[199].message, 'task a repeat 199 names verifier/s-0-199, which is not on disk');
  const summary = `${posix(dir)}/rollouts_run_summary.json`;
  assert.ok(listed.every((p) => p.file === summary && p.severity === 'warning'));
  assert.deepEqual(problems.filter((p) => p.code === 'more-problems'), [{ file: summary, severity: 'warning', code: 'more-problems',
    message: '3 more missing paths (see missing_paths)' }]);
});

test('a repeat with no verifier folder named has every path null and nothing missing, whatever its outcome', async () => {
  const dir = tmpDir('nopaths');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [
    { outcome: 'scored', folder: 'none', mode: 'separate' }, { outcome: 'failed' }, { outcome: 'missing' },
  ] }] }));
  const { document } = await buildRunSummary(nodeFs, rollouts);
  for (const r of document.tasks[0].repeats) {
    assert.deepEqual({ verifier_logs: r.verifier_logs, test_stdout: r.test_stdout, reward_file: r.reward_file,
      trajectory: r.trajectory, artifacts: r.artifacts, missing: r.missing }, NO_PATHS);
  }
});

test('the input of a repeat: digests are the task_data keys naming a digest; metadata per turn, per step, or none', async () => {
  const dir = posix(tmpDir('inputs'));
  const mat = (id: string, index: number, taskInput: unknown) => JSON.stringify({
    task_id: { taskset: 't', task_id: id }, task_input: taskInput, task_source: 'src', _ng_task_index: index, _ng_rollout_index: 0 });
  const meta = (m: Record<string, unknown>) => ({ input: [], metadata: m });
  fs.writeFileSync(`${dir}/r_materialized_inputs.jsonl`, [
    mat('one', 0, { responses_create_params: meta({ k: 1 }), task_data: { _ng_digest: 'd1', image_DIGEST: 'd2', other: 'x', n_digest: 5 } }),
    mat('list', 1, { responses_create_params: [meta({ turn: 'a' }), { input: [] }, 'junk'] }),
    mat('turns', 2, { turns: [{ responses_create_params: meta({ turn: 'x' }) }, { other: 1 }] }),
    mat('steps', 3, { steps: [{ responses_create_params: meta({ step: 1 }) }] }),
    mat('none', 4, { task_data: { digest: 'dd' } }),
    mat('scalar', 5, 42),
  ].join('\n') + '\n');
  const { document } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats[0].outcome, t.repeats[0].input]), [
    ['one', 'missing', { digests: { _ng_digest: 'd1', image_DIGEST: 'd2' }, metadata: [{ k: 1 }] }],
    ['list', 'missing', { digests: {}, metadata: [{ turn: 'a' }, {}, {}] }],
    ['turns', 'missing', { digests: {}, metadata: [{ turn: 'x' }, {}] }],
    ['steps', 'missing', { digests: {}, metadata: [{ step: 1 }] }],
    ['none', 'missing', { digests: { digest: 'dd' }, metadata: [] }],
    ['scalar', 'missing', { digests: {}, metadata: [] }],
  ]);
  // The run's digests come from the schedule's `_ng_digest` (only task "one" has one); the label from its first row.
  assert.deepEqual(document.dataset.digests, { one: 'd1' });
  assert.equal(document.task_source, 'src');
  assert.equal(document.taskset, 't');
});

test('a result row without a materialized input carries its own metadata as the input; a failure row carries none', async () => {
  const dir = posix(tmpDir('ownmeta'));
  fs.writeFileSync(`${dir}/r.jsonl`, row({ _ng_task_id: 'a', _ng_task_index: 0, _ng_rollout_index: 0,
    responses_create_params: { input: [], metadata: { agent_timeout_sec: '60.0' } } }) + '\n');
  fs.writeFileSync(`${dir}/r_failures.jsonl`, JSON.stringify({ _ng_task_id: 'a', _ng_task_index: 0, _ng_rollout_index: 1,
    _ng_failure_class: 'c', _ng_failure_stage: 's', _ng_failure_terminal: true, _ng_failure_message: 'm',
    failure_kind: 'k', verifier_mode: 'separate' }) + '\n');
  const { document } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document.tasks[0].repeats, [
    { repeat: 0, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null,
      verifier_mode: 'shared', ...NO_PATHS, input: { digests: {}, metadata: [{ agent_timeout_sec: '60.0' }] } },
    { repeat: 1, outcome: 'failed', reward: null, mask_sample: null, failure_kind: 'k', failure_reason: 'm',
      failure_class: 'c', failure_stage: 's', failure_terminal: true, verifier_mode: 'separate', ...NO_PATHS,
      input: { digests: {}, metadata: [] } },
  ]);
});

test('progress: reported each time another 4 MiB of the run\'s rows is read, then once at the total', async () => {
  const dir = tmpDir('progress');
  const big: MiniRepeat = { outcome: 'scored', folder: 'none', padBytes: 1 << 20 };
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [big, big, big, big] }] }));
  const seen: [number, number][] = [];
  await buildRunSummary(nodeFs, rollouts, { onProgress: (a, b) => seen.push([a, b]) });
  // The materialized inputs are read first (small), then the rollouts' lines (each about 3 MiB: the pad is in three places).
  const mat = fs.statSync(rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl')).size;
  const lines = fs.readFileSync(rollouts, 'utf8').split('\n').slice(0, -1).map((l) => Buffer.byteLength(l) + 1);
  const total = mat + lines.reduce((a, b) => a + b, 0);
  assert.ok(lines.every((n) => n > 3 << 20 && n < 4 << 20), `${lines}`);
  let read = mat;
  const want: [number, number][] = [];
  let last = 0;
  for (const n of lines) { read += n; if (read - last >= 4 << 20) { last = read; want.push([read, total]); } }
  want.push([total, total]);
  // Four lines of 3+ MiB (under the row workers' 16 MiB): reports after the 2nd and the 4th line (6+ MiB since), and at the total.
  assert.equal(want.length, 3);
  assert.deepEqual(seen, want);
});

test('a model run given unvalidated tasks drops them with one warning naming the first five', async () => {
  const dir = tmpDir('unvalidated');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] }] }));
  const six = Object.fromEntries(['p', 'q', 'r', 's', 't', 'u'].map((id) => [id, 'NO_REFERENCE_SOLUTION']));
  const run = (unvalidated: Record<string, string>) => buildRunSummary(nodeFs, rollouts, { unvalidated, identity: { agent: 'my_model' } });
  const a = await run(six);
  assert.deepEqual(a.document.unvalidated, {});
  assert.deepEqual(a.problems.filter((p) => p.code === 'unvalidated-in-model-run').map((p) => [p.severity, p.message]), [['warning',
    'a model run (agent my_model) validates none: the 6 unvalidated task(s) the caller names are not this run\'s (p, q, r, s, t, …)']]);
  const { u: _u, ...five } = six;
  const b = await run(five);
  assert.equal(b.problems.find((p) => p.code === 'unvalidated-in-model-run')?.message,
    'a model run (agent my_model) validates none: the 5 unvalidated task(s) the caller names are not this run\'s (p, q, r, s, t)');
  // The reference agent keeps them (no rows of theirs in this run).
  const c = await buildRunSummary(nodeFs, rollouts, { unvalidated: five, identity: { agent: 'oracle_agent' } });
  assert.deepEqual(c.document.unvalidated, five);
  assert.deepEqual(c.problems.filter((p) => p.code.startsWith('unvalidated')), []);
});
