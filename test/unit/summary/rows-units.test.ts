// The row reader's pieces called directly (rules 3–5 at the record level): the selection's keys, what a result row's
// fields read as when their types are wrong, the 64 folders kept for the root guess, the prefetch handed every folder,
// un-expanded inputs, the prepared rows' identity, cancelling, and what an unreadable file is. Expected records
// written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { inputOf, preparedIdentity, readRows, readSchedule, readUnexpanded, Selection, UnreadableRunFile,
  type RowsSummary, type ScanContext } from '../../../src/core/summary/rows';
import { nodeFs, posix, tmpDir } from './helpers';

const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
const ctxOf = (problems: Problem[], extra: Partial<ScanContext> = {}): ScanContext => ({ fs: nodeFs, problems, rowWorkers: 0, ...extra });
const acc = (): RowsSummary => ({ taskSources: new Set(), rows: 0, notSelected: 0, taskIndexes: new Set() });

test('Selection: a task is found by its index first, else by its id; the first record of an id keeps it', () => {
  const sel = new Selection();
  const a0 = sel.task('a', 0, 'ts');
  sel.repeat('a', 0, 3, 'ts', true);
  assert.equal(sel.task('a', 0, 'ts'), a0);
  assert.deepEqual([...a0.repeats.keys()], [3]);
  sel.task('b', null, null);
  // The same id under another index is the task already selected.
  assert.equal(sel.task('a', 1, null), a0);
  sel.task('c', 2, null);
  assert.deepEqual([...sel.tasks.keys()], ['i:0', 't:b', 'i:2']);
  assert.deepEqual([...sel.tasks.values()].map((t) => [t.taskId, t.taskIndex, t.order]), [['a', 0, 0], ['b', null, 1], ['c', 2, 2]]);
  assert.equal(sel.key('other', 0), 'i:0');
  assert.equal(sel.key('a', null), 'i:0');
  assert.equal(sel.key('a', 7), 'i:0');
  assert.equal(sel.key('b', 9), 't:b');
  assert.equal(sel.key('d', null), undefined);
  // Without `create` nothing is added.
  assert.equal(sel.repeat('z', null, 0, null, false), undefined);
  assert.equal(sel.repeat('a', 0, 9, null, false), undefined);
  assert.deepEqual([...sel.tasks.keys()], ['i:0', 't:b', 'i:2']);
  assert.deepEqual([...a0.repeats.keys()], [3]);
});

test('readRows: a field of the wrong type reads as null; -0 as 0; ids as {taskset, task_id} or a string only', async () => {
  const d = posix(tmpDir('rows-types'));
  fs.writeFileSync(`${d}/r.jsonl`, jsonl([
    // JSON.stringify writes -0 as 0: the line is written with -0 by hand.
    JSON.stringify({ _ng_task_id: { taskset: 'ts', task_id: 'a' }, _ng_task_index: 0, _ng_rollout_index: 0, reward: 0, mask_sample: 'yes',
      failure_kind: 5, failure_reason: ['x'], verifier_mode: null, verifier_logs_dir: 7, responses_create_params: { metadata: [1] }, task_source: 5 })
      .replace('"reward":0', '"reward":-0'),
    { _ng_task_id: { taskset: 5, task_id: 'b' }, _ng_task_index: 1, _ng_rollout_index: 0, reward: '1', mask_sample: true,
      responses_create_params: { metadata: 'text' }, task_source: 'src' },
    { _ng_task_id: 'c', _ng_task_index: 2, _ng_rollout_index: 0, reward: 0.5, responses_create_params: 'text' },
    { _ng_task_id: null, _ng_rollout_index: 0 },
    { _ng_task_id: { task_id: 5 }, _ng_rollout_index: 0 },
    '',
    { _ng_task_id: 'c', _ng_task_index: 2, _ng_rollout_index: 1, responses_create_params: { metadata: { k: 'v' } } },
  ]));
  const problems: Problem[] = [];
  const sel = new Selection();
  const a = acc();
  await readRows(ctxOf(problems), `${d}/r.jsonl`, 'result', sel, true, a, new Set());
  const results = [...sel.tasks.values()].flatMap((t) => [...t.repeats.values()].map((r) => [t.taskId, t.taskset, r.repeat, r.result]));
  assert.deepEqual(results, [
    ['a', 'ts', 0, { reward: 0, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null, logsDir: null, metadata: null }],
    ['b', null, 0, { reward: null, mask_sample: true, failure_kind: null, failure_reason: null, verifier_mode: null, logsDir: null, metadata: null }],
    ['c', null, 0, { reward: 0.5, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null, logsDir: null, metadata: null }],
    ['c', null, 1, { reward: null, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null, logsDir: null, metadata: { k: 'v' } }],
  ]);
  assert.ok(Object.is((results[0][3] as { reward: number }).reward, 0), '-0 reads as 0');
  assert.equal(a.rows, 4);
  assert.deepEqual([...a.taskSources], ['src']);
  assert.deepEqual(problems.map((p) => [p.line, p.code]), [[4, 'row-without-identity'], [5, 'row-without-identity']]);
});

test('readRows: 64 folders kept for the root guess; every folder handed to the prefetch; failures name none', async () => {
  const d = posix(tmpDir('rows-dirs'));
  const rows = Array.from({ length: 70 }, (_, i) => ({ _ng_task_id: `t${i}`, _ng_task_index: i, _ng_rollout_index: 0, reward: 1, verifier_logs_dir: `/v/s${i}` }));
  fs.writeFileSync(`${d}/r.jsonl`, jsonl([...rows, { _ng_task_id: 't0', _ng_task_index: 0, _ng_rollout_index: 1, verifier_logs_dir: '' }]));
  const added: string[] = [];
  const logDirs = new Set<string>();
  await readRows(ctxOf([]), `${d}/r.jsonl`, 'result', new Selection(), true, acc(), logDirs, { add: (p) => added.push(p) });
  assert.deepEqual([...logDirs], rows.slice(0, 64).map((r) => r.verifier_logs_dir));
  assert.deepEqual(added, rows.map((r) => r.verifier_logs_dir));
  // Without a prefetch (the failures file) the folders are still kept.
  const again = new Set<string>();
  await readRows(ctxOf([]), `${d}/r.jsonl`, 'result', new Selection(), true, acc(), again);
  assert.equal(again.size, 64);
});

test('readRows: a reward that is not a number is no "out of range" warning', async () => {
  const d = posix(tmpDir('rows-reward'));
  fs.writeFileSync(`${d}/r.jsonl`, jsonl([{ _ng_task_id: 'a', _ng_rollout_index: 0, reward: 'inf' }, '{"_ng_task_id": "b", "_ng_rollout_index": 0, "reward": 1e400}']));
  const problems: Problem[] = [];
  await readRows(ctxOf(problems), `${d}/r.jsonl`, 'result', new Selection(), true, acc(), new Set());
  assert.deepEqual(problems.map((p) => [p.line, p.code]), [[2, 'number-out-of-range']]);
});

test('scanning: a cancel is checked every 256 lines and ends the read with its reason; a file that cannot be read', async () => {
  const d = posix(tmpDir('rows-cancel'));
  fs.writeFileSync(`${d}/r.jsonl`, jsonl(Array.from({ length: 600 }, (_, i) => ({ _ng_task_id: `t${i}`, _ng_rollout_index: 0 }))));
  // Not cancelled: every line read (no signal at all, too).
  const sel = new Selection();
  await readRows(ctxOf([]), `${d}/r.jsonl`, 'result', sel, true, acc(), new Set());
  assert.equal(sel.tasks.size, 600);
  await readRows(ctxOf([], { signal: new AbortController().signal }), `${d}/r.jsonl`, 'result', new Selection(), true, acc(), new Set());
  const ac = new AbortController();
  const reason = new Error('stop');
  ac.abort(reason);
  const problems: Problem[] = [];
  const cancelled = new Selection();
  await assert.rejects(readRows(ctxOf(problems, { signal: ac.signal }), `${d}/r.jsonl`, 'result', cancelled, true, acc(), new Set()), (e) => e === reason);
  assert.equal(cancelled.tasks.size, 255, 'lines 1-255 read, stopped at line 256');
  assert.deepEqual(problems, []);
  // A folder where the file is expected: one error Problem; fatal for rows and schedules, not for un-expanded inputs.
  fs.mkdirSync(`${d}/folder.jsonl`);
  const unreadable = (ps: Problem[]) => ps.map((p) => [p.file, p.severity, p.code, p.message.startsWith(`cannot read ${d}/folder.jsonl: `)]);
  const p1: Problem[] = [];
  await assert.rejects(readRows(ctxOf(p1), `${d}/folder.jsonl`, 'result', new Selection(), true, acc(), new Set()),
    (e) => e instanceof UnreadableRunFile && e.file === `${d}/folder.jsonl`);
  assert.deepEqual(unreadable(p1), [[`${d}/folder.jsonl`, 'error', 'unreadable', true]]);
  const p2: Problem[] = [];
  await assert.rejects(readSchedule(ctxOf(p2), `${d}/folder.jsonl`, new Selection()), UnreadableRunFile);
  const p3: Problem[] = [];
  await readUnexpanded(ctxOf(p3), `${d}/folder.jsonl`, new Selection(), 1);
  assert.deepEqual(unreadable(p3), [[`${d}/folder.jsonl`, 'error', 'unreadable', true]]);
});

test('a line over the read limit (and over two 4 MiB read chunks) is one error naming its size and the limit', async () => {
  const d = posix(tmpDir('rows-long'));
  const long = JSON.stringify({ _ng_task_id: 'b', _ng_rollout_index: 0, pad: 'x'.repeat(9 << 20) });
  fs.writeFileSync(`${d}/r.jsonl`, jsonl([{ _ng_task_id: 'a', _ng_rollout_index: 0 }, long]));
  const small = Object.assign(Object.create(nodeFs) as FsPort, { maxFileBytes: 100 });
  const problems: Problem[] = [];
  const sel = new Selection();
  await readRows(ctxOf(problems, { fs: small }), `${d}/r.jsonl`, 'result', sel, true, acc(), new Set());
  assert.deepEqual([...sel.tasks.values()].map((t) => t.taskId), ['a']);
  assert.deepEqual(problems.map((p) => [p.line, p.severity, p.code, p.message]), [[2, 'error', 'too-large',
    `line 2 is ${long.length} bytes, over the 100-byte limit of one line (harborRuns.maxFileSizeMB): left out`]]);
});

test('readSchedule: a row without identity is left out with its warning; a row without task_input has an empty input', async () => {
  const d = posix(tmpDir('schedule'));
  fs.writeFileSync(`${d}/m.jsonl`, jsonl([{ task_id: 'a', _ng_task_index: 0, _ng_rollout_index: 0, task_source: 's' }, { task_id: 'b' },
    { task_id: 'c', _ng_task_index: 1, _ng_rollout_index: 0, task_input: { task_data: { x_digest: 'd' } } }]));
  const problems: Problem[] = [];
  const sel = new Selection();
  assert.equal(await readSchedule(ctxOf(problems), `${d}/m.jsonl`, sel), 's');
  assert.deepEqual([...sel.tasks.values()].map((t) => [t.taskId, [...t.repeats.values()].map((r) => r.input)]),
    [['a', [{ digests: {}, metadata: [] }]], ['c', [{ digests: { x_digest: 'd' }, metadata: [] }]]]);
  assert.deepEqual(problems.map((p) => [p.line, p.code]), [[2, 'row-without-identity']]);
});

test('readUnexpanded: one task per distinct id, its taskset when a string, `repeats` each', async () => {
  const d = posix(tmpDir('unexpanded'));
  fs.writeFileSync(`${d}/rows.jsonl`, jsonl([{ task_id: { taskset: 'ts', task_id: 'a' } }, { task_id: { taskset: 5, task_id: 'b' }, _ng_task_index: 7 },
    { task_id: { taskset: 'other', task_id: 'a' }, _ng_task_index: 3 }, { task_id: 'c' }, { no: 'id' }]));
  const sel = new Selection();
  await readUnexpanded(ctxOf([]), `${d}/rows.jsonl`, sel, 2);
  assert.deepEqual([...sel.tasks.values()].map((t) => [t.taskId, t.taskIndex, t.taskset, [...t.repeats.keys()]]),
    [['a', 0, 'ts', [0, 1]], ['b', 7, null, [0, 1]], ['c', 2, null, [0, 1]]]);
});

test('inputOf: metadata per turn or step, {} for a turn that is not an object', () => {
  assert.deepEqual(inputOf({ turns: [5, { responses_create_params: { metadata: { a: 1 } } }, { responses_create_params: 'x' }] }),
    { digests: {}, metadata: [{}, { a: 1 }, {}] });
  assert.deepEqual(inputOf({ steps: [null] }), { digests: {}, metadata: [{}] });
});

test('preparedIdentity: the first string taskset; digests of rows that name a task id', async () => {
  const d = posix(tmpDir('prepared'));
  fs.writeFileSync(`${d}/rows.jsonl`, jsonl([{ task_id: 'plain', task_input: { task_data: { _ng_digest: 'd0' } } },
    { task_id: { taskset: 5, task_id: 'x' } }, { task_id: 7, task_input: { task_data: { _ng_digest: 'dn' } } },
    { task_id: { taskset: 'ts1', task_id: 'b' }, task_input: { task_data: { _ng_digest: 'd1' } } }, 'not json',
    { task_id: { taskset: 'ts2', task_id: 'c' } }]));
  assert.deepEqual(await preparedIdentity(ctxOf([]), `${d}/rows.jsonl`), { digests: { plain: 'd0', b: 'd1' }, taskset: 'ts1' });
});

test('a byte order mark is skipped only at the start of the file; a cut-off last line without an identity says just that', async () => {
  const d = posix(tmpDir('rows-bom'));
  fs.writeFileSync(`${d}/r.jsonl`, '{"_ng_task_id": "a", "_ng_rollout_index": 0}\n\ufeff{"_ng_task_id": "b", "_ng_rollout_index": 0}\n{"_ng_');
  const problems: Problem[] = [];
  const sel = new Selection();
  await readRows(ctxOf(problems), `${d}/r.jsonl`, 'result', sel, true, acc(), new Set());
  assert.deepEqual([...sel.tasks.values()].map((t) => t.taskId), ['a']);
  assert.deepEqual(problems.map((p) => [p.line, p.severity, p.code, p.code === 'parse-error' ? '' : p.message]), [
    [2, 'error', 'parse-error', ''],
    [3, 'warning', 'incomplete-tail', 'line 3 is cut off (no newline at the end of the file: a killed run, or one still writing): left out'],
  ]);
});
