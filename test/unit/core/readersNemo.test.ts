// Pieces of the NeMo Gym run reader (src/core/readers/nemo/) called directly: the health check's verdict rows by task
// and repeat (a multi-stage repeat takes its worst verdict and every check named), and the kind of evidence a path
// the summary lists as missing is.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readVerdicts, verdictKey } from '../../../src/core/readers/nemo/verdicts';
import { kindOfName } from '../../../src/core/readers/nemo/repeatEvidence';
import { bool, fileLabel, isObj, normFiles, normNamed, normStale, normTasks, num, str } from '../../../src/core/readers/nemo/summaryShape';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-nemo-units-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const node = new NodeFs();
let counter = 0;

async function verdictsOf(rows: (object | string)[]) {
  const file = `${tmpRoot}/verdicts-${++counter}.jsonl`;
  fs.writeFileSync(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  const got = await readVerdicts(node, file);
  return { file, byKey: Object.fromEntries(got.byKey), problems: got.problems };
}

test('verdict rows: keyed task:repeat; an unhealthy row names its failed checks, an unobserved one the checks without input, a healthy one none', async () => {
  assert.equal(verdictKey(3, 0), '3:0');
  const { byKey, problems } = await verdictsOf([
    { _ng_task_index: 0, _ng_rollout_index: 0, verdict: 'healthy', findings: [{ check: 'x' }], unobserved: ['y'] },
    { _ng_task_index: 0, _ng_rollout_index: 1, verdict: 'unhealthy', findings: [{ check: 'reward-range' }, { check: 7 }, null, 'loose', { check: 'tool-errors' }], unobserved: ['z'] },
    { _ng_task_index: 1, _ng_rollout_index: 0, verdict: 'unobserved', findings: [{ check: 'a' }], unobserved: ['turns', 3, 'tokens'] },
    { _ng_task_index: 1, _ng_rollout_index: 1, verdict: 'unhealthy', findings: 'none' },
    { _ng_task_index: 2, _ng_rollout_index: 0, verdict: 'unobserved', unobserved: 'turns' },
  ]);
  assert.deepEqual(byKey, {
    '0:0': { verdict: 'healthy', checks: [] },
    '0:1': { verdict: 'unhealthy', checks: ['reward-range', 'tool-errors'] },
    '1:0': { verdict: 'unobserved', checks: ['turns', 'tokens'] },
    '1:1': { verdict: 'unhealthy', checks: [] },
    '2:0': { verdict: 'unobserved', checks: [] },
  });
  assert.deepEqual(problems, []);
});

test('a multi-stage repeat: the worst verdict of its rows (unhealthy over unobserved over healthy), every check named once', async () => {
  const row = (stage: number, verdict: string, extra: object = {}) => ({ _ng_task_index: 4, _ng_rollout_index: 2, stage_index: stage, verdict, ...extra });
  const up = await verdictsOf([
    row(0, 'healthy'),
    row(1, 'unobserved', { unobserved: ['turns'] }),
    row(2, 'unhealthy', { findings: [{ check: 'reward-range' }] }),
    row(3, 'unobserved', { unobserved: ['tokens', 'turns'] }),
    row(4, 'unhealthy', { findings: [{ check: 'reward-range' }, { check: 'loops' }] }),
    row(5, 'healthy'),
  ]);
  assert.deepEqual(up.byKey['4:2'], { verdict: 'unhealthy', checks: ['turns', 'reward-range', 'tokens', 'loops'] });
  const down = await verdictsOf([row(0, 'unhealthy', { findings: [{ check: 'c1' }] }), row(1, 'unobserved', { unobserved: ['u1'] }), row(2, 'healthy')]);
  assert.deepEqual(down.byKey['4:2'], { verdict: 'unhealthy', checks: ['c1', 'u1'] });
  const even = await verdictsOf([row(0, 'unobserved', { unobserved: ['u1'] }), row(1, 'unobserved', { unobserved: ['u2', 'u1'] })]);
  assert.deepEqual(even.byKey['4:2'], { verdict: 'unobserved', checks: ['u1', 'u2'] });
  const second = await verdictsOf([row(0, 'healthy'), row(1, 'unobserved', { unobserved: ['u1'] })]);
  assert.deepEqual(second.byKey['4:2'], { verdict: 'unobserved', checks: ['u1'] }, 'unobserved over healthy');
  const odd = await verdictsOf([row(0, 'healthy'), row(1, 'strange')]);
  assert.deepEqual(odd.byKey['4:2'], { verdict: 'healthy', checks: [] }, 'an unknown verdict ranks with healthy: the first stays');
});

test('rows that are not verdict rows are warnings with their line; bad JSON lines are the file\'s problems', async () => {
  const { file, byKey, problems } = await verdictsOf([
    { _ng_task_index: '0', _ng_rollout_index: 0, verdict: 'healthy' },
    { _ng_task_index: 0, _ng_rollout_index: null, verdict: 'healthy' },
    { _ng_task_index: 0, _ng_rollout_index: 0, verdict: 3 },
    { _ng_task_index: 0, _ng_rollout_index: 0, verdict: '' },
    'not json',
    { _ng_task_index: 0, _ng_rollout_index: 0, verdict: 'healthy' },
  ]);
  assert.deepEqual(Object.keys(byKey), ['0:0']);
  assert.deepEqual(problems.filter((p) => p.code === 'schema').map((p) => [p.file, p.line, p.severity, p.message]), [1, 2, 3, 4].map((line) =>
    [file, line, 'warning', `line ${line} is not a verdict row (needs _ng_task_index, _ng_rollout_index and verdict)`]));
  assert.deepEqual(problems.filter((p) => p.code !== 'schema').map((p) => p.line), [5]);
  assert.equal(problems.at(-1)?.code, 'parse-error', 'the file\'s problems after the rows\'');
});

test('kindOfName: the kind of a listed missing path, from its last segment', () => {
  const cases: [string, ReturnType<typeof kindOfName>][] = [
    ['verifier/t/0/test-stdout.txt', { kind: 'test-stdout', isDir: false }],
    ['verifier/t/0/reward.txt', { kind: 'reward-file', isDir: false }],
    ['reward.json', { kind: 'reward-file', isDir: false }],
    ['verifier/reward.txt.bak', { kind: 'verifier-logs', isDir: true }],
    ['verifier/my-reward.json', { kind: 'verifier-logs', isDir: true }],
    ['agent/trajectory.json', { kind: 'trajectory', isDir: false }],
    ['verifier/t/0/ctrf.json', { kind: 'ctrf', isDir: false }],
    ['out/artifacts', { kind: 'artifacts', isDir: true }],
    ['verifier/t/0', { kind: 'verifier-logs', isDir: true }],
    ['/abs/test-stdout.txt.old', { kind: 'verifier-logs', isDir: true }],
  ];
  for (const [p, want] of cases) assert.deepEqual(kindOfName(p), want, p);
});

test('normTasks: the list form (ids fall back to task-<i>) and the object form (the key), repeats numbered as written or by position', () => {
  const list = [...normTasks([
    { task_id: 'a', task_index: 3, repeats: [{ repeat: 2 }, { repeat: -1 }, 'x', { repeat: 1.7 }, { repeat: '4' }, { repeat: 0 }] },
    'not a task',
    { task_index: Infinity, repeats: 'none' },
    { task_id: 7, task_index: 0 },
  ])];
  assert.deepEqual(list.map((t) => [t.taskId, t.index, t.jsonPath, t.repeats.map((r) => [r.repeat, r.jsonPath])]), [
    ['a', 3, ['tasks', 0], [[2, ['tasks', 0, 'repeats', 0]], [1, ['tasks', 0, 'repeats', 1]], [1, ['tasks', 0, 'repeats', 3]], [4, ['tasks', 0, 'repeats', 4]], [0, ['tasks', 0, 'repeats', 5]]]],
    ['task-2', undefined, ['tasks', 2], []],
    ['task-3', 0, ['tasks', 3], []],
  ]);
  assert.deepEqual(list[0].repeats[0].raw, { repeat: 2 });
  const obj = [...normTasks({ x: { repeats: [{}] }, y: null, z: { task_id: 'zz' } })];
  assert.deepEqual(obj.map((t) => [t.taskId, t.jsonPath, t.repeats.map((r) => r.repeat)]), [['x', ['tasks', 'x'], [0]], ['zz', ['tasks', 'z'], []]]);
  assert.deepEqual([...normTasks('tasks')], []);
  assert.deepEqual([...normTasks(null)], []);
});

test('normStale, normNamed, normFiles: the list and object forms, entries of other types skipped', () => {
  assert.deepEqual(normStale(['verifier/a/reward.txt', 5, '', 'plain', 'dir/']), [
    { key: 'reward.txt', rel: 'verifier/a/reward.txt', jsonPath: ['stale_files', 0] },
    { key: 'plain', rel: 'plain', jsonPath: ['stale_files', 3] },
    { key: 'dir/', rel: 'dir/', jsonPath: ['stale_files', 4] },
  ]);
  assert.deepEqual(normStale({ rollouts: 'out/r.jsonl', bad: 3, empty: '' }), [{ key: 'rollouts', rel: 'out/r.jsonl', jsonPath: ['stale_files', 'rollouts'] }]);
  assert.deepEqual(normStale('x'), []);
  assert.deepEqual(normNamed(['t1', { task_id: 't2', reason: 'why' }, { task_id: 't3', reason: 4 }, { reason: 'no id' }, 7]), [
    { taskId: 't1', reason: '' }, { taskId: 't2', reason: 'why' }, { taskId: 't3', reason: '' },
  ]);
  assert.deepEqual(normNamed({ t1: 'because', t2: null }), [{ taskId: 't1', reason: 'because' }, { taskId: 't2', reason: '' }]);
  assert.deepEqual(normNamed(5), []);
  assert.deepEqual(normFiles({ rollouts: 'r.jsonl', failures: null, odd: 3 }), [{ key: 'rollouts', rel: 'r.jsonl' }, { key: 'failures', rel: null }, { key: 'odd', rel: null }]);
  assert.deepEqual(normFiles(['r.jsonl']), []);
  assert.deepEqual(normFiles(null), []);
});

test('fileLabel: the known keys by name, another key made words; num, str and bool take only their type (num: finite)', () => {
  assert.equal(fileLabel('rollouts'), 'Rollouts');
  assert.equal(fileLabel('rollout_verdicts'), 'Health check verdicts');
  assert.equal(fileLabel('some_new-key'), 'Some new key');
  assert.equal(fileLabel('__x__'), 'X');
  assert.equal(fileLabel('___'), '___');
  assert.equal(fileLabel('toString'), 'ToString', 'not a label inherited from Object');
  assert.equal(fileLabel('constructor'), 'Constructor');
  assert.equal(num(1.5), 1.5);
  assert.equal(num(Infinity), null);
  assert.equal(num(Number.NaN), null);
  assert.equal(num('1'), null);
  assert.equal(str('a'), 'a');
  assert.equal(str(1), null);
  assert.equal(bool(false), false);
  assert.equal(bool(0), null);
  assert.equal(isObj([]), false);
  assert.equal(isObj(null), false);
  assert.equal(isObj({}), true);
});
