// readViewerDataset (core/readers/viewerData.ts) on small hand-built datasets: the run's files, identity, label and
// recorded aggregates; each attempt field by field (its number when the summary's is missing or odd, its cell's model,
// harness and tier, the reward method, long details cut); what is skipped (a task, cell or attempt that is not an
// object); where each trace is looked for (traces/, elsewhere in the dataset, outside it, a dataset folder named with
// a trailing slash or `..`) and each problem's file and JSON path.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FileStat, FsPort } from '../../../src/core/fs/port';
import { readViewerDataset } from '../../../src/core/readers/viewerData';
import { TimeSlice } from '../../../src/core/turn';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-viewer-data-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const nfs = new NodeFs();
let n = 0;

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

/** projects/<p>/datasets/<d> under a fresh folder; project.json and dataset.json only when given. */
function dataset(opts: { project?: unknown; meta?: unknown; summary?: unknown; traces?: string[] } = {}): string {
  const root = `${tmpRoot}/r${n++}`;
  const p = `${root}/projects/proj`;
  const d = `${p}/datasets/ds`;
  fs.mkdirSync(d, { recursive: true });
  if (opts.project !== undefined) write(`${p}/project.json`, opts.project);
  if (opts.meta !== undefined) write(`${d}/dataset.json`, opts.meta);
  if (opts.summary !== undefined) write(`${d}/summary.json`, opts.summary);
  for (const t of opts.traces ?? []) write(`${d}/${t}`, { messages: [] });
  return d;
}

const codes = (problems: { code: string; jsonPath?: unknown[]; file?: string }[], ...keep: string[]) =>
  problems.filter((p) => keep.includes(p.code)).map((p) => [p.code, p.jsonPath]);

test('a dataset with nothing but its folder: files absent, the folder names as labels, nothing recorded, one problem', async () => {
  const d = dataset();
  const run = await readViewerDataset(nfs, d);
  const p = path.posix.dirname(path.posix.dirname(d));
  assert.deepEqual(run.files, [
    { key: 'project', label: 'Project', path: `${p}/project.json`, present: false },
    { key: 'dataset', label: 'Dataset', path: null, present: false },
    { key: 'summary', label: 'Summary', path: `${d}/summary.json`, present: false },
    { key: 'traces', label: 'Traces', path: null, present: false, isDir: true },
  ]);
  assert.equal(run.id, `viewer-data:${d}/summary.json`);
  assert.equal(run.label, 'proj / ds');
  assert.equal(run.state, 'complete');
  assert.deepEqual(run.identity, { project: 'proj', project_label: 'proj', dataset: 'ds', models: null, harnesses: null, support: null });
  assert.deepEqual(run.tasks, []);
  assert.deepEqual(run.recorded, {});
  assert.deepEqual([run.unvalidated, run.skipped], [[], []]);
  assert.equal('support' in run, false, 'no support tiers: no support key');
  assert.deepEqual(run.problems.map((x) => [x.code, x.file, x.message]), [
    ['missing-file', `${p}/project.json`, 'the project.json is not on disk'],
    ['missing-file', `${d}/summary.json`, 'the dataset summary.json is not on disk'],
  ]);
});

test('dataset.json: its label names the dataset; a wrong type or a parse error is a problem and the folder name stays', async () => {
  const good = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, meta: { label: 'Eval', notes: null }, summary: { tasks: [] } }));
  assert.equal(good.label, 'P / Eval');
  assert.deepEqual(good.files[1], { key: 'dataset', label: 'Dataset', path: `${good.root}/dataset.json`, present: true });
  assert.deepEqual(good.files[2].present, true);
  assert.deepEqual(good.problems.filter((x) => x.file?.endsWith('dataset.json')), []);

  const typed = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, meta: { label: 5 }, summary: { tasks: [] } }));
  assert.equal(typed.label, 'P / ds');
  assert.deepEqual(typed.problems.map((x) => [x.code, x.file, x.jsonPath, x.message]),
    [['schema', `${typed.root}/dataset.json`, ['label'], 'dataset.json .label: Invalid input: expected string, received number']]);

  const broken = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, meta: '{ "label": ', summary: { tasks: [] } }));
  assert.equal(broken.label, 'P / ds');
  assert.deepEqual(broken.problems.map((x) => [x.code, x.file]), [['parse-error', `${broken.root}/dataset.json`]]);
  assert.match(broken.problems[0].message, /^the dataset\.json is cut off at line 1, column 11: .*so it is not valid JSON$/);
  assert.deepEqual(broken.files[1], { key: 'dataset', label: 'Dataset', path: `${broken.root}/dataset.json`, present: true });

  const array = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, meta: ['Eval'], summary: { tasks: [] } }));
  assert.equal(array.label, 'P / ds');
  assert.deepEqual(array.problems.map((x) => [x.code, x.file]), [['schema', `${array.root}/dataset.json`]]);
});

test('identity and recorded: only the names that are strings, only the four aggregates that are there (null included)', async () => {
  const run = await readViewerDataset(nfs, dataset({
    project: { label: 'P', support: { h1: { tier: 'stable' }, h2: { tier: 'beta', caveats: ['slow', 'no tools'] } } },
    summary: { models: ['m1', 3, 'm2'], harnesses: [null], k_max: 1, summary: {}, by_model: null, by_harness: [], other: 1, tasks: [] },
  }));
  assert.deepEqual(run.identity, {
    project: 'proj', project_label: 'P', dataset: 'ds', models: 'm1, m2', harnesses: null, support: 'h1: stable · h2: beta (slow; no tools)',
  });
  assert.deepEqual(run.recorded, { k_max: 1, summary: {}, by_model: null, by_harness: [] });
  assert.deepEqual(run.support, { h1: { tier: 'stable', caveats: [] }, h2: { tier: 'beta', caveats: ['slow', 'no tools'] } });
  assert.deepEqual(codes(run.problems, 'schema').map(([, p]) => p), [['models', 1], ['harnesses', 0], ['by_model']]);
});

test('each attempt field by field: its number, reward, outcome, cell, tier, method and times; what is not an object is skipped', async () => {
  const long = 'q'.repeat(501);
  const run = await readViewerDataset(nfs, dataset({
    project: { label: 'P', support: { h1: { tier: 'stable' }, h2: { tier: 'beta', caveats: ['slow', 'no tools'] }, '': { tier: 'stable' } } },
    summary: {
      tasks: [
        'not a task',
        null,
        {
          index: 7, difficulty: null, difficulty_level: 3, reward_mode: 'exact', question: long, answer: true,
          cells: {
            m1: { passed_at: 'two', attempts: [
              { attempt: 0, reward: 1 },
              'not an attempt',
              { attempt: 2.7, reward: 0.5, reward_method: 'judge', n_turns: 4, elapsed_sec: 1.5 },
              { attempt: '3', reward: null, reward_method: '' },
            ] },
            'm2|h2': { attempts: [{ attempt: 5, reward: 1, n_turns: null }, ['not an attempt'], { attempt: 1, reward: 0 }] },
            'm3|h1': 'not a cell',
            'm5|h1': ['not a cell'],
            'm6|h1': null,
            '|h1': { attempts: [{ attempt: 1, reward: 1 }] },
            'm4|h1|x': { attempts: 'not a list' },
          },
        },
        { id: 'b', index: 'one', question: 'q'.repeat(500), cells: 'none' },
        ['not a task'],
        { id: 'c', cells: ['not cells'] },
      ],
    },
  }));
  assert.equal(run.tasks.length, 3, 'the three tasks that are objects');
  const [t, b, c] = run.tasks;
  assert.deepEqual(c, { id: 'c', label: 'c', attempts: [], details: {} });
  assert.deepEqual({ ...t, attempts: undefined }, {
    id: 'task-2', index: 7, label: 'task-2', attempts: undefined,
    details: { difficulty_level: 3, reward_mode: 'exact', question: `${'q'.repeat(500)}…`, answer: true },
  });
  assert.deepEqual(b, { id: 'b', label: 'b', attempts: [], details: { question: 'q'.repeat(500) } });
  assert.deepEqual(t.attempts, [
    { id: 'task-2#m1#1', index: 0, label: '#1', outcome: 'passed', reward: 1, durationSec: null, nTurns: null, cell: 'm1',
      evidence: [], missing: [], details: { model: 'm1', harness: '', tier: 'stable' } },
    { id: 'task-2#m1#2', index: 1, label: '#2', outcome: 'failed', reward: 0.5, durationSec: 1.5, nTurns: 4, cell: 'm1',
      evidence: [], missing: [], details: { model: 'm1', harness: '', tier: 'stable' }, rewardMethod: 'judge' },
    { id: 'task-2#m1#4', index: 3, label: '#4', outcome: 'infra-error', reward: null, failure: { reason: 'the verifier never ran' },
      durationSec: null, nTurns: null, cell: 'm1', evidence: [], missing: [], details: { model: 'm1', harness: '', tier: 'stable' } },
    { id: 'task-2#m2|h2#5', index: 4, label: '#5', outcome: 'passed', reward: 1, durationSec: null, nTurns: null, cell: 'm2|h2',
      evidence: [], missing: [], details: { model: 'm2', harness: 'h2', tier: 'beta: slow; no tools' } },
    { id: 'task-2#m2|h2#1', index: 0, label: '#1', outcome: 'failed', reward: 0, durationSec: null, nTurns: null, cell: 'm2|h2',
      evidence: [], missing: [], details: { model: 'm2', harness: 'h2', tier: 'beta: slow; no tools' } },
    { id: 'task-2#|h1#1', index: 0, label: '#1', outcome: 'passed', reward: 1, durationSec: null, nTurns: null, cell: '|h1',
      evidence: [], missing: [], details: { model: '', harness: 'h1', tier: 'stable' } },
  ]);
  // passed_at: checked where recorded (a word is recorded as null), not where the cell has none.
  assert.deepEqual(run.problems.filter((x) => x.code === 'aggregate-mismatch').map((x) => [x.jsonPath, x.message]), [
    [['tasks', 2, 'cells', 'm1', 'passed_at'], 'passed_at is recorded as null but the first passing attempt is 1'],
  ]);
  // Key order as written (the CLI's --json prints attempts as they are).
  assert.deepEqual(Object.keys(t.attempts[2]), ['id', 'index', 'label', 'outcome', 'reward', 'failure', 'durationSec', 'nTurns', 'cell', 'evidence', 'missing', 'details']);
  assert.deepEqual(Object.keys(t.attempts[1]), ['id', 'index', 'label', 'outcome', 'reward', 'durationSec', 'nTurns', 'cell', 'evidence', 'missing', 'details', 'rewardMethod']);
  // The schema's word on what was skipped, at each one's path.
  assert.deepEqual(codes(run.problems, 'schema').map(([, p]) => p), [
    ['tasks', 0], ['tasks', 1], ['tasks', 2, 'id'], ['tasks', 2, 'cells', 'm1', 'passed_at'],
    ['tasks', 2, 'cells', 'm1', 'attempts', 0, 'attempt'], ['tasks', 2, 'cells', 'm1', 'attempts', 1],
    ['tasks', 2, 'cells', 'm1', 'attempts', 2, 'attempt'], ['tasks', 2, 'cells', 'm1', 'attempts', 3, 'attempt'],
    ['tasks', 2, 'cells', 'm2|h2', 'attempts', 1], ['tasks', 2, 'cells', 'm3|h1'], ['tasks', 2, 'cells', 'm5|h1'], ['tasks', 2, 'cells', 'm6|h1'],
    ['tasks', 2, 'cells', 'm4|h1|x', 'attempts'], ['tasks', 3, 'index'], ['tasks', 3, 'cells'], ['tasks', 4], ['tasks', 5, 'cells'],
  ]);
});

test('a harness without a tier, or whose tier has no caveats: the attempt says so (no tier key, the bare tier)', async () => {
  const run = await readViewerDataset(nfs, dataset({
    project: { support: { h1: { tier: 'stable' } } },
    summary: { tasks: [{ id: 'a', cells: { 'm|h1': { attempts: [{ attempt: 1, reward: 0 }] }, 'm|h9': { attempts: [{ attempt: 1, reward: 0 }] } } }] },
  }));
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.details), [{ model: 'm', harness: 'h1', tier: 'stable' }, { model: 'm', harness: 'h9' }]);
  assert.equal(run.tasks[0].attempts[0].outcome, 'failed');
  assert.equal('index' in run.tasks[0], false, 'no index in the summary: none on the task');
});

test('a summary.json that is no object (an array, null): no tasks, no aggregates, the schema says why', async () => {
  for (const body of ['[]', 'null', '"text"']) {
    const run = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, summary: body }));
    assert.deepEqual([run.tasks, run.recorded], [[], {}], body);
    assert.deepEqual(run.problems.map((x) => [x.code, x.file]), [['schema', `${run.root}/summary.json`]], body);
    assert.match(run.problems[0].message, /^summary\.json\b.*expected object/, body);
    assert.equal(run.files[2].present, true, body);
  }
  // One that does not parse is there all the same.
  const broken = await readViewerDataset(nfs, dataset({ project: { label: 'P' }, summary: '{ "tasks": [' }));
  assert.deepEqual(broken.problems.map((x) => x.code), ['parse-error']);
  assert.deepEqual(broken.files[2], { key: 'summary', label: 'Summary', path: `${broken.root}/summary.json`, present: true });
});

const A = 'm|h';

test('where each trace is looked for: traces/ by its listing, elsewhere in the dataset by a stat, outside not at all', async () => {
  const d = dataset({
    project: { label: 'P' },
    traces: ['traces/t1.json', 'traces/sub/t2.json', 'other/t3.json', 'traces.json'],
    summary: { tasks: [{ id: 'a', cells: { [A]: { attempts: [
      { attempt: 1, reward: 1, trace: 'traces/t1.json' },
      { attempt: 2, reward: 1, trace: 'traces//t1.json' },
      { attempt: 3, reward: 1, trace: 'traces/./t1.json' },
      { attempt: 4, reward: 1, trace: 'traces/sub/../t1.json' },
      { attempt: 5, reward: 1, trace: 'traces/sub/t2.json' },
      { attempt: 6, reward: 1, trace: 'other/t3.json' },
      { attempt: 7, reward: 1, trace: 'traces.json' },
      { attempt: 8, reward: 1, trace: 'traces/none.json' },
      { attempt: 9, reward: 1, trace: 'other/none.json' },
      { attempt: 10, reward: 1, trace: '' },
      { attempt: 11, reward: 1, trace: 7 },
      { attempt: 12, reward: 1, trace: '/elsewhere/t.json' },
      { attempt: 13, reward: 1, trace: '../ds2/t.json' },
      { attempt: 14, reward: 1, trace: '..' },
    ] } } }] },
  });
  const run = await readViewerDataset(nfs, d);
  const ev = run.tasks[0].attempts.map((a) => a.evidence.map((e) => [e.label, e.path, e.present, e.outside ?? false]));
  assert.deepEqual(ev, [
    [['t1.json', `${d}/traces/t1.json`, true, false]],
    [['t1.json', `${d}/traces/t1.json`, true, false]],
    [['t1.json', `${d}/traces/t1.json`, true, false]],
    [['t1.json', `${d}/traces/t1.json`, true, false]],
    [['t2.json', `${d}/traces/sub/t2.json`, true, false]],
    [['t3.json', `${d}/other/t3.json`, true, false]],
    [['traces.json', `${d}/traces.json`, true, false]],
    [['none.json', `${d}/traces/none.json`, false, false]],
    [['none.json', `${d}/other/none.json`, false, false]],
    [],
    [],
    [['t.json', '/elsewhere/t.json', false, true]],
    [['t.json', `${path.posix.dirname(d)}/ds2/t.json`, false, true]],
    [['datasets', path.posix.dirname(d), false, true]],
  ]);
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.missing.length), [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
  const all = run.tasks[0].attempts.flatMap((a) => a.evidence);
  assert.ok(all.every((e) => e.kind === 'trace' && e.isDir === false), 'each a trace, a file');
  assert.deepEqual(run.tasks[0].attempts[7].evidence[0],
    { kind: 'trace', label: 'none.json', path: `${d}/traces/none.json`, isDir: false, present: false, namedBy: 'summary.json names it' });
  assert.deepEqual(run.tasks[0].attempts[11].evidence[0], { kind: 'trace', label: 't.json', path: '/elsewhere/t.json', isDir: false, present: false, outside: true });
  assert.deepEqual(run.tasks[0].attempts[0].evidence[0], { kind: 'trace', label: 't1.json', path: `${d}/traces/t1.json`, isDir: false, present: true });
  const traceProblems = run.problems.filter((x) => x.code === 'missing-trace' || x.code === 'outside-run');
  assert.deepEqual(traceProblems.map((x) => [x.code, x.jsonPath?.[5]]), [
    ['missing-trace', 7], ['missing-trace', 8], ['outside-run', 11], ['outside-run', 12], ['outside-run', 13],
  ]);
  assert.equal(traceProblems[0].message, `traces/none.json (trace of a ${A} attempt 8) is not on disk`);
  assert.ok(traceProblems.every((x) => x.severity === 'warning' && x.file === `${d}/summary.json` && (x.line ?? 0) > 1));
  assert.match(traceProblems[2].message, /^the trace of a m\|h attempt 12 /);
  assert.deepEqual(run.files[3], { key: 'traces', label: 'Traces', path: `${d}/traces`, present: true, isDir: true });
});

test('a dataset folder named with a trailing slash or through `..`: the same traces found, the same dataset name', async () => {
  const d = dataset({
    project: { label: 'P' }, traces: ['traces/t1.json'],
    summary: { tasks: [{ id: 'a', cells: { [A]: { attempts: [
      { attempt: 1, reward: 1, trace: 'traces/t1.json' }, { attempt: 2, reward: 1, trace: 'traces/t2.json' },
    ] } } }] },
  });
  const parent = path.posix.dirname(d);
  for (const name of [`${d}/`, `${parent}/../datasets/ds`]) {
    const run = await readViewerDataset(nfs, name);
    assert.deepEqual(run.tasks[0].attempts.map((a) => a.evidence.map((e) => [e.path, e.present])),
      [[[`${d}/traces/t1.json`, true]], [[`${d}/traces/t2.json`, false]]], name);
    assert.equal(run.identity.dataset, 'ds', name);
  }
  assert.equal((await readViewerDataset(nfs, `${d}/`)).label, 'P / ds');
});

test('traces/ that is a file: no listing, every trace under it missing', async () => {
  const d = dataset({ project: { label: 'P' }, summary: { tasks: [{ id: 'a', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'traces/t1.json' }] } } }] } });
  write(`${d}/traces`, 'a file');
  const lists: string[] = [];
  const port: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    readDir: (p: string) => { lists.push(p); return nfs.readDir(p); },
    listNames: (p: string) => { lists.push(p); return nfs.listNames(p); },
  });
  const run = await readViewerDataset(port, d);
  assert.deepEqual(run.files[3], { key: 'traces', label: 'Traces', path: `${d}/traces`, present: false, isDir: true });
  assert.deepEqual(run.tasks[0].attempts[0].missing, [`${d}/traces/t1.json`]);
  assert.deepEqual(lists, [], 'a file is not listed');
});

test('traces elsewhere are stat\'ed once each, all after the first pass; traces/ is listed once and never stat\'ed', async () => {
  const d = dataset({
    project: { label: 'P' }, traces: ['traces/t1.json', 'x/t3.json'],
    summary: { tasks: [
      { id: 'a', cells: { [A]: { attempts: [
        { attempt: 1, reward: 1, trace: 'traces/t1.json' }, { attempt: 2, reward: 1, trace: 'x/t3.json' }, { attempt: 3, reward: 1, trace: 'x/gone.json' }] } } },
      { id: 'b', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'x/t3.json' }, { attempt: 2, reward: 1, trace: 'x/gone.json' }] } } },
    ] },
  });
  const stats: string[] = [];
  const lists: string[] = [];
  const port: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    stat: (p: string): Promise<FileStat | undefined> => { stats.push(p); return nfs.stat(p); },
    readDir: (p: string) => { lists.push(`readDir ${p}`); return nfs.readDir(p); },
    listNames: (p: string) => { lists.push(`listNames ${p}`); return nfs.listNames(p); },
  });
  const run = await readViewerDataset(port, d);
  assert.deepEqual(stats.filter((p) => p.includes('/x/')).sort(), [`${d}/x/gone.json`, `${d}/x/t3.json`]);
  assert.equal(stats.filter((p) => p.includes('/traces/')).length, 0);
  // The names only (off this thread where the port can), once.
  assert.deepEqual(lists, [`listNames ${d}/traces`]);
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.evidence[0].present)), [[true, true, false], [true, false]]);
  // Read twice, problems said once each, in document order.
  assert.deepEqual(run.problems.filter((x) => x.code === 'missing-trace').map((x) => x.jsonPath), [
    ['tasks', 0, 'cells', A, 'attempts', 2, 'trace'], ['tasks', 1, 'cells', A, 'attempts', 1, 'trace'],
  ]);
});

test('a big dataset is checked, read and cross-checked in slices of time: a turn of the event loop between tasks', async () => {
  const tasks = Array.from({ length: 300 }, (_, i) => ({
    id: `t${i}`, cells: { 'M|h': { attempts: [{ attempt: 1, reward: i % 2 }], passed_at: i % 2 ? 1 : null } },
  }));
  const d = dataset({ summary: { models: ['M'], harnesses: ['h'], tasks, summary: { tasks_total: 300, attempts_passed: 151 },
    by_model: [{ model: 'M', cells: 300, 'pass@1': 0.5 }] } });
  class CountingSlice extends TimeSlice {
    turns = 0;
    override yield(): Promise<void> { this.turns++; return super.yield(); }
  }
  const sliced = new CountingSlice(0); // every check says a slice is due
  const run = await readViewerDataset(nfs, d, sliced);
  // 300 tasks checked against the schema, 300 read, then the cross-check's pieces.
  assert.ok(sliced.turns >= 600, `${sliced.turns} turns`);
  const whole = await readViewerDataset(nfs, d, new TimeSlice(1e9)); // never due: no turn
  assert.deepEqual(run, whole);
  assert.deepEqual(codes(run.problems, 'aggregate-mismatch'), [['aggregate-mismatch', ['summary', 'attempts_passed']]]);
});

test('traces/ of thousands of files: its names go into the lookup in slices of time, the same traces found with a port that only has readDir', async () => {
  const names = Array.from({ length: 5000 }, (_, i) => `traces/t${i}.json`);
  const d = dataset({ traces: names, summary: { tasks: [{ id: 'a', cells: { [A]: { attempts: [
    { attempt: 1, reward: 1, trace: 'traces/t0.json' }, { attempt: 2, reward: 0, trace: 'traces/t4999.json' }, { attempt: 3, reward: 0, trace: 'traces/t5000.json' },
  ] } } }] } });
  class CountingSlice extends TimeSlice {
    turns = 0;
    override yield(): Promise<void> { this.turns++; return super.yield(); }
  }
  const sliced = new CountingSlice(0);
  const run = await readViewerDataset(nfs, d, sliced);
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.evidence[0].present), [true, true, false]);
  // 5,000 names: a turn after each 1,024 of them (4), beside the turns of the one task's check and read.
  const oneTask = new CountingSlice(0);
  await readViewerDataset(nfs, dataset({ traces: ['traces/t0.json'], summary: { tasks: [{ id: 'a', cells: { [A]: { attempts: [
    { attempt: 1, reward: 1, trace: 'traces/t0.json' }, { attempt: 2, reward: 0, trace: 'traces/t4999.json' }, { attempt: 3, reward: 0, trace: 'traces/t5000.json' },
  ] } } }] } }), oneTask);
  assert.equal(sliced.turns - oneTask.turns, 4);
  const readDirOnly: FsPort = Object.assign(Object.create(nfs) as FsPort, { listNames: undefined });
  assert.deepEqual(await readViewerDataset(readDirOnly, d), await readViewerDataset(nfs, d));
});

test('traces/ is listed while summary.json is read, not after it; the run the same as with a port that lists only when asked', async () => {
  const summary = { tasks: [{ id: 't', cells: { 'm|h': { attempts: [{ attempt: 1, reward: 1, trace: 'traces/a.json' }, { attempt: 2, reward: 0, trace: 'traces/gone.json' }] } } }] };
  const d = dataset({ summary, traces: ['traces/a.json'] });
  const events: string[] = [];
  const port: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    async readFile(p: string) {
      const bytes = await nfs.readFile(p);
      if (p.endsWith('/summary.json')) {
        await new Promise((r) => setTimeout(r, 20)); // a read that takes a while
        events.push('summary read');
      }
      return bytes;
    },
    async listNames(p: string) {
      events.push(`listed ${path.posix.basename(p)}`);
      return nfs.listNames(p);
    },
  });
  const run = await readViewerDataset(port, d);
  assert.deepEqual(events, ['listed traces', 'summary read']);
  assert.deepEqual(run, await readViewerDataset(nfs, d));
  assert.deepEqual(run.tasks[0].attempts.map((a) => a.evidence[0].present), [true, false]);
});

test('a trace elsewhere first named by a later task: the tasks from that one on are read again, the ones before once', async () => {
  const d = dataset({
    traces: ['traces/t1.json', 'x/t3.json'],
    summary: { tasks: [
      { id: 'a', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'traces/t1.json' }, { attempt: 2, reward: 0, trace: 'traces/gone.json' }] } } },
      { id: 'b', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'traces/gone2.json' }] } }, passed_at: 1 },
      { id: 'c', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'x/t3.json' }, { attempt: 2, reward: 1, trace: 'x/gone.json' }] } } },
      { id: 'd', cells: { [A]: { attempts: [{ attempt: 1, reward: 1, trace: 'traces/gone3.json' }, { attempt: 2, reward: 1, trace: 'x/gone.json' }] } } },
    ] },
  });
  const run = await readViewerDataset(nfs, d);
  assert.deepEqual(run.tasks.map((t) => t.id), ['a', 'b', 'c', 'd']);
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.evidence[0].present)), [[true, false], [false], [true, false], [false, false]]);
  assert.deepEqual(run.tasks.map((t) => t.attempts.map((a) => a.missing.length)), [[0, 1], [1], [0, 1], [1, 1]]);
  assert.deepEqual(run.problems.filter((x) => x.code === 'missing-trace').map((x) => x.jsonPath?.slice(1, 2).concat(x.jsonPath.slice(-2, -1))), [
    [0, 1], [1, 0], [2, 1], [3, 0], [3, 1],
  ]);
});
