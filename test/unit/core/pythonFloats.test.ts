// Python's json module writes floats that are not finite as NaN, Infinity and -Infinity (not JSON). The readers read
// a document or JSONL line that fails only because of them with each read as null, and say where: a training log whose
// loss became NaN, or a run summary with a NaN reward, keeps its rows instead of losing the line or the whole run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { readJsonl } from '../../../src/core/jsonl';
import { JsonLocator } from '../../../src/core/jsonLocator';
import { parseJsonDocument, problemAt } from '../../../src/core/readers/jsonFile';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { describeWords, nonFiniteWords, originalOffset, parseAllowingPythonFloats } from '../../../src/core/pythonFloats';
import * as fs from 'node:fs';
import { writeRunSummary } from '../../../src/core/summary';
import { buildRun } from '../summary/builders';
import { nodeFs, posix, tmpDir } from '../summary/helpers';

test('nonFiniteWords: the words where a value goes, never inside a string, a key or a longer word', () => {
  const text = '{"a": NaN, "b": [Infinity,-Infinity ], "NaN": "NaN", "c": "x\\"NaN", "d": NaNa, "e":NaN}';
  const got = nonFiniteWords(text)!;
  assert.deepEqual(got.words.map((w) => [w.word, w.offset]), [['NaN', 6], ['Infinity', 17], ['-Infinity', 26], ['NaN', text.lastIndexOf('NaN')]]);
  assert.equal(got.text, '{"a": null, "b": [null,null ], "NaN": "NaN", "c": "x\\"NaN", "d": NaNa, "e":null}');
  assert.equal(nonFiniteWords('{"a": 1, "b": "NaN Infinity"}'), undefined);
  // A whole value, and after a byte order mark.
  assert.deepEqual(nonFiniteWords('NaN')?.text, 'null');
  assert.deepEqual(nonFiniteWords('\ufeff Infinity\n')?.words, [{ word: 'Infinity', offset: 2 }]);
  // Not in a key's place, not glued to another token, not after another value.
  assert.equal(nonFiniteWords('{NaN: 1}'), undefined);
  assert.equal(nonFiniteWords('[1 NaN2]'), undefined);
  assert.equal(nonFiniteWords('[1 NaN]'), undefined);
  assert.equal(nonFiniteWords('1 NaN'), undefined);
  assert.deepEqual(nonFiniteWords(' NaN')?.words, [{ word: 'NaN', offset: 1 }]);
  assert.equal(nonFiniteWords('{"a": "x" Infinity}'), undefined);
  // Any JSON whitespace around it (tab, CR, LF); negative numbers and other words left alone.
  assert.equal(nonFiniteWords('{"a":\t\r\n-Infinity\r\n, "b": -1, "c": [-2,\tNaN\t]}')?.text, '{"a":\t\r\nnull\r\n, "b": -1, "c": [-2,\tnull\t]}');
  // Inside a string, even where a value could go after ": " or ", ", it is text.
  const inString = '{"note": "loss: NaN , x", "v": NaN}';
  assert.deepEqual(nonFiniteWords(inString), { words: [{ word: 'NaN', offset: inString.lastIndexOf('NaN') }], text: '{"note": "loss: NaN , x", "v": null}' });
});

test('parseAllowingPythonFloats: valid JSON as JSON.parse reads it; the words read as null; any other fault is JSON.parse\'s error', () => {
  assert.deepEqual(parseAllowingPythonFloats('{"a": [1, "NaN"]}'), { value: { a: [1, 'NaN'] }, words: [] });
  const got = parseAllowingPythonFloats('{"loss": NaN, "best": -Infinity}');
  assert.deepEqual(got.value, { loss: null, best: null });
  assert.deepEqual(got.words.map((w) => w.word), ['NaN', '-Infinity']);
  let jsonParseError = '';
  try { JSON.parse('{"loss": NaN,}'); } catch (e) { jsonParseError = (e as Error).message; }
  assert.throws(() => parseAllowingPythonFloats('{"loss": NaN,}'), (e: Error) => e.message === jsonParseError);
  assert.throws(() => parseAllowingPythonFloats('{"loss": nan}'), SyntaxError);
});

test('originalOffset: an offset in the replaced text back in the original, inside and after each word', () => {
  const text = '[NaN, -Infinity, 1, Infinity, x]';
  const py = nonFiniteWords(text)!;
  assert.equal(py.text, '[null, null, 1, null, x]');
  for (const [token, inReplaced] of [['1', py.text.indexOf('1')], ['x', py.text.indexOf('x')], [',', 5], ['[', 0]] as const) {
    assert.equal(text[originalOffset(py.words, inReplaced)], token);
  }
  assert.equal(originalOffset(py.words, py.text.indexOf('null') + 2), text.indexOf('NaN'));
  assert.equal(originalOffset(py.words, py.text.lastIndexOf('null') + 3), text.indexOf('Infinity', 20));
});

test('describeWords: the first few with their line and column, then how many more', () => {
  const text = '{\n  "a": NaN,\n  "b": [Infinity, NaN, NaN]\n}';
  const { words } = nonFiniteWords(text)!;
  assert.equal(describeWords(text, words), 'NaN at line 2, column 8, Infinity at line 3, column 9, NaN at line 3, column 19 and 1 more');
  assert.equal(describeWords(text, words.slice(0, 1)), 'NaN at line 2, column 8');
});

test('parseJsonDocument: a document with Python\'s words is read, each as no value, with one warning where the first is; positions after them still found', () => {
  const text = '{\n  "tasks": [\n    {"reward": NaN, "id": "a"},\n    {"reward": -Infinity, "id": "b"}\n  ],\n  "after": true\n}\n';
  const doc = parseJsonDocument('/s.json', text, 'run summary');
  assert.equal(doc.ok, true);
  assert.deepEqual(doc.value, { tasks: [{ reward: null, id: 'a' }, { reward: null, id: 'b' }], after: true });
  assert.deepEqual(doc.problems, [{
    file: '/s.json', line: 3, column: 16, severity: 'warning', code: 'non-finite-number',
    message: 'the run summary holds NaN at line 3, column 16, -Infinity at line 4, column 16: not JSON (Python\'s json module writes it for a float that is not finite): read as no value',
  }]);
  // The locator steps over the words to place a problem after them.
  assert.deepEqual([problemAt(doc, ['tasks', 1, 'id'], 'warning', 'x', 'm').line, problemAt(doc, ['after'], 'warning', 'x', 'm').line], [4, 6]);
  // The value NaN itself is found (0-based line 2, the word's three characters).
  assert.deepEqual(new JsonLocator(text).spanOf(['tasks', 0, 'reward']), { line: 2, character: 15, endLine: 2, endCharacter: 18 });
  // Any other fault is still a parse error, where it is (after the words, not at them).
  const bad = parseJsonDocument('/t.json', '{"a": NaN,\n "b": }', 'file');
  assert.equal(bad.ok, false);
  assert.equal(bad.problems[0].code, 'parse-error');
  assert.deepEqual([bad.problems[0].line, bad.problems[0].column], [2, 7]);
});

test('readJsonl: a line with NaN is a row with null there and a warning naming the line; the other lines as before', async () => {
  const mem = new MemFs();
  mem.put('/metrics.jsonl', '{"step": 1, "loss": 0.5}\n{"step": 2, "loss": NaN, "grad": Infinity}\n{"step": 3, "loss": NaN,}\n{"step": 4, "loss": -Infinity}\n');
  const rows: unknown[] = [];
  const res = await readJsonl(mem, '/metrics.jsonl', (row) => { rows.push(row); });
  assert.deepEqual(rows, [{ step: 1, loss: 0.5 }, { step: 2, loss: null, grad: null }, { step: 4, loss: null }]);
  assert.deepEqual(res.problems.map((p) => [p.line, p.severity, p.code, p.message]), [
    [2, 'warning', 'non-finite-number', 'line 2 holds NaN and 1 more such word: not JSON (Python\'s json module writes it for a float that is not finite): read as no value'],
    [3, 'error', 'parse-error', res.problems[1].message],
    [4, 'warning', 'non-finite-number', 'line 4 holds -Infinity: not JSON (Python\'s json module writes it for a float that is not finite): read as no value'],
  ]);
  assert.match(res.problems[1].message, /^line 3 is not valid JSON: /);
});

test('a run summary written by Python with a NaN reward shows its tasks, the NaN as no reward', async () => {
  const mem = new MemFs();
  const summary = {
    taskset: 'ts', agent: 'a', files: {}, missing_paths: [],
    tasks: [{ task_id: 't1', task_index: 0, repeats: [{ repeat: 0, outcome: 'scored', reward: 1.0 }, { repeat: 1, outcome: 'scored', reward: 0.5 }] }],
  };
  mem.put('/run/rollouts_run_summary.json', JSON.stringify(summary, null, 2).replace('"reward": 0.5', '"reward": NaN'));
  const run = await readRunSummary(mem, '/run/rollouts_run_summary.json');
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.reward)), [[1, null]]);
  const warn = run.problems.find((p) => p.code === 'non-finite-number');
  assert.ok(warn, 'said');
  assert.equal(warn.file, '/run/rollouts_run_summary.json');
  assert.equal(warn.line, 19);
});

test('the summary writer: NaN in a field it does not pick is skipped like any value; in a picked field (reward) the row is an error naming its line', async () => {
  const dir = tmpDir('py-floats-writer');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] }] }));
  const rows = fs.readFileSync(rollouts, 'utf8').split('\n').filter(Boolean);
  assert.equal(rows.length, 2);
  fs.writeFileSync(rollouts, `${rows[0].replace(/^\{/, '{"extra_metric": NaN, ')}\n${rows[1].replace(/"reward":\s*[^,}]+/, '"reward": NaN')}\n`);
  const res = await writeRunSummary(nodeFs, rollouts);
  assert.equal(res.error, undefined);
  const repeats = res.document!.tasks[0].repeats;
  assert.equal(repeats[0].outcome, 'scored', 'the row with NaN in an unpicked field is read');
  assert.equal(repeats[1].outcome, 'missing', 'the row whose reward is NaN is not a row to the writer');
  const bad = res.problems.find((p) => p.code === 'parse-error');
  assert.equal(bad?.line, 2);
  assert.equal(bad?.file, rollouts);
});
