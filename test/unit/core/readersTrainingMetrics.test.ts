// A training run's train/metrics.jsonl as the run reader reads it (src/core/readers/trainingMetrics.ts), row by row:
// which rows do not match the metrics schema (each field the schema names, the step), which still count as steps,
// what of the last row is kept, how many notes are listed before the rest are counted.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readTrainingMetrics } from '../../../src/core/readers/trainingMetrics';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-training-metrics-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let counter = 0;

async function read(rows: (object | string)[]) {
  const file = `${tmpRoot}/m-${++counter}.jsonl`;
  fs.writeFileSync(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  // A fresh port each time: nothing kept from an earlier read.
  return { file, m: await readTrainingMetrics(new NodeFs(), file) };
}

const FIELDS = ['reward', 'reward_std', 'loss', 'ratio', 'kl', 'entropy', 'n_rollouts', 'n_unscorable', 'wall_s'];

test('each metric the schema names must be a number or null: any other value is a schema warning at its line, the step still counts', async () => {
  const rows = FIELDS.map((k, i) => ({ step: i + 1, [k]: 'high' }));
  const { file, m } = await read([{ step: 0, reward: null, loss: 0.5 }, ...rows]);
  assert.equal(m.steps, FIELDS.length + 1);
  assert.deepEqual(m.problems.map((p) => [p.file, p.line, p.severity, p.code]), FIELDS.map((_, i) => [file, i + 2, 'warning', 'schema']));
  FIELDS.forEach((k, i) => assert.match(m.problems[i].message, new RegExp(`^line ${i + 2}: ${k}: `)));
  assert.equal(m.running, false);
});

test('the step: a negative or fractional number is a warning and still a step; a string or no step is a warning and no step', async () => {
  const { m } = await read([
    { step: 1, reward: 0.5 },
    { step: -1, reward: 0.5 },
    { step: 2.5, reward: 0.5 },
    { step: '3', reward: 0.5 },
    { reward: 0.5 },
    { step: 4, reward: 0.75, note: 'text', flag: true, extra: null },
  ]);
  assert.equal(m.steps, 4);
  assert.deepEqual(m.problems.map((p) => [p.line, p.code]), [[2, 'schema'], [3, 'schema'], [4, 'schema'], [5, 'schema']]);
  assert.match(m.problems[0].message, /^line 2: step: /);
  assert.match(m.problems[3].message, /^line 5: step: /);
  assert.deepEqual(m.last, { step: 4, reward: 0.75, extra: null }, 'the last row\'s numbers and nulls only');
});

test('rows the fast check passes: numbers, nulls and absent metrics, other keys of any type; nothing said', async () => {
  const { m } = await read([
    { step: 0 },
    { step: 1, reward: 0, reward_std: 0.1, loss: null, ratio: 1, kl: 0, entropy: 2, n_rollouts: 8, n_unscorable: 0, wall_s: 3.5, tag: 'x', nested: { a: 1 } },
  ]);
  assert.equal(m.steps, 2);
  assert.deepEqual(m.problems, []);
  assert.deepEqual(m.last, { step: 1, reward: 0, reward_std: 0.1, loss: null, ratio: 1, kl: 0, entropy: 2, n_rollouts: 8, n_unscorable: 0, wall_s: 3.5 });
});

test('at most 20 schema notes, then one counting the rest; zero-advantage notes after three are counted too', async () => {
  const bad = Array.from({ length: 23 }, (_, i) => ({ step: i, kl: 'x' }));
  const { file, m } = await read(bad);
  const schema = m.problems.filter((p) => p.code === 'schema');
  assert.equal(schema.length, 20);
  assert.equal(schema[19].line, 20);
  assert.deepEqual(m.problems.filter((p) => p.code === 'more-problems').map((p) => [p.file, p.severity, p.message]),
    [[file, 'warning', '3 more rows do not match the metrics schema']]);
  const exactly = await read(Array.from({ length: 20 }, (_, i) => ({ step: i, kl: 'x' })));
  assert.equal(exactly.m.problems.length, 20, 'exactly 20: nothing more said');

  const flat = await read(Array.from({ length: 5 }, (_, i) => ({ step: i + 1, reward: 1, reward_std: 0 })));
  assert.deepEqual(flat.m.problems.map((p) => [p.line, p.severity, p.code]), [[1, 'info', 'zero-advantage'], [2, 'info', 'zero-advantage'], [3, 'info', 'zero-advantage'], [undefined, 'info', 'zero-advantage']]);
  assert.equal(flat.m.problems[0].message, 'step 1 teaches nothing (zero advantage): every generation scored the same (reward_std 0)');
  assert.equal(flat.m.problems[3].message, '2 more steps teach nothing (reward_std 0)');
  const three = await read(Array.from({ length: 3 }, (_, i) => ({ step: i + 1, reward_std: 0 })));
  assert.equal(three.m.problems.length, 3, 'exactly three: nothing more said');
});

test('the file\'s own problems: a folder or a missing file is unreadable; bad lines by number, past 200 one warning counts the rest', async () => {
  const node = new NodeFs();
  const folder = `${tmpRoot}/a-folder`;
  fs.mkdirSync(folder, { recursive: true });
  const f = await readTrainingMetrics(node, folder);
  assert.deepEqual(f, { steps: 0, last: undefined, running: false, problems: [{ file: folder, severity: 'error', code: 'unreadable',
    message: `cannot read ${folder}: ${folder} is a folder, not a regular file (not read)` }] });
  const gone = await readTrainingMetrics(node, `${tmpRoot}/none.jsonl`);
  assert.deepEqual(gone.problems.map((p) => [p.code, p.line]), [['unreadable', undefined]]);

  const { file, m } = await read([{ step: 1 }, 'not json', '[1]', ...Array.from({ length: 205 }, () => 'x')]);
  assert.equal(m.steps, 1);
  assert.equal(m.problems.length, 201);
  assert.deepEqual(m.problems.slice(0, 3).map((p) => [p.line, p.severity, p.code]), [[2, 'error', 'parse-error'], [3, 'error', 'not-object'], [4, 'error', 'parse-error']]);
  assert.deepEqual(m.problems[200], { file, severity: 'warning', code: 'more-problems', message: `7 more problems in ${file} not listed` });
});

test('steps that go back (a trainer resumed from an earlier checkpoint appends them again): a warning at the first rows, the rest counted', async () => {
  const rows = [1, 2, 3, 4, 5, 3, 4, 5, 6, 2, 3, 1, 1, 7].map((step) => ({ step, reward: 0.5 }));
  const { file, m } = await read(rows);
  assert.equal(m.steps, 14, 'rows are counted as written');
  assert.deepEqual(m.problems.map((p) => [p.file, p.line, p.severity, p.code]), [
    [file, 6, 'warning', 'step-order'], [file, 10, 'warning', 'step-order'], [file, 12, 'warning', 'step-order'],
    [file, undefined, 'warning', 'step-order'],
  ]);
  assert.match(m.problems[0].message, /^line 6: step 3 comes after step 5: the steps go back/);
  assert.equal(m.problems[3].message, '1 more row whose step is not above the one before');
  // Steps in order, with gaps, say nothing.
  assert.deepEqual((await read([0, 1, 5, 100].map((step) => ({ step })))).m.problems, []);
});
