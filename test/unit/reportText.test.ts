// The text of `harbor-runs inspect`: by default what a person acts on (counts, pass@k, the tasks that need attention,
// capped lists), with `all` every task and attempt; a task with many attempts summarised as ranges, lines wrapped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Outcome, Run, Task } from '../../src/core/model';
import { inspectRun } from '../../src/core/report';
import { renderRunText } from '../../src/core/reportText';

function attempt(task: string, i: number, outcome: Outcome): Attempt {
  return { id: `${task}#${i}`, index: i, label: `#${i + 1}`, outcome, reward: outcome === 'passed' ? 1 : outcome === 'failed' ? 0 : null, evidence: [], missing: [] };
}

function run(tasks: Task[]): Run {
  return { id: 'r', kind: 'nemo-gym', root: '/r', anchor: '/r/x_run_summary.json', label: 'big', identity: {}, state: 'complete',
    files: [], problems: [], unvalidated: [], skipped: [], tasks };
}

const many = (id: string, n: number, failEvery: number): Task => ({
  id, label: id, attempts: Array.from({ length: n }, (_, i) => attempt(id, i, i % failEvery === failEvery - 1 ? 'failed' : 'passed')),
});

test('a task of 1,000 attempts is one summary line and its attempts that did not pass, not one line of 1,000', () => {
  const r = inspectRun(run([many('huge', 1000, 5), many('clean', 3, 99)]));
  const text = renderRunText('/r', r);
  assert.match(text, /attention {2}1 of 2 tasks/);
  assert.match(text, /huge {2}#1–#1000: 800 passed, 200 failed/);
  assert.match(text, /#5 failed \(reward 0\.0\) {2}#10 failed/);
  assert.match(text, /… 192 more that did not pass \(--all lists every attempt\)/);
  assert.doesNotMatch(text, /clean/, 'a task whose every attempt passed needs no attention');
  for (const line of text.split('\n')) assert.ok(line.length <= 130, `line of ${line.length} characters`);
});

test('--all lists every task and every attempt, wrapped', () => {
  const r = inspectRun(run([many('huge', 1000, 5), many('clean', 3, 99)]));
  const text = renderRunText('/r', r, { all: true });
  assert.match(text, /clean +#1 passed \(reward 1\.0\) {2}#2 passed/);
  assert.match(text, /#1000 failed \(reward 0\.0\)/);
  assert.match(text, /#999 passed \(reward 1\.0\)/);
  for (const line of text.split('\n')) assert.ok(line.length <= 130, `line of ${line.length} characters`);
});

test('the tasks that need attention are capped, with how many more', () => {
  const tasks = Array.from({ length: 50 }, (_, i) => many(`t${String(i).padStart(2, '0')}`, 2, 2));
  const text = renderRunText('/r', inspectRun(run(tasks)));
  assert.match(text, /attention {2}50 of 50 tasks/);
  assert.match(text, /t19 +#1 passed/);
  assert.doesNotMatch(text, /t20 +#1/);
  assert.match(text, /… 30 more tasks \(--all lists every task and attempt\)/);
});
