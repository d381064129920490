// A JSON file cut off mid-file (a write that stopped part-way, a partial copy) is said as such: its problem names the
// file and the line and column where the content ends, and says it is cut off and not valid JSON; in the reader, in
// the Runs tree's Problems row (the file's path inside the run: every trial has a result.json) and in `inspect`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { parseJsonDocument, parseJsonText } from '../../../src/core/readers/jsonFile';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { childrenOf, makeRunNode, type TreeNode } from '../../../src/views/tree/nodes';
import { describe as describeNode } from '../../../src/views/tree/describe';
import { defaultViewState } from '../../../src/views/tree/viewState';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { runCli, tempDir } from './helpers';

const CUT = /is cut off at line \d+, column \d+: the file ends before its JSON does \(a write that stopped part-way or is still going, or a partial copy\), so it is not valid JSON$/;

test('parseJsonText / parseJsonDocument: JSON that ends before it is complete is cut off, at the end of its content', () => {
  for (const text of ['{"a": "abc', '{"a": 12', '[', '{\n  "a": 1,\n', '{"a": [1, 2  \n\n', '\ufeff{"a": {']) {
    const e = parseJsonText(text).error;
    assert.equal(e?.cutOff, true, JSON.stringify(text));
    assert.equal(e?.offset, text.trimEnd().length, JSON.stringify(text));
  }
  // Not cut off: a fault before the end, or more after a complete value.
  for (const text of ['{"a": oops}', '{"a": 1}}', '{"a" 1}', '']) assert.equal(parseJsonText(text).error?.cutOff, undefined, JSON.stringify(text));
  const doc = parseJsonDocument('/j/t/result.json', '{\n  "id": "x",\n  "task_name": "fi', 'trial result');
  assert.equal(doc.ok, false);
  assert.equal(doc.cutOff, true);
  const [p] = doc.problems;
  assert.deepEqual([p.file, p.line, p.column, p.code, p.severity], ['/j/t/result.json', 3, 19, 'parse-error', 'error']);
  assert.match(p.message, new RegExp(`^the trial result ${CUT.source}`));
  assert.match(parseJsonDocument('/d/x.json', '{"a": oops}').problems[0].message, /^the file is not valid JSON at line 1, column 7: /);
});

test('a trial whose result.json is cut off: its problem in the reader, the tree\'s Problems row and inspect', { timeout: 60_000 }, async () => {
  const jobs = tempDir('jobs-cut-');
  const job = await generateHarborJob(jobs, harborEveryCase());
  // The job ended (a result that does not parse while it runs is a warning: probably being written).
  const jobResult = path.join(job.jobDir, 'result.json');
  fs.writeFileSync(jobResult, JSON.stringify({ ...JSON.parse(fs.readFileSync(jobResult, 'utf8')), finished_at: '2026-08-21T16:00:00' }, null, 4));
  const trial = job.trials.find((t) => fs.existsSync(path.join(job.jobDir, t.name, 'result.json')))!;
  const file = path.join(job.jobDir, trial.name, 'result.json');
  const text = fs.readFileSync(file, 'utf8');
  const kept = text.slice(0, Math.floor(text.length / 2));
  fs.writeFileSync(file, kept);
  const lines = kept.trimEnd().split('\n');
  const [line, column] = [lines.length, lines[lines.length - 1].length + 1];

  const run = await readHarborJob(new NodeFs(), job.jobDir);
  const p = run.problems.find((q) => q.file === file);
  assert.ok(p, JSON.stringify(run.problems));
  assert.deepEqual([p.line, p.column, p.code, p.severity], [line, column, 'parse-error', 'error']);
  assert.match(p.message, new RegExp(`^the trial result ${CUT.source}`));
  const attempt = run.tasks.flatMap((t) => t.attempts).find((a) => a.dir === path.dirname(file));
  assert.equal(attempt?.exception?.message, 'result.json is cut off mid-file: not valid JSON');

  // The tree: the row's description names the file inside the run (every trial has a result.json).
  const ctx = { state: defaultViewState(), listDir: async () => [] };
  const group = (childrenOf(makeRunNode(run), ctx) as TreeNode[]).find((n) => n.kind === 'problems')!;
  const row = (childrenOf(group, ctx) as TreeNode[]).find((n) => n.kind === 'problem' && n.problem === p)!;
  const item = describeNode(row);
  assert.match(item.label, CUT);
  assert.equal(item.description, `parse-error · ${trial.name}/result.json:${line}`);

  // inspect: the file, line and column, then the same words.
  const r = runCli(['inspect', jobs]);
  assert.equal(r.code, 0, r.err);
  const shown = r.out.split('\n').find((l) => l.includes(`${trial.name}/result.json:${line}:${column}`));
  assert.ok(shown, r.out);
  assert.match(shown, /parse-error: the trial result is cut off at line/);
});
