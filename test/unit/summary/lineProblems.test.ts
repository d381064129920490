// What the writer says about odd lines of a run file, word for word: a byte order mark, bytes that are not UTF-8,
// a reward beyond a double, a value nested too deep, a broken row, a cut-off last row,
// and a failures file that cannot be read (the writer stops with an error naming it, rather than call its repeats missing). By hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import { buildRunSummary } from '../../../src/core/summary';
import { nodeFs, posix, tmpDir } from './helpers';

const id = (task: string, index: number, repeat: number) => ({ _ng_task_id: { taskset: 't', task_id: task }, _ng_task_index: index, _ng_rollout_index: repeat });
const row = (task: string, index: number, repeat: number, extra: Record<string, unknown> = {}) => JSON.stringify({
  ...id(task, index, repeat), reward: 1.0, mask_sample: false, failure_kind: null, failure_reason: null, verifier_logs_dir: null,
  verifier_mode: 'shared', ...extra });

test('each odd line of the rollouts is one problem at its line, in these words; the other rows are summarised', async () => {
  const dir = posix(tmpDir('lineprobs'));
  const file = `${dir}/r.jsonl`;
  const bad = Buffer.from(row('b', 1, 0, { failure_reason: 'X' })).toString('latin1').replace('"X"', '"\u00ff"');
  fs.writeFileSync(file, Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${row('a', 0, 0)}\n`),
    Buffer.from(`${bad}\n`, 'latin1'),
    Buffer.from(`${row('a', 0, 2).replace('"reward":1', '"reward":1e400')}\n`),
    Buffer.from(`{"_ng_task_id": "c", "reward": }\n`),
    Buffer.from(`${row('c', 2, 0)}\n`),
    Buffer.from('{"_ng_task_id": {"taskset": "t", "task_id": "c"}, "_ng_rollout_index": 1, "reward": 1.0, "resp'),
  ]));
  const { document, problems } = await buildRunSummary(nodeFs, file);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => [r.repeat, r.outcome, r.reward])]), [
    ['a', [[0, 'scored', 1], [2, 'scored', null]]], ['b', [[0, 'scored', 1]]], ['c', [[0, 'scored', 1]]],
  ]);
  const at = problems.filter((p) => p.file === file).map((p) => [p.line, p.severity, p.code, p.message]);
  assert.deepEqual(at.slice(0, 4), [
    [1, 'warning', 'bom', `${file} starts with a UTF-8 byte order mark: line 1 read without it`],
    [2, 'warning', 'invalid-utf8', 'line 2 holds bytes that are not UTF-8: they read as U+FFFD (\ufffd), so its task id and text are not what was written (task b repeat 0)'],
    [3, 'warning', 'number-out-of-range', 'line 3: the reward of task a repeat 2 is a number beyond what a double holds (it reads as Infinity): read as not measured'],
    [4, 'error', 'parse-error', at[3][3]],
  ]);
  assert.match(String(at[3][3]), /^line 4 is not a valid JSON object: ./);
  assert.deepEqual(at.slice(4), [[6, 'warning', 'incomplete-tail',
    'line 6 is cut off (no newline at the end of the file: a killed run, or one still writing) (task c repeat 1): left out']]);
});

// Found by mutation testing: the repeat of such a line used to be selected before the too-deep error, so the summary
// listed it as a missing repeat with an empty input while the problem said "left out".
test('a materialized row nested too deep to read is left out: its repeat is not selected, the other tasks are', async () => {
  const dir = posix(tmpDir('deep'));
  const mat = (task: string, index: number, input: string) =>
    `{"task_id": {"taskset": "t", "task_id": "${task}"}, "_ng_task_index": ${index}, "_ng_rollout_index": 0, "task_input": ${input}}`;
  const deep = `{"responses_create_params": {"metadata": ${'{"a": '.repeat(100_000)}1${'}'.repeat(100_000)}}}`;
  fs.writeFileSync(`${dir}/r_materialized_inputs.jsonl`, `${mat('a', 0, deep)}\n${mat('b', 1, '{}')}\n`);
  fs.writeFileSync(`${dir}/r.jsonl`, `${row('b', 1, 0)}\n`);
  const { document, problems } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => r.outcome)]), [['b', ['scored']]]);
  assert.deepEqual(problems.filter((p) => p.code === 'too-deep').map((p) => [p.file, p.line, p.severity, p.message]),
    [[`${dir}/r_materialized_inputs.jsonl`, 1, 'error', 'line 1 is nested too deep to read: left out']]);
});

test('a failures file that cannot be read: one error naming it, and the summary is not written from half the rows', async () => {
  const dir = posix(tmpDir('unreadable'));
  fs.writeFileSync(`${dir}/r.jsonl`, `${row('a', 0, 0)}\n`);
  fs.writeFileSync(`${dir}/r_failures.jsonl`, `${JSON.stringify({ ...id('a', 0, 1), _ng_failure_message: 'm' })}\n`);
  const failing: FsPort = Object.assign(Object.create(nodeFs) as FsPort, {
    openSequential: async (p: string) => { if (p.endsWith('_failures.jsonl')) throw new Error('EIO: i/o error'); return nodeFs.openSequential!(p); },
    readChunks: (p: string, n?: number) => (p.endsWith('_failures.jsonl') ? (async function* () { throw new Error('EIO: i/o error'); })() : nodeFs.readChunks(p, n)),
  });
  const problems: unknown[] = [];
  await assert.rejects(buildRunSummary(failing, `${dir}/r.jsonl`).catch((e: Error) => { problems.push(e.name); throw e; }),
    { name: 'UnreadableRunFile', message: `cannot read ${dir}/r_failures.jsonl: EIO: i/o error` });
  assert.deepEqual(problems, ['UnreadableRunFile']);
});

test('a picked key given twice in a row (the reward, the repeat): the last one is read, as JSON.parse does, and said at its line', async () => {
  const dir = posix(tmpDir('dupkey'));
  const file = `${dir}/r.jsonl`;
  const twice = row('a', 0, 0).replace('"reward":1', '"reward":1,"reward":0');
  const repeatTwice = row('b', 1, 0).replace('"_ng_rollout_index":0', '"_ng_rollout_index":0,"_ng_rollout_index":1');
  // A key the writer does not pick, given twice, is not its concern (nor read).
  const other = row('c', 2, 0, { extra: 1 }).replace('"extra":1', '"extra":1,"extra":2');
  fs.writeFileSync(file, `${twice}\n${repeatTwice}\n${other}\n`);
  const { document, problems } = await buildRunSummary(nodeFs, file);
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => [r.repeat, r.reward])]), [
    ['a', [[0, 0]]], ['b', [[1, 1]]], ['c', [[0, 1]]],
  ]);
  assert.deepEqual(problems.filter((p) => p.code === 'duplicate-key').map((p) => [p.file, p.line, p.severity, p.message]), [
    [file, 1, 'warning', 'line 1 gives the key "reward" twice in one object: the last one is read'],
    [file, 2, 'warning', 'line 2 gives the key "_ng_rollout_index" twice in one object: the last one is read'],
  ]);
});
