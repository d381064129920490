// The run of a NeMo Gym run summary (src/core/readers/runSummary.ts) on small summaries in a temp folder: the label and
// identity from what the summary names, the run files and stale files checked on disk, which rollouts file is the
// run's, the health verdicts of a file that is still the run's, missing_paths, the task_source check, a run still
// being written, a summary built in memory, the writer's own problems, the temp files a killed writer left.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem, Run } from '../../../src/core/model';
import { parseJsonDocument } from '../../../src/core/readers/jsonFile';
import { readNemoRollouts, readRunSummary, runFromSummaryDocument, runFromWrittenSummary } from '../../../src/core/readers/runSummary';
import { outsideMessage } from '../../../src/core/containment';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-runsummary-units-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const nfs = new NodeFs();
let counter = 0;

type Obj = Record<string, unknown>;

function folder(): string {
  const d = `${tmpRoot}/run-${++counter}`;
  fs.mkdirSync(d, { recursive: true });
  return d;
}
function put(file: string, text = ''): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
/** A summary file in a new folder (with the given other files), read. */
async function read(summary: Obj, files: Record<string, string> = {}, name = 'out_run_summary.json'): Promise<{ dir: string; file: string; run: Run }> {
  const dir = folder();
  for (const [rel, text] of Object.entries(files)) put(`${dir}/${rel}`, text);
  const file = `${dir}/${name}`;
  put(file, JSON.stringify(summary, null, 2));
  return { dir, file, run: await readRunSummary(nfs, file) };
}
const codes = (run: Run) => run.problems.map((p) => p.code);

test('the label: taskset, else the dataset\'s name, else the target, else the file\'s stem; then the agent', async () => {
  const label = async (s: Obj, name?: string) => (await read({ files: {}, ...s }, {}, name)).run.label;
  assert.equal(await label({ taskset: 'ts', dataset: { name: 'ds' }, target: 'tg', agent: 'ag' }), 'ts · ag');
  assert.equal(await label({ dataset: { name: 'ds' }, target: 'tg', agent: 'ag' }), 'ds · ag');
  assert.equal(await label({ target: 'tg' }), 'tg');
  assert.equal(await label({}), 'out');
  assert.equal(await label({ agent: 'ag' }), 'out · ag');
  assert.equal(await label({ taskset: '' , agent: 'ag' }), 'ag', 'an empty taskset is none');
  assert.equal(await label({}, 'results.json'), 'results.json', 'a name without the summary suffix is its own stem');
  assert.equal(await label({}, 'x_run_summary.json.bak'), 'x_run_summary.json.bak');
  assert.equal(await label({}, '_run_summary.json'), '', 'nothing to name it by');
});

test('the identity: the dataset as name@version, its source, the task sources, the schema version as text', async () => {
  const { run } = await read({ files: {}, schema_version: 2, target: 'harbor:x@1', taskset: 'x', agent: 'a',
    dataset: { name: 'ds', version: '1.0', source: 'hub' }, task_source: 'ts1', result_task_source: 'ts1' });
  assert.deepEqual(run.identity, { target: 'harbor:x@1', taskset: 'x', agent: 'a', dataset: 'ds@1.0', dataset_source: 'hub',
    task_source: 'ts1', result_task_source: 'ts1', schema_version: '2' });
  const bare = (await read({ files: {}, dataset: { name: 'ds' } })).run.identity;
  assert.deepEqual(bare, { target: null, taskset: null, agent: null, dataset: 'ds', dataset_source: null, task_source: null, result_task_source: null });
  assert.equal((await read({ files: {}, dataset: { version: '1.0' } })).run.identity.dataset, null);
  assert.equal((await read({ files: {}, dataset: 'ds' })).run.identity.dataset, null);
  assert.equal((await read({ files: {}, schema_version: '1.1' })).run.identity.schema_version, '1.1');
});

test('run files: null, gone, a folder, outside the run; a missing one is a warning at its files entry', async () => {
  const { dir, file, run } = await read({
    files: { rollouts: 'out.jsonl', failures: 'gone_failures.jsonl', run_config: null, artifacts_dir: 'arts', elsewhere: '../other.jsonl' },
  }, { 'out.jsonl': '', 'arts/x': '' });
  assert.deepEqual(run.files, [
    { key: 'rollouts', label: 'Rollouts', path: `${dir}/out.jsonl`, present: true },
    { key: 'failures', label: 'Failures sidecar', path: `${dir}/gone_failures.jsonl`, present: false },
    { key: 'run_config', label: 'Run config', path: null, present: false },
    { key: 'artifacts_dir', label: 'Artifacts dir', path: `${dir}/arts`, present: true, isDir: true },
    { key: 'elsewhere', label: 'Elsewhere', path: path.posix.dirname(dir) + '/other.jsonl', present: false, outside: true },
  ]);
  const ps = run.problems.filter((p) => p.code !== 'schema');
  assert.deepEqual(ps.map((p) => [p.file, p.jsonPath, p.severity, p.code, p.message]), [
    [file, ['files', 'failures'], 'warning', 'missing-file', 'gone_failures.jsonl (failures sidecar) is listed by the run summary but is no longer on disk'],
    [file, ['files', 'elsewhere'], 'warning', 'outside-run', outsideMessage('files.elsewhere', '../other.jsonl', dir)],
  ]);
  assert.ok(ps.every((p) => typeof p.line === 'number' && p.line > 1));
  assert.equal(run.rolloutsPath, `${dir}/out.jsonl`);
});

test('stale files: each replaces its key\'s null entry, present or gone, outside flagged; a warning each', async () => {
  const { dir, file, run } = await read({
    files: { rollouts: null, failures: null, run_config: null },
    stale_files: { rollouts: 'out.jsonl', failures: 'gone_failures.jsonl', rows: '../far.jsonl' },
  }, { 'out.jsonl': '' });
  assert.deepEqual(run.files, [
    { key: 'run_config', label: 'Run config', path: null, present: false },
    { key: 'rollouts', label: 'Rollouts (stale)', path: `${dir}/out.jsonl`, present: true, stale: true },
    { key: 'failures', label: 'Failures sidecar (stale)', path: `${dir}/gone_failures.jsonl`, present: false, stale: true },
    { key: 'rows', label: 'Prepared rows (stale)', path: `${path.posix.dirname(dir)}/far.jsonl`, present: false, stale: true, outside: true },
  ]);
  assert.deepEqual(run.problems.map((p) => [p.file, p.jsonPath, p.code, p.message]), [
    [file, ['stale_files', 'rollouts'], 'stale-file', 'out.jsonl was left by an earlier run under this run\'s name: its rows are not this run\'s'],
    [file, ['stale_files', 'failures'], 'stale-file', 'gone_failures.jsonl was left by an earlier run under this run\'s name: its rows are not this run\'s'],
    [file, ['stale_files', 'rows'], 'outside-run', outsideMessage('stale_files.rows', '../far.jsonl', dir)],
  ]);
  assert.ok(run.problems.every((p) => p.severity === 'warning' && typeof p.line === 'number'));
  assert.equal(run.rolloutsPath, `${dir}/out.jsonl`, 'a stale rollouts file is not the run\'s: the name beside the summary');
});

test('the run\'s rollouts file: the one the summary lists beside it, else the name beside the summary', async () => {
  const sub = await read({ files: { rollouts: 'sub/r.jsonl' } }, { 'sub/r.jsonl': '' });
  assert.equal(sub.run.rolloutsPath, `${sub.dir}/out.jsonl`, 'not beside the summary: not the one the writer rewrites');
  const outside = await read({ files: { rollouts: '../r.jsonl' } });
  assert.equal(outside.run.rolloutsPath, `${outside.dir}/out.jsonl`);
  const other = await read({ files: { failures: 'f.jsonl', rollouts: 'r.jsonl' } }, { 'r.jsonl': '', 'f.jsonl': '' });
  assert.equal(other.run.rolloutsPath, `${other.dir}/r.jsonl`);
  const gone = await read({ files: { rollouts: 'r.jsonl' } });
  assert.equal(gone.run.rolloutsPath, `${gone.dir}/r.jsonl`, 'listed beside it, even when gone');
  const plain = await read({ files: {} }, {}, 'plain.json');
  assert.equal(plain.run.rolloutsPath, `${plain.dir}/plain.jsonl`);
});

const VERDICTS = JSON.stringify({ _ng_task_index: 0, _ng_rollout_index: 0, verdict: 'unhealthy', findings: [{ check: 'c' }] }) + '\n';
const ONE_TASK = [{ task_id: 'a', task_index: 0, repeats: [{ repeat: 0, outcome: 'scored', reward: 1 }] }];

test('health verdicts only from a verdicts file that is listed, present and not stale', async () => {
  const health = async (s: Obj, files: Record<string, string>) => (await read({ tasks: ONE_TASK, ...s }, files)).run.tasks[0].attempts[0].health;
  assert.deepEqual(await health({ files: { rollout_verdicts: 'v.jsonl' } }, { 'v.jsonl': VERDICTS }), { verdict: 'unhealthy', checks: ['c'] });
  assert.equal(await health({ files: { rollout_verdicts: 'v.jsonl' } }, {}), undefined);
  assert.equal(await health({ files: { rollout_verdicts: null }, stale_files: { rollout_verdicts: 'v.jsonl' } }, { 'v.jsonl': VERDICTS }), undefined);
  assert.equal(await health({ files: { other: 'v.jsonl' } }, { 'v.jsonl': VERDICTS }), undefined);
  // a verdicts file with a bad line: its problem is the run's
  const { run } = await read({ tasks: ONE_TASK, files: { rollout_verdicts: 'v.jsonl' } }, { 'v.jsonl': `${VERDICTS}{oops\n` });
  assert.ok(run.problems.some((p) => p.file.endsWith('/v.jsonl')));
});

test('missing_paths: one error each, naming the attempt whose row names it, else "a result row"; outside and non-text entries skipped', async () => {
  const { dir, file, run } = await read({
    files: {},
    missing_paths: ['v/s0', 'v/lost', 7, '', '../outside'],
    tasks: [{ task_id: 'a', task_index: 0, repeats: [{ repeat: 0, outcome: 'scored', reward: 1, missing: ['v/s0'] }] }],
  });
  assert.deepEqual(run.problems.filter((p) => p.code === 'missing-path').map((p) => [p.file, p.jsonPath, p.severity, p.message]), [
    [file, ['missing_paths', 0], 'error', 'v/s0 is named by the result row of a #1 but is not on disk'],
    [file, ['missing_paths', 1], 'error', 'v/lost is named by a result row but is not on disk'],
  ]);
  assert.deepEqual(run.tasks[0].attempts[0].missing, [`${dir}/v/s0`]);
});

test('task_source: a warning only when both are named and differ', async () => {
  const mismatch = async (s: Obj) => (await read({ files: {}, ...s })).run.problems.filter((p) => p.code === 'task-source-mismatch');
  const [p] = await mismatch({ task_source: 'a', result_task_source: 'b' });
  assert.deepEqual([p.jsonPath, p.severity, p.message], [['result_task_source'], 'warning',
    'the result rows carry task_source "b" but the run was materialized with "a": another run may have written the results file']);
  assert.deepEqual(await mismatch({ task_source: 'a', result_task_source: 'a' }), []);
  assert.deepEqual(await mismatch({ task_source: 'a' }), []);
  assert.deepEqual(await mismatch({ result_task_source: 'b' }), []);
});

test('unvalidated and skipped are read; a schema issue is a warning unless the document was validated already or is our own', async () => {
  const s = { files: {}, unvalidated: { t1: 'NO_REFERENCE_SOLUTION' }, skipped: [{ task_id: 't2', reason: 'gone' }], target: 5 };
  const { run } = await read(s);
  assert.deepEqual(run.unvalidated, [{ taskId: 't1', reason: 'NO_REFERENCE_SOLUTION' }]);
  assert.deepEqual(run.skipped, [{ taskId: 't2', reason: 'gone' }]);
  assert.deepEqual(run.problems.map((p) => [p.code, p.jsonPath, p.severity]), [['schema', ['target'], 'warning']]);
  assert.equal(run.problems[0].message, "run summary .target: Invalid input: expected string, received number");
  const dir = folder();
  const summaryPath = `${dir}/x_run_summary.json`;
  const doc = () => parseJsonDocument(summaryPath, JSON.stringify(s), 'run summary');
  for (const flag of [{ ownWriter: true as const }, { validated: true as const }]) {
    const r = await runFromSummaryDocument(nfs, doc(), { summaryPath, anchor: summaryPath, virtual: false, ...flag });
    assert.deepEqual(codes(r), [], JSON.stringify(flag));
  }
  const checked = await runFromSummaryDocument(nfs, doc(), { summaryPath, anchor: summaryPath, virtual: false });
  assert.deepEqual(codes(checked), ['schema']);
});

test('a problem "incomplete-tail" among the run\'s (a run still writing its rows): the run is running; the builder\'s problems come first', async () => {
  const dir = folder();
  const summaryPath = `${dir}/x_run_summary.json`;
  const tail: Problem = { file: `${dir}/x.jsonl`, line: 3, severity: 'warning', code: 'incomplete-tail', message: 'cut off' };
  const doc = parseJsonDocument(summaryPath, JSON.stringify({ files: { failures: 'gone.jsonl' } }), 'run summary');
  const r = await runFromSummaryDocument(nfs, doc, { summaryPath, anchor: summaryPath, virtual: false, extraProblems: [tail] });
  assert.equal(r.state, 'running');
  assert.deepEqual(codes(r), ['incomplete-tail', 'missing-file']);
  const other = await runFromSummaryDocument(nfs, parseJsonDocument(summaryPath, '{"files": {}}', 'run summary'),
    { summaryPath, anchor: summaryPath, virtual: false, extraProblems: [{ ...tail, code: 'parse-error' }] });
  assert.equal(other.state, 'complete');
  // a summary that does not parse, or is not an object: an empty run, the builder's problems first
  const broken = await runFromSummaryDocument(nfs, parseJsonDocument(summaryPath, '{', 'run summary'),
    { summaryPath, anchor: summaryPath, virtual: false, extraProblems: [tail] });
  assert.deepEqual([codes(broken), broken.state, broken.tasks, broken.files], [['incomplete-tail', 'parse-error'], 'complete', [], []]);
  const list = await runFromSummaryDocument(nfs, parseJsonDocument(summaryPath, '[]', 'run summary'),
    { summaryPath, anchor: summaryPath, virtual: true, extraProblems: [tail] });
  assert.deepEqual(codes(list), ['incomplete-tail', 'schema']);
  assert.equal(list.problems[1].message, 'the run summary is not a JSON object');
  assert.deepEqual([list.problems[1].severity, list.problems[1].file], ['error', summaryPath]);
  const here = await runFromSummaryDocument(nfs, parseJsonDocument(summaryPath, '[]', 'run summary'), { summaryPath, anchor: summaryPath, virtual: false });
  assert.deepEqual(here.problems, [{ file: summaryPath, line: 1, column: 1, jsonPath: [], severity: 'error', code: 'schema', message: 'the run summary is not a JSON object' }]);
  assert.equal(list.summaryIsVirtual, true);
});

test('a summary built in memory: its problems keep their file but no place; a missing path the builder named is not said twice', async () => {
  const dir = folder();
  const summaryPath = `${dir}/x_run_summary.json`;
  const rolloutsPath = `${dir}/x.jsonl`;
  const s = { files: { failures: 'gone.jsonl' }, missing_paths: ['v/s0', 'v/s1'] };
  const doc = { ...parseJsonDocument(rolloutsPath, JSON.stringify(s, null, 2), 'run summary'), path: rolloutsPath };
  const builder: Problem = { file: rolloutsPath, line: 2, severity: 'error', code: 'missing-path', message: 'v/s0 is not on disk' };
  // another problem of the builder that names v/s1 is not its missing-path problem: v/s1 is still said
  const other: Problem = { file: `${dir}/y.jsonl`, line: 4, severity: 'warning', code: 'x', message: 'x names v/s1' };
  const r = await runFromSummaryDocument(nfs, doc, { summaryPath, anchor: rolloutsPath, virtual: true, rolloutsPath, extraProblems: [builder, other] });
  assert.deepEqual(r.problems, [builder, other,
    { file: rolloutsPath, severity: 'warning', code: 'missing-file', message: 'gone.jsonl (failures sidecar) is listed by the run summary but is no longer on disk' },
    { file: rolloutsPath, severity: 'error', code: 'missing-path', message: 'v/s1 is named by a result row but is not on disk' },
  ]);
  // a problem of another file found while reading (the verdicts file's bad line) keeps its line
  put(`${dir}/v.jsonl`, '{oops\n');
  const withVerdicts = { ...parseJsonDocument(rolloutsPath, JSON.stringify({ files: { rollout_verdicts: 'v.jsonl' } }), 'run summary'), path: rolloutsPath };
  const rv = await runFromSummaryDocument(nfs, withVerdicts, { summaryPath, anchor: rolloutsPath, virtual: true, rolloutsPath });
  const vp = rv.problems.filter((p) => p.file === `${dir}/v.jsonl`);
  assert.equal(vp.length, 1);
  assert.equal(vp[0].line, 1);
  assert.equal(r.summaryIsVirtual, true);
  assert.equal(r.rolloutsPath, rolloutsPath);
  assert.equal(r.anchor, rolloutsPath);
  assert.equal(r.id, `nemo-gym:${rolloutsPath}`);
  // written to disk (not virtual): every missing path is said, at its place
  const onDisk = await runFromSummaryDocument(nfs, parseJsonDocument(summaryPath, JSON.stringify(s, null, 2), 'run summary'),
    { summaryPath, anchor: summaryPath, virtual: false, extraProblems: [builder] });
  assert.deepEqual(onDisk.problems.filter((p) => p.code === 'missing-path' && p.file === summaryPath).map((p) => p.jsonPath), [['missing_paths', 0], ['missing_paths', 1]]);
  assert.equal(onDisk.summaryIsVirtual, undefined);
});

test('a rollouts file that cannot be read: an empty virtual run with the one problem', async () => {
  const dir = folder();
  put(`${dir}/x.jsonl`, '{}\n');
  // a read that fails half-way (a disk error): the rows cannot be read
  const failing = Object.assign(Object.create(nfs) as FsPort, {
    openSequential: undefined,
    readChunks: async function* () { yield new Uint8Array(0); throw new Error('EIO: i/o error'); },
  });
  const r = await readNemoRollouts(failing, `${dir}/x.jsonl`);
  assert.deepEqual({ ...r, problems: r.problems.map((p) => [p.file, p.severity, p.code]) }, {
    id: `nemo-gym:${dir}/x.jsonl`, kind: 'nemo-gym', root: dir, anchor: `${dir}/x.jsonl`, label: 'x_run_summary.json', identity: {}, state: 'complete',
    files: [], problems: [[`${dir}/x.jsonl`, 'error', 'unreadable']], unvalidated: [], skipped: [], tasks: [],
    summaryPath: `${dir}/x_run_summary.json`, rolloutsPath: `${dir}/x.jsonl`, summaryIsVirtual: true,
  });
  assert.match(r.problems[0].message, /^cannot read /);
  // any other failure of the port is not a problem of the run: it is the caller's
  const broken = Object.assign(Object.create(nfs) as FsPort, { realpathDirs: () => Promise.reject(new TypeError('port broken')) });
  await assert.rejects(readNemoRollouts(broken, `${dir}/x.jsonl`), /port broken/);
});

test('out of date: only the listed rollouts or failures file that is present and not stale, more than 2 s after the summary', async () => {
  const { dir, file } = await read({ files: { rollouts: 'out.jsonl', failures: 'f.jsonl', rows: 'rows.jsonl' }, stale_files: { failures: 'old.jsonl' } },
    { 'out.jsonl': '', 'f.jsonl': '', 'rows.jsonl': '', 'old.jsonl': '' });
  const t = 1787400000;
  const at = (rel: string, s: number) => fs.utimesSync(`${dir}/${rel}`, s, s);
  at('out_run_summary.json', t);
  at('out.jsonl', t + 2);
  at('f.jsonl', t + 2);
  at('rows.jsonl', t + 100);
  at('old.jsonl', t + 100);
  let run = await readRunSummary(nfs, file);
  assert.equal(run.summaryOutdated, undefined, 'exactly 2 s later is not "after"');
  at('f.jsonl', t + 2.5);
  run = await readRunSummary(nfs, file);
  assert.equal(run.summaryOutdated, true);
  assert.deepEqual(run.problems.filter((p) => p.code === 'summary-outdated').map((p) => [p.jsonPath, p.message]), [
    [['files', 'failures'], 'f.jsonl changed after this summary was written: rows added since are not in it (Write Run Summary updates it)']]);
  // a summary that is not on disk (read from memory): never out of date
  const r = await runFromSummaryDocument(nfs, parseJsonDocument(`${dir}/none_run_summary.json`, JSON.stringify({ files: { rollouts: 'out.jsonl' } }), 'run summary'),
    { summaryPath: `${dir}/none_run_summary.json`, anchor: `${dir}/none_run_summary.json`, virtual: false });
  assert.equal(r.summaryOutdated, undefined);
});

test('the temp files a killed writer left beside the summary are removed by a read, unless the port cannot remove', async () => {
  const dir = folder();
  const summary = `${dir}/out_run_summary.json`;
  put(summary, '{"files": {}}');
  const dead = `${dir}/.out_run_summary.json.999999999.abc.tmp`;
  const deadRollouts = `${dir}/.out_run_summary.json.999999998.abc.tmp`;
  put(dead, 'half');
  const readOnly = Object.assign(Object.create(nfs) as FsPort, { remove: undefined });
  await readRunSummary(readOnly, summary);
  assert.equal(fs.existsSync(dead), true, 'a read-only port leaves it');
  await readRunSummary(nfs, summary);
  assert.equal(fs.existsSync(dead), false);
  // a rollouts file read without a summary: the summary's temp files too
  put(`${dir}/out.jsonl`, '');
  put(deadRollouts, 'half');
  await readNemoRollouts(nfs, `${dir}/out.jsonl`);
  assert.equal(fs.existsSync(deadRollouts), false);
  // a port whose remove fails: the read goes on
  put(dead, 'half');
  const failing = Object.assign(Object.create(nfs) as FsPort, { remove: () => Promise.reject(new Error('EPERM')) });
  const r = await readRunSummary(failing, summary);
  assert.deepEqual(r.problems, []);
});

test('runFromWrittenSummary: the writer\'s problems but its missing paths of this summary; each verifier folder from the document\'s paths', async () => {
  const dir = folder();
  const summaryPath = `${dir}/out_run_summary.json`;
  put(`${dir}/v/s0/test-stdout.txt`, 'ok');
  put(`${dir}/v/s0/ctrf.json`, JSON.stringify({ results: { tests: [{ name: 'bad', status: 'failed' }] } }));
  put(`${dir}/v/s1/x`, '');
  put(`${dir}/v/s4/sub/ctrf.json`, '{}');
  put(`${path.posix.dirname(dir)}/out/ctrf.json`, '{}'); // where ../out would be
  const document = {
    files: {}, missing_paths: ['v/s2'],
    tasks: [{ task_id: 'a', task_index: 0, repeats: [
      { repeat: 0, outcome: 'scored', reward: 0, verifier_logs: 'v/s0', test_stdout: 'v/s0/test-stdout.txt', reward_file: 'v/s0/sub/reward.txt' },
      { repeat: 1, outcome: 'scored', reward: 0, verifier_logs: 'v/s1', trajectory: 'v/s1/trajectory.json', artifacts: 'v/s1/artifacts' },
      { repeat: 2, outcome: 'scored', reward: 0, verifier_logs: null, missing: ['v/s2'] },
      { repeat: 3, outcome: 'scored', reward: 0, verifier_logs: '../out' },
      // a file in a subfolder is not one of the folder's own: v/s4 holds no ctrf.json
      { repeat: 4, outcome: 'scored', reward: 0, verifier_logs: 'v/s4', test_stdout: 'v/s4/sub/ctrf.json' },
    ] }],
  };
  const text = JSON.stringify(document, null, 2);
  put(summaryPath, text);
  const problems: Problem[] = [
    { file: summaryPath, severity: 'error', code: 'missing-path', message: 'v/s2 is not on disk' },
    { file: `${dir}/out.jsonl`, severity: 'error', code: 'missing-path', message: 'other file' },
    { file: summaryPath, severity: 'warning', code: 'duplicate-row', message: 'dup' },
  ];
  const stats: string[] = [];
  const port = Object.assign(Object.create(nfs) as FsPort, {
    stat: (p: string) => { stats.push(p); return nfs.stat(p); },
    gather: (l: readonly string[], r: readonly { path: string; maxBytes: number }[], s: readonly string[] = []) => { stats.push(...s); return nfs.gather(l, r, s); },
    readDir: () => { throw new Error('no listing expected'); },
    listDirs: () => { throw new Error('no listing expected'); },
  });
  const run = await runFromWrittenSummary(port, { path: summaryPath, document, bytes: new TextEncoder().encode(text), problems }, `${dir}/out.jsonl`);
  assert.deepEqual(run.problems.slice(0, 2), problems.slice(1));
  assert.deepEqual(run.problems.map((p) => p.code), ['missing-path', 'duplicate-row', 'missing-evidence', 'outside-run', 'missing-path']);
  assert.deepEqual(run.tasks[0].attempts[4].evidence.map((e) => [e.kind, e.present]), [['verifier-logs', true], ['test-stdout', true]]);
  const a = run.tasks[0].attempts;
  assert.deepEqual(a[0].evidence.map((e) => [e.kind, e.present]), [['verifier-logs', true], ['ctrf', true], ['test-stdout', true], ['reward-file', false]]);
  assert.deepEqual(a[0].evidence[1].failedTests, [{ name: 'bad' }]);
  // the listing says what the writer found: trajectory and artifacts named there (the writer saw them), no ctrf.json
  assert.deepEqual(a[1].evidence.map((e) => [e.kind, e.present]), [['verifier-logs', true], ['trajectory', true], ['artifacts', true]]);
  assert.equal(a[1].evidence[2].isDir, true);
  assert.equal(run.rolloutsPath, `${dir}/out.jsonl`);
  assert.ok(stats.includes(`${dir}/v/s0/ctrf.json`), 'the ctrf.json of each folder is asked');
  assert.ok(!stats.includes(`${path.posix.dirname(dir)}/out/ctrf.json`), 'a folder outside the run is not asked about');
  const missing = run.problems.filter((p) => p.code === 'missing-path');
  assert.deepEqual(missing.map((p) => [p.file, p.jsonPath, p.message]), [
    [`${dir}/out.jsonl`, undefined, 'other file'],
    [summaryPath, ['missing_paths', 0], 'v/s2 is named by the result row of a #3 but is not on disk']]);
  assert.equal(typeof missing[1].line, 'number');
});
