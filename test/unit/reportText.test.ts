// The text of `harbor-runs inspect`: by default what a person acts on (counts, pass@k, the tasks that need attention,
// capped lists), with `all` every task and attempt; a task with many attempts summarised as ranges, lines wrapped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Outcome, Run, Task } from '../../src/core/model';
import { inspectDocument, inspectRun } from '../../src/core/report';
import { renderRunText, renderText } from '../../src/core/reportText';

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

test('a cut attention list shows the tasks most in need first: errors and missing evidence, then never passed', () => {
  const tasks = Array.from({ length: 30 }, (_, i) => many(`t${String(i).padStart(2, '0')}`, 2, 2));
  tasks.push({ id: 'never', label: 'never', attempts: [attempt('never', 0, 'failed'), attempt('never', 1, 'failed')] });
  tasks.push({ id: 'infra', label: 'infra', attempts: [attempt('infra', 0, 'passed'), attempt('infra', 1, 'infra-error')] });
  tasks.push({ id: 'gone', label: 'gone', attempts: [{ ...attempt('gone', 0, 'passed'), missing: ['/r/v/gone/trajectory.json'] }] });
  const lines = renderRunText('/r', inspectRun(run(tasks))).split('\n');
  const listed = lines.filter((l) => /^ {4}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
  assert.deepEqual(listed.slice(0, 4), ['infra', 'gone', 'never', 't00'], lines.join('\n'));
  assert.ok(lines.some((l) => /most in need first/.test(l)));
  // A list that is not cut keeps the run's order and says nothing of an order.
  const few = renderRunText('/r', inspectRun(run(tasks.slice(28)))).split('\n');
  assert.deepEqual(few.filter((l) => /^ {4}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0]), ['t28', 't29', 'never', 'infra', 'gone']);
  assert.ok(!few.some((l) => /most in need first/.test(l)));
});

// Every line of a run's text, exactly: what each attempt's reason reads, the identity, training and pass@k lines,
// skipped / unvalidated tasks, missing and stale files, problems by code, and the caps on each list.
const at = (i: number, outcome: Outcome, extra: Partial<Attempt> = {}): Attempt => ({
  ...attempt('t', i, outcome), ...extra,
});
const nemo: Run = {
  ...run([]), root: '/w/r', anchor: '/w/r/x_run_summary.json', label: 'bench · agent', state: 'running',
  identity: { model: 'm1', agent: null, harness: '', dataset: 'd' },
};
const rich: Run = {
  ...nemo, summaryIsVirtual: true, training: { steps: 12, last: { step: 12, loss: 0.5, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } },
  tasks: [
    { id: 'alpha', label: 'alpha', attempts: [
      at(0, 'failed', { sourceOutcome: 'failed', exception: { type: 'ValueError', message: 'x' } }),
      at(1, 'infra-error', { sourceOutcome: 'masked', failure: { class: 'sandbox', stage: 'setup', kind: 'oom' } }),
      at(2, 'missing', { sourceOutcome: 'missing', failure: { class: 'gone' } }),
      at(3, 'agent-error', { sourceOutcome: 'weird', reward: 0.5 }),
      at(4, 'incomplete', { sourceOutcome: 'scored', failure: { reason: `first line of a long reason${' and on'.repeat(10)}\nsecond line` } }),
      at(5, 'failed', { failure: { reason: 'a reason is not shown for a scored attempt' }, missing: ['/w/r/logs/a5', '/w/other/x'] }),
      at(6, 'passed', { health: { verdict: 'suspect', checks: ['c1', 'c2', 'c3', 'c4'] } }),
      at(7, 'passed', { health: { verdict: 'broken', checks: [] } }),
      at(8, 'passed', { health: { verdict: 'healthy', checks: ['z'] } }),
    ] },
    { id: 'beta', label: 'beta', attempts: [at(0, 'passed')] },
    { id: 'gamma', label: 'gamma', attempts: [] },
    { id: 'delta', label: 'delta', attempts: [at(0, 'passed', { missing: ['/w/r/d0'] })] },
  ],
  skipped: [{ taskId: 's1', reason: 'why' }, { taskId: 's2', reason: '' }],
  unvalidated: [{ taskId: 'u1', reason: 'because' }, { taskId: 'u2', reason: '' }],
  files: [
    { key: 'rollouts', label: 'Rollouts', path: '/w/r/rollouts.jsonl', present: false },
    { key: 'failures', label: 'Failures', path: '/w/r/failures.jsonl', present: true },
    { key: 'none', label: 'None', path: null, present: false },
    { key: 'old', label: 'Old', path: '/w/r/old.jsonl', present: true, stale: true },
    { key: 'gone', label: 'Gone', path: '/w/r/gone.jsonl', present: false, stale: true },
  ],
  problems: [
    { file: '/w/r/x_run_summary.json', line: 3, column: 7, severity: 'error', code: 'parse-error', message: 'bad' },
    { file: '/w/r/rollouts.jsonl', line: 9, severity: 'warning', code: 'missing-path', message: 'gone' },
    { file: '/w/r/y', severity: 'info', code: 'missing-path', message: 'also' },
  ],
};

test('every line of a run: identity, training, counts, pass@k, why each attempt did not pass, files, problems', () => {
  assert.equal(renderRunText('/w', inspectRun(rich), { maxInline: 20, width: 100 }), [
    'nemo-gym: bench · agent',
    '  at         r/x_run_summary.json (no run summary yet: read from the rollouts)',
    '  identity   model=m1  dataset=d',
    '  state      running',
    '  training   12 steps; last: loss=0.5 a=1 b=2 c=3 d=4 e=5',
    '  attempts   11 in 4 tasks: passed 5, failed 2, agent-error 1, infra-error 1, incomplete 1, missing 1',
    '  pass@1     0.833 over 3 measured of 3 (0 all-infra)',
    '  pass@9     1.000 over 3 measured of 3 (0 all-infra)',
    '  attention  3 of 4 tasks have an attempt that did not pass or is missing evidence',
    '    alpha  #1 failed (reward 0.0; failure row; ValueError)',
    '           #2 infra-error (no reward; masked row; sandbox at setup; oom)',
    '           #3 missing (no reward; no row; gone)  #4 agent-error (reward 0.5; weird)',
    '           #5 incomplete (no reward; first line of a long reason and on and on and on and on and on and on and on and)',
    '           #6 failed (reward 0.0) [missing: r/logs/a5, other/x]',
    '           #7 passed (reward 1.0) [suspect: c1, c2, c3]  #8 passed (reward 1.0) [broken]',
    '           #9 passed (reward 1.0)',
    '    gamma  (no attempts)',
    '    delta  #1 passed (reward 1.0) [missing: r/d0]',
    '  skipped    s1: why',
    '  skipped    s2',
    '  unvalidated u1: because',
    '  unvalidated u2',
    '  missing    r/rollouts.jsonl (rollouts)',
    '  missing    r/logs/a5 (alpha #6)',
    '  missing    other/x (alpha #6)',
    '  missing    r/d0 (delta #1)',
    '  stale      r/old.jsonl (old: left by an earlier run)',
    '  stale      r/gone.jsonl (gone: left by an earlier run; no longer on disk)',
    '  problems   3: 2 missing-path, 1 parse-error',
    '    error   r/x_run_summary.json:3:7  parse-error: bad',
    '    warning r/rollouts.jsonl:9  missing-path: gone',
    '    info    r/y  missing-path: also',
  ].join('\n'));
});

test('a task over maxInline attempts is summarised; missing paths and problems are capped with how many more', () => {
  assert.equal(renderRunText('/w/r', inspectRun(rich), { maxProblems: 2, maxInline: 3 }), [
    'nemo-gym: bench · agent',
    '  at         x_run_summary.json (no run summary yet: read from the rollouts)',
    '  identity   model=m1  dataset=d',
    '  state      running',
    '  training   12 steps; last: loss=0.5 a=1 b=2 c=3 d=4 e=5',
    '  attempts   11 in 4 tasks: passed 5, failed 2, agent-error 1, infra-error 1, incomplete 1, missing 1',
    '  pass@1     0.833 over 3 measured of 3 (0 all-infra)',
    '  pass@9     1.000 over 3 measured of 3 (0 all-infra)',
    '  attention  3 of 4 tasks have an attempt that did not pass or is missing evidence',
    '    alpha  #1–#9: 3 passed, 2 failed, 1 agent-error, 1 infra-error, 1 incomplete, 1 missing',
    '           #1 failed (reward 0.0; failure row; ValueError)',
    '           #2 infra-error (no reward; masked row; sandbox at setup; oom)  #3 missing (no reward; no row; gone)',
    '           … 3 more that did not pass (--all lists every attempt)',
    '    gamma  (no attempts)',
    '    delta  #1 passed (reward 1.0) [missing: d0]',
    '  skipped    s1: why',
    '  skipped    s2',
    '  unvalidated u1: because',
    '  unvalidated u2',
    '  missing    rollouts.jsonl (rollouts)',
    '  missing    logs/a5 (alpha #6)',
    '  missing    … 2 more (--json lists every one)',
    '  stale      old.jsonl (old: left by an earlier run)',
    '  stale      gone.jsonl (gone: left by an earlier run; no longer on disk)',
    '  problems   3: 2 missing-path, 1 parse-error',
    '    error   x_run_summary.json:3:7  parse-error: bad',
    '    warning rollouts.jsonl:9  missing-path: gone',
    '    … 1 more (--json lists every one)',
  ].join('\n'));
});

const viewer: Run = { ...run([]), kind: 'viewer-data', root: '/w/d', anchor: '/w/d/summary.json', label: 'ds' };

test('several cells: one line per cell under the task, "(no cell)" for attempts without one; all-infra tasks counted', () => {
  const r: Run = { ...viewer, training: { steps: 3 }, tasks: [
    { id: 'a', label: 'a', attempts: [at(0, 'passed', { cell: 'm|h' }), at(1, 'failed', { cell: 'm|h' }), at(0, 'infra-error', { cell: 'n|h' }),
      at(0, 'failed'), at(1, 'failed', { missing: ['/w/d/t/1'] })] },
    { id: 'b', label: 'b-very-long-task-label-that-goes-past-thirty-two-chars', attempts: [] },
  ] };
  assert.equal(renderRunText('/w', inspectRun(r)), [
    'viewer-data: ds',
    '  at         d/summary.json',
    '  state      complete',
    '  training   3 steps',
    '  attempts   5 in 2 tasks: passed 1, failed 3, infra-error 1',
    '  pass@1     0.250 over 2 measured of 3 (1 all-infra: no attempt measured)',
    '  pass@2     0.500 over 2 measured of 3 (1 all-infra: no attempt measured)',
    '  attention  2 of 2 tasks have an attempt that did not pass or is missing evidence',
    '    a',
    '      m|h  #1 passed (reward 1.0)  #2 failed (reward 0.0)',
    '      n|h  #1 infra-error (no reward)',
    '      (no cell)  #1 failed (reward 0.0)  #2 failed (reward 0.0) [missing: d/t/1]',
    '    b-very-long-task-label-that-goes-past-thirty-two-chars  (no attempts)',
    '  missing    d/t/1 (a #2)',
  ].join('\n'));
});

test('attempt numbers that do not run on are listed as ranges (past four, the first three and the last); lines wrap at width', () => {
  const each = (idx: number[], o: Outcome) => idx.map((i) => at(i, o));
  const r: Run = { ...viewer, kind: 'harbor-job', anchor: '/w', root: '/w', tasks: [
    { id: 'x', label: 'x', attempts: [...each([0, 1, 2, 4, 6, 7, 9, 11], 'failed'), at(12, 'passed')] },
    { id: 'y', label: 'y', attempts: each([0, 2, 3, 5, 6, 8], 'infra-error') },
  ] };
  assert.equal(renderRunText('/w', inspectRun(r), { maxInline: 2, width: 40 }), [
    'harbor-job: ds',
    '  at         .',
    '  state      complete',
    '  attempts   15 in 2 tasks: passed 1, failed 8, infra-error 6',
    '  pass@1     0.111 over 1 measured of 2 (1 all-infra: no attempt measured)',
    '  pass@9     1.000 over 1 measured of 2 (1 all-infra: no attempt measured)',
    '  attention  2 of 2 tasks have an attempt that did not pass or is missing evidence',
    '    x  #1–#3, #5, #7–#8, … #12–#13: 1 passed, 8 failed',
    '       #1 failed (reward 0.0)',
    '       #2 failed (reward 0.0)',
    '       … 6 more that did not pass (--all lists every attempt)',
    '    y  #1, #3–#4, #6–#7, #9: 6 infra-error',
    '       #1 infra-error (no reward)',
    '       #3 infra-error (no reward)',
    '       … 4 more that did not pass (--all lists every attempt)',
  ].join('\n'));
});

test('every attempt passed: "none" needs attention; one problem code is not broken down', () => {
  const r: Run = { ...viewer, tasks: [{ id: 'p', label: 'p', attempts: [at(0, 'passed'), at(1, 'passed')] }],
    problems: [{ file: '/w/d/a', severity: 'error', code: 'c', message: 'm' }, { file: '/w/d/b', severity: 'error', code: 'c', message: 'n' }] };
  assert.equal(renderRunText('/w', inspectRun(r)), [
    'viewer-data: ds',
    '  at         d/summary.json',
    '  state      complete',
    '  attempts   2 in 1 task: passed 2',
    '  pass@1     1.000 over 1 measured of 1 (0 all-infra)',
    '  pass@2     1.000 over 1 measured of 1 (0 all-infra)',
    '  attention  none: every attempt of 1 task passed',
    '  problems   2',
    '    error   d/a  c: m',
    '    error   d/b  c: n',
  ].join('\n'));
  assert.equal(renderRunText('/w', inspectRun(viewer)), 'viewer-data: ds\n  at         d/summary.json\n  state      complete',
    'no tasks: no counts, pass@k or attention lines');
});

test('all: every task and attempt under "tasks", labels padded to at most 32; problems capped at 200 unless told', () => {
  const three: Run = { ...viewer, tasks: [
    { id: 'a', label: 'a-label-of-exactly-thirty-five-chars', attempts: [at(0, 'failed')] },
    { id: 'b', label: 'b', attempts: [at(0, 'passed'), at(1, 'failed'), at(2, 'passed')] },
    { id: 'c', label: 'c', attempts: [at(0, 'passed')] },
  ], problems: Array.from({ length: 3 }, (_, i) => ({ file: `/w/d/p${i}`, severity: 'error' as const, code: 'c', message: `m${i}` })) };
  const head = [
    'viewer-data: ds',
    '  at         d/summary.json',
    '  state      complete',
    '  attempts   5 in 3 tasks: passed 3, failed 2',
    '  pass@1     0.556 over 3 measured of 3 (0 all-infra)',
    '  pass@3     0.667 over 3 measured of 3 (0 all-infra)',
  ];
  const capped = ['  problems   3: 3 c', '    error   d/p0  c: m0', '    error   d/p1  c: m1', '    … 1 more (--json lists every one)'];
  assert.equal(renderRunText('/w', inspectRun(three), { all: true, maxInline: 2, maxProblems: 2 }), [
    ...head,
    '  tasks',
    '    a-label-of-exactly-thirty-five-chars  #1 failed (reward 0.0)',
    `    ${'b'.padEnd(32)}  #1–#3: 2 passed, 1 failed`,
    `    ${' '.repeat(32)}  #1 passed (reward 1.0)  #2 failed (reward 0.0)  #3 passed (reward 1.0)`,
    `    ${'c'.padEnd(32)}  #1 passed (reward 1.0)`,
    ...capped,
  ].join('\n'));
  assert.equal(renderRunText('/w', inspectRun(three), { maxTasks: 1, maxProblems: 2 }), [
    ...head,
    '  attention  2 of 3 tasks have an attempt that did not pass or is missing evidence',
    '             most in need first: errors and missing evidence, then tasks never passed, then the rest',
    '    a-label-of-exactly-thirty-five-chars  #1 failed (reward 0.0)',
    '    … 1 more task (--all lists every task and attempt)',
    ...capped,
  ].join('\n'));
  const many: Run = { ...viewer, problems: Array.from({ length: 201 }, (_, i) => ({ file: `/w/d/p${i}`, severity: 'error' as const, code: 'c', message: 'm' })) };
  const shown = (opts: { all?: boolean }) => renderRunText('/w', inspectRun(many), opts).split('\n').filter((l) => l.startsWith('    error')).length;
  assert.equal(shown({}), 20);
  assert.equal(shown({ all: true }), 200);
  assert.match(renderRunText('/w', inspectRun(many), {}), /problems {3}201: 201 c\n/);
});

test('the document: no runs, one run, several; what the data supplied cannot act on the terminal', () => {
  assert.equal(renderText(inspectDocument('/w\x1b[2J', []), '/w'), 'No runs found under /w\\x1b[2J\n');
  assert.equal(renderText(inspectDocument('/w', [viewer]), '/w'),
    '1 run under /w\n\nviewer-data: ds\n  at         d/summary.json\n  state      complete\n');
  assert.equal(renderText(inspectDocument('/w', [viewer, { ...viewer, label: 'two\nlines' }]), '/w'),
    '2 runs under /w\n\nviewer-data: ds\n  at         d/summary.json\n  state      complete\n\n'
    + 'viewer-data: two\\x0alines\n  at         d/summary.json\n  state      complete\n');
});

test('edges: no measured attempt, a task without attempts, exact caps, two cells only, a reason beside another why, wrapping', () => {
  const allInfra: Run = { ...viewer, tasks: [{ id: 'i', label: 'i', attempts: [at(0, 'infra-error')] }] };
  assert.match(renderRunText('/w', inspectRun(allInfra)), /\n {2}pass@1 {5}— over 0 measured of 1 \(1 all-infra: no attempt measured\)\n/);
  const empty: Run = { ...viewer, tasks: [{ id: 'e', label: 'e', attempts: [] }] };
  assert.equal(renderRunText('/w', inspectRun(empty)), [
    'viewer-data: ds', '  at         d/summary.json', '  state      complete', '  attempts   0 in 1 task',
    '  attention  1 of 1 task has an attempt that did not pass or is missing evidence', '    e  (no attempts)',
  ].join('\n'));
  assert.equal(renderRunText('/w', inspectRun(viewer), { all: true }), 'viewer-data: ds\n  at         d/summary.json\n  state      complete',
    'all, no tasks: no "tasks" heading');

  // Exactly at the caps: nothing "more", and one code is not broken down.
  const atCaps: Run = { ...viewer, tasks: [{ id: 't', label: 't', attempts: [at(0, 'failed', { missing: ['/w/d/m1'] }), at(1, 'passed', { missing: ['/w/d/m2'] })] }],
    problems: [{ file: '/w/d/a', severity: 'error', code: 'c', message: 'm' }, { file: '/w/d/b', severity: 'error', code: 'c', message: 'n' }] };
  const capped = renderRunText('/w', inspectRun(atCaps), { maxProblems: 2, maxInline: 2 });
  assert.doesNotMatch(capped, /more/);
  assert.match(capped, /\n {2}problems {3}2\n/);
  assert.match(capped, /\n {4}t {2}#1 failed \(reward 0\.0\) \[missing: d\/m1\] {2}#2 passed \(reward 1\.0\) \[missing: d\/m2\]\n/, 'two attempts, maxInline 2: inline');

  // Every attempt in one of two cells: a line per cell; a missing path names its cell.
  const twoCells: Run = { ...viewer, tasks: [{ id: 't', label: 't', attempts: [at(0, 'passed', { cell: 'a|x' }), at(0, 'failed', { cell: 'b|x', missing: ['/w/d/m'] })] }] };
  assert.equal(renderRunText('/w', inspectRun(twoCells)).split('\n').slice(-4).join('\n'), [
    '    t', '      a|x  #1 passed (reward 1.0)', '      b|x  #1 failed (reward 0.0) [missing: d/m]', '  missing    d/m (t #1 b|x)',
  ].join('\n'));

  // A failure's reason only when nothing else says why, and never for a pass.
  const reasons: Run = { ...viewer, tasks: [{ id: 't', label: 't', attempts: [
    at(0, 'infra-error', { exception: { type: 'Boom', message: '' }, failure: { reason: 'hidden' } }),
    at(1, 'passed', { failure: { reason: 'not for a pass' } }),
    at(2, 'cancelled', { failure: { reason: 'shown' } }),
  ] }] };
  assert.match(renderRunText('/w', inspectRun(reasons), { all: true }),
    /t {2}#1 infra-error \(no reward; Boom\) {2}#2 passed \(reward 1\.0\) {2}#3 cancelled \(no reward; shown\)/);

  // All passed but one misses evidence, past maxInline: the summary line and no empty list of attempts that did not pass.
  const passedMissing: Run = { ...viewer, tasks: [{ id: 't', label: 't', attempts: [at(0, 'passed'), at(1, 'passed', { missing: ['/w/d/x'] }), at(2, 'passed')] }] };
  const pm = renderRunText('/w', inspectRun(passedMissing), { maxInline: 2 }).split('\n');
  assert.deepEqual(pm.slice(pm.indexOf('    t  #1–#3: 3 passed'), pm.indexOf('    t  #1–#3: 3 passed') + 2), ['    t  #1–#3: 3 passed', '  missing    d/x (t #2)']);
});

test('wrapping: a line breaks before a piece that would pass the width, not at it; a piece longer than the width stands alone', () => {
  const t: Run = { ...viewer, tasks: [{ id: 't', label: 't', attempts: [at(0, 'failed'), at(1, 'failed'), at(2, 'failed')] }] };
  // "    t  " is 7 wide; each attempt "#n failed (reward 0.0)" is 22; two joined by two spaces: 7 + 22 + 2 + 22 = 53.
  const lines = (width: number, maxInline = 8) => renderRunText('/w', inspectRun(t), { width, maxInline }).split('\n').filter((l) => l.includes('#'));
  assert.deepEqual(lines(53), ['    t  #1 failed (reward 0.0)  #2 failed (reward 0.0)', '       #3 failed (reward 0.0)']);
  assert.deepEqual(lines(52), ['    t  #1 failed (reward 0.0)', '       #2 failed (reward 0.0)', '       #3 failed (reward 0.0)']);
  assert.deepEqual(lines(10), ['    t  #1 failed (reward 0.0)', '       #2 failed (reward 0.0)', '       #3 failed (reward 0.0)']);
  assert.deepEqual(lines(10, 2), ['    t  #1–#3: 3 failed', '       #1 failed (reward 0.0)', '       #2 failed (reward 0.0)']);
});

test('run files outside the run are neither missing nor "no longer on disk": they were never looked at', () => {
  const r = run([many('t', 2, 99)]);
  r.files = [
    { key: 'rollouts', label: 'Rollouts', path: '/etc/passwd', present: false, outside: true },
    { key: 'failures', label: 'Failures sidecar', path: '/r/gone.jsonl', present: false },
    { key: 'materialized_inputs', label: 'Materialized inputs (stale)', path: '/etc/shadow', present: false, stale: true, outside: true },
    { key: 'run_config', label: 'Run config (stale)', path: '/r/old.yaml', present: false, stale: true },
  ];
  const lines = renderRunText('/r', inspectRun(r)).split('\n');
  assert.deepEqual(lines.filter((l) => l.startsWith('  missing')), ['  missing    gone.jsonl (failures sidecar)']);
  assert.deepEqual(lines.filter((l) => l.startsWith('  stale')), [
    '  stale      ../etc/shadow (materialized_inputs: left by an earlier run; outside the run: not read)',
    '  stale      old.yaml (run_config: left by an earlier run; no longer on disk)',
  ]);
});
