import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { write } from '../support/files';
import type { FsPort } from '../../src/core/fs/port';
import { discoverRuns, emptyDiscoveryReport } from '../../src/core/discovery';
import { MemFs } from '../../scripts/sample-runs/memFs';
import { excludesFolder, globMatch } from '../../src/core/glob';
import { loadRuns, readCandidate } from '../../src/core/load';
import { makeFifo } from '../../scripts/sample-runs/hostile';

// Every temp folder of this file sits in one, removed after its tests.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-disc-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const nfs = new NodeFs();

test('glob: ** spans segments, * and ? stay within one, a bare pattern matches at any depth', () => {
  const cases: [string, string, boolean][] = [
    ['**/*.jsonl', 'a/b/c.jsonl', true], ['**/*.jsonl', 'c.jsonl', true], ['*.jsonl', 'a/c.jsonl', true],
    ['*.jsonl', 'a/c.json', false], ['a/*', 'a/b', true], ['a/*', 'a/b/c', false], ['a/**', 'a', true],
    ['a/**', 'a/b/c', true], ['a/**', 'ab/c', false], ['a/**/b', 'a/b', true], ['a/**/b', 'a/x/y/b', true],
    ['a/**/b', 'a/x/y/bc', false], ['a?c/x', 'abc/x', true], ['a?c/x', 'a/c/x', false], ['**', 'x/y', true],
    ['x.y', 'xay', false], ['./jobs/*', 'jobs/j1', true], ['jobs/', 'jobs', true], ['(a)+/x', '(a)+/x', true],
    ['**/old/**', 'runs/old/x_run_summary.json', true], ['**/old/**', 'runs/older/x', false],
  ];
  for (const [g, p, want] of cases) assert.equal(globMatch(g, p), want, `${g} ~ ${p}`);
  assert.equal(excludesFolder('**/old/**', 'runs/old'), true);
  assert.equal(excludesFolder('jobs', 'jobs'), true);
  assert.equal(excludesFolder('**/*.json', 'runs'), false);
});

/** A tree with one run of every kind, decoys that are not runs, and places discovery must not look into. */
function makeTree(): string {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-disc-')).split(path.sep).join('/');
  // NeMo Gym with a summary: the rollouts file is not a second run; the verifier folder is not searched.
  write(`${root}/nemo/rollouts.jsonl`);
  write(`${root}/nemo/rollouts_failures.jsonl`);
  write(`${root}/nemo/rollouts_materialized_inputs.jsonl`);
  write(`${root}/nemo/rollouts_run_summary.json`, { files: {} });
  write(`${root}/nemo/verifier/resources-session-1/decoy_run_summary.json`, '{}');
  // NeMo Gym without a summary yet; its sidecars are not runs.
  write(`${root}/nemo2/out.jsonl`);
  write(`${root}/nemo2/out_materialized_inputs.jsonl`);
  write(`${root}/nemo2/out_failures.jsonl`);
  write(`${root}/nemo2/plain.jsonl`);
  // A rollouts file named only by the health check's quality summary.
  write(`${root}/nemo3/named.jsonl`);
  write(`${root}/nemo3/quality_summary.json`, { run: { rollouts: ['named.jsonl'] }, tasks: {} });
  // A Harbor job with one trial.
  write(`${root}/jobs/j1/config.json`, { job_name: 'j1' });
  write(`${root}/jobs/j1/result.json`, { id: 'x' });
  write(`${root}/jobs/j1/t__a/config.json`, { trial_name: 't__a' });
  write(`${root}/jobs/j1/t__a/agent/decoy_run_summary.json`, '{}');
  // Viewer data: a project with a dataset and a training run; a folder without project.json is no project.
  write(`${root}/data/projects/p/project.json`, { label: 'P' });
  write(`${root}/data/projects/p/datasets/d/summary.json`, { tasks: [] });
  write(`${root}/data/projects/p/datasets/d/traces/decoy_run_summary.json`, '{}');
  write(`${root}/data/projects/p/runs/r/run.json`, {});
  write(`${root}/data/projects/q/datasets/d/summary.json`, { tasks: [] });
  // Never searched.
  write(`${root}/node_modules/pkg/x_run_summary.json`, '{}');
  write(`${root}/.git/y_run_summary.json`, '{}');
  write(`${root}/deep/1/2/3/4/5/deep_run_summary.json`, '{}');
  return root;
}

function show(root: string, list: { variant: string; anchor: string; root: string; kind: string }[]) {
  return list.map((c) => [c.variant, path.posix.relative(root, c.anchor)]);
}

test('discovery finds every run of every kind and nothing else', async () => {
  const root = makeTree();
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found), [
    ['dataset', 'data/projects/p/datasets/d/summary.json'],
    ['training', 'data/projects/p/runs/r/run.json'],
    ['summary', 'deep/1/2/3/4/5/deep_run_summary.json'],
    ['job', 'jobs/j1'],
    ['summary', 'nemo/rollouts_run_summary.json'],
    ['rollouts', 'nemo2/out.jsonl'],
    ['rollouts', 'nemo3/named.jsonl'],
  ]);
  const byVariant = Object.fromEntries([...found].reverse().map((c) => [c.variant, c]));
  assert.equal(byVariant.dataset.kind, 'viewer-data');
  assert.equal(byVariant.dataset.root, `${root}/data/projects/p/datasets/d`);
  assert.equal(byVariant.training.root, `${root}/data/projects/p/runs/r`);
  assert.equal(byVariant.job.kind, 'harbor-job');
  assert.equal(byVariant.job.root, `${root}/jobs/j1`);
  assert.equal(byVariant.summary.kind, 'nemo-gym');
  assert.equal(byVariant.rollouts.root, `${root}/nemo2`);
});

test('a rollouts file without a summary is recognised by either sidecar alone', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-sidecar-')).split(path.sep).join('/');
  // Only the failures sidecar (every repeat failed before the materialized inputs were written, or they were removed).
  write(`${root}/only-failures/run.jsonl`);
  write(`${root}/only-failures/run_failures.jsonl`);
  // Only the materialized inputs.
  write(`${root}/only-inputs/run.jsonl`);
  write(`${root}/only-inputs/run_materialized_inputs.jsonl`);
  // A sidecar of another stem names no run here; a lone .jsonl is no run.
  write(`${root}/other-stem/run.jsonl`);
  write(`${root}/other-stem/runs_failures.jsonl`);
  write(`${root}/lone/run.jsonl`);
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found), [['rollouts', 'only-failures/run.jsonl'], ['rollouts', 'only-inputs/run.jsonl']]);
  assert.equal(found[0].kind, 'nemo-gym');
  assert.equal(found[0].root, `${root}/only-failures`);
  // Given as the root itself, the file is a run by its failures sidecar too.
  assert.deepEqual(show(root, await discoverRuns(nfs, `${root}/only-failures/run.jsonl`)), [['rollouts', 'only-failures/run.jsonl']]);
});

test('discovery honours maxDepth', async () => {
  const root = makeTree();
  const found = await discoverRuns(nfs, root, { maxDepth: 3 });
  assert.equal(found.some((c) => c.anchor.includes('/deep/')), false);
  assert.equal(found.some((c) => c.variant === 'job'), true);
});

test('include and exclude globs match paths relative to the root', async () => {
  const root = makeTree();
  const only = await discoverRuns(nfs, root, { include: ['nemo*/**'] });
  assert.deepEqual(show(root, only).map((x) => x[1]), ['nemo/rollouts_run_summary.json', 'nemo2/out.jsonl', 'nemo3/named.jsonl']);
  const jobs = await discoverRuns(nfs, root, { include: ['jobs/*'] });
  assert.deepEqual(show(root, jobs), [['job', 'jobs/j1']]);
  const without = await discoverRuns(nfs, root, { exclude: ['**/data/**', 'deep', '*.jsonl'] });
  assert.deepEqual(show(root, without).map((x) => x[1]), ['jobs/j1', 'nemo/rollouts_run_summary.json']);
});

test('a file given as the root is its own run', async () => {
  const root = makeTree();
  const one = await discoverRuns(nfs, `${root}/nemo/rollouts_run_summary.json`);
  assert.deepEqual(show(root, one), [['summary', 'nemo/rollouts_run_summary.json']]);
  const rollouts = await discoverRuns(nfs, `${root}/nemo/rollouts.jsonl`);
  assert.deepEqual(show(root, rollouts), [['summary', 'nemo/rollouts_run_summary.json']], 'its summary is read instead');
  const viaRollouts = await discoverRuns(nfs, `${root}/nemo2/out.jsonl`);
  assert.deepEqual(show(root, viaRollouts), [['rollouts', 'nemo2/out.jsonl']]);
  assert.deepEqual(await discoverRuns(nfs, `${root}/nope`), []);
});

test('a dataset folder given as the root is found', async () => {
  const root = makeTree();
  const found = await discoverRuns(nfs, `${root}/data/projects/p/datasets/d`);
  assert.deepEqual(show(root, found), [['dataset', 'data/projects/p/datasets/d/summary.json']]);
});

test('discovery reads each folder once and stats nothing for plain folders', async () => {
  const root = makeTree();
  let stats = 0;
  let reads = 0;
  const counting: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    stat: (p: string) => { stats++; return nfs.stat(p); },
    readDir: (p: string) => { reads++; return nfs.readDir(p); },
  });
  await discoverRuns(counting, root);
  // Folders outside node_modules/.git/verifier/traces/trial parts, plus a few confirmations.
  assert.ok(reads < 40, `readDir ${reads}`);
  assert.ok(stats < 10, `stat ${stats}`);
});

test('loadRuns reads every candidate once, sorted; a reader that throws becomes a run with a problem', async () => {
  const root = makeTree();
  const runs = await loadRuns(nfs, [root, root], { exclude: ['jobs/**'] });
  const anchors = runs.map((r) => r.anchor);
  assert.deepEqual(anchors, [...anchors].sort());
  assert.equal(new Set(anchors).size, anchors.length);
  assert.deepEqual(runs.map((r) => r.kind), ['viewer-data', 'viewer-data', 'nemo-gym', 'nemo-gym', 'nemo-gym', 'nemo-gym']);

  const broken: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    stat: () => Promise.reject(new Error('disk on fire')),
    readFile: () => Promise.reject(new Error('disk on fire')),
  });
  const run = await readCandidate(broken, { kind: 'viewer-data', variant: 'dataset', anchor: `${root}/x/summary.json`, root: `${root}/x` });
  assert.equal(run.kind, 'viewer-data');
  assert.equal(run.problems.length, 1);
  assert.equal(run.problems[0].code, 'reader-failed');
  assert.match(run.problems[0].message, /disk on fire/);
});

test('a quality summary names rollouts beside it or in another folder: those without a summary, that are rollouts files, inside the root', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-quality-')).split(path.sep).join('/');
  write(`${root}/q/quality_summary.json`, { run: { rollouts: ['here.jsonl', 'done.jsonl', '../other/there.jsonl', '../other/summarised.jsonl',
    '../other/gone.jsonl', 'here_metrics.jsonl', 7, null, `${root}/abs/abs.jsonl`, '../../outside.jsonl'] } });
  write(`${root}/q/here.jsonl`);
  write(`${root}/q/done.jsonl`);
  write(`${root}/q/done_run_summary.json`, {});
  write(`${root}/q/here_metrics.jsonl`);
  write(`${root}/other/there.jsonl`);
  write(`${root}/other/summarised.jsonl`);
  write(`${root}/other/summarised_run_summary.json`, {});
  write(`${root}/abs/abs.jsonl`);
  write(`${path.dirname(root)}/outside.jsonl`);
  const report = { links: [], linksResolved: true } as import('../../src/core/discovery').DiscoveryReport;
  const found = await discoverRuns(nfs, root, { report });
  assert.deepEqual(show(root, found).map((x) => x.join(' ')), [
    'rollouts abs/abs.jsonl',
    'summary other/summarised_run_summary.json',
    'rollouts other/there.jsonl',
    'summary q/done_run_summary.json',
    'rollouts q/here.jsonl',
  ]);
  assert.equal(found.find((c) => c.anchor.endsWith('there.jsonl'))?.root, `${root}/other`);
  assert.deepEqual(report.links.map((l) => [l.path, l.why]), [[`${path.dirname(root)}/outside.jsonl`, 'outside']],
    'a named file outside the root is reported, not read');

  for (const bad of ['{"run": {"rollouts": "here.jsonl"}}', '{"run": null}', 'null', 'not json']) {
    write(`${root}/q/quality_summary.json`, bad);
    const again = await discoverRuns(nfs, `${root}/q`);
    assert.deepEqual(show(root, again), [['summary', 'q/done_run_summary.json']], bad);
  }
});

test('what discovery does not enter: a trial\'s parts, a NeMo Gym verifier folder, sessions, tool folders; include by the run\'s folder', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-skip-')).split(path.sep).join('/');
  // A trial folder outside a job (no job config above it): its parts hold no runs.
  write(`${root}/trial/result.json`, {});
  write(`${root}/trial/agent/a_run_summary.json`, '{}');
  write(`${root}/trial/artifacts/b_run_summary.json`, '{}');
  write(`${root}/trial/steps/c_run_summary.json`, '{}');
  write(`${root}/trial/user-agent/d_run_summary.json`, '{}');
  write(`${root}/trial/other/e_run_summary.json`, '{}');
  write(`${root}/conf/config.json`, {});
  write(`${root}/conf/verifier/f_run_summary.json`, '{}');
  write(`${root}/conf/agent/g_run_summary.json`, '{}');
  // Without a run in the folder, a verifier folder is searched.
  write(`${root}/plain/verifier/h_run_summary.json`, '{}');
  write(`${root}/nemo/x_run_summary.json`, '{}');
  write(`${root}/nemo/verifier/i_run_summary.json`, '{}');
  write(`${root}/nemo/resources-session-2/j_run_summary.json`, '{}');
  write(`${root}/nemo/.venv/k_run_summary.json`, '{}');
  write(`${root}/nemo/__pycache__/l_run_summary.json`, '{}');
  write(`${root}/_run_summary.json`, '{}'); // a bare suffix names no run
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found).map((x) => x[1]), [
    'nemo/x_run_summary.json', 'plain/verifier/h_run_summary.json', 'trial/other/e_run_summary.json',
  ]);
  const byFolder = await discoverRuns(nfs, root, { include: ['plain/verifier'] });
  assert.deepEqual(show(root, byFolder).map((x) => x[1]), ['plain/verifier/h_run_summary.json'], 'the run\'s folder matches');
  const one = await discoverRuns(nfs, root, { concurrency: 1 });
  assert.deepEqual(one, found, 'one folder at a time finds the same');
  const zero = await discoverRuns(nfs, root, { concurrency: 0 });
  assert.deepEqual(zero, found, 'concurrency 0 is taken as 1');
});

test('a file given as the root: summary.json is a dataset, run.json a training run, result.json of a job its job, anything else nothing', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-file-')).split(path.sep).join('/');
  write(`${root}/d/summary.json`, {});
  write(`${root}/t/run.json`, {});
  write(`${root}/j/config.json`, { job_name: 'j' });
  write(`${root}/j/result.json`, {});
  write(`${root}/j/t__1/config.json`, { trial_name: 't__1' });
  write(`${root}/notjob/result.json`, {});
  write(`${root}/x/readme.txt`, 'hi');
  const one = async (p: string) => (await discoverRuns(nfs, `${root}/${p}`)).map((c) => [c.variant, c.kind, path.posix.relative(root, c.anchor), path.posix.relative(root, c.root)]);
  assert.deepEqual(await one('d/summary.json'), [['dataset', 'viewer-data', 'd/summary.json', 'd']]);
  assert.deepEqual(await one('t/run.json'), [['training', 'viewer-data', 't/run.json', 't']]);
  assert.deepEqual(await one('j/result.json'), [['job', 'harbor-job', 'j', 'j']]);
  assert.deepEqual(await one('j/config.json'), [['job', 'harbor-job', 'j', 'j']]);
  assert.deepEqual(await one('notjob/result.json'), []);
  assert.deepEqual(await one('x/readme.txt'), []);
});

test('viewer data needs projects/<p>/datasets|runs/<x> and the project\'s project.json (a file), asked once per project', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-viewer-')).split(path.sep).join('/');
  write(`${root}/projects/p/project.json`, {});
  write(`${root}/projects/p/datasets/d1/summary.json`, {});
  write(`${root}/projects/p/datasets/d2/summary.json`, {});
  write(`${root}/projects/p/runs/r1/run.json`, {});
  write(`${root}/projects/p/runs/r2/summary.json`, {}); // a summary under runs/ is no dataset
  write(`${root}/projects/p/datasets/d3/run.json`, {}); // a run.json under datasets/ is no training run
  write(`${root}/projects/p/other/d4/summary.json`, {});
  write(`${root}/projects/dirproj/project.json/x`, '');
  write(`${root}/projects/dirproj/datasets/d/summary.json`, {});
  write(`${root}/notprojects/p/project.json`, {});
  write(`${root}/notprojects/p/datasets/d/summary.json`, {});
  const asked: string[] = [];
  const counting: FsPort = Object.assign(Object.create(nfs) as FsPort, {
    stat: (p: string) => { if (p.endsWith('/project.json')) asked.push(p); return nfs.stat(p); },
  });
  const found = await discoverRuns(counting, root);
  assert.deepEqual(show(root, found), [
    ['dataset', 'projects/p/datasets/d1/summary.json'],
    ['dataset', 'projects/p/datasets/d2/summary.json'],
    ['training', 'projects/p/runs/r1/run.json'],
  ]);
  assert.deepEqual(asked.sort(), [`${root}/projects/dirproj/project.json`, `${root}/projects/p/project.json`]);
});

test('a project.json there but not a regular file (a FIFO): the project\'s runs are still found, and reading says so', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-viewer-fifo-')).split(path.sep).join('/');
  write(`${root}/projects/p/datasets/d/summary.json`, { tasks: [] });
  makeFifo(`${root}/projects/p/project.json`);
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found), [['dataset', 'projects/p/datasets/d/summary.json']]);
  const run = await readCandidate(nfs, found[0]);
  assert.deepEqual(run.problems.filter((p) => p.file === `${root}/projects/p/project.json`).map((p) => p.code), ['not-a-file']);
});

test('how a skipped link and the folder cap read', async () => {
  const { describeCap, describeLink } = await import('../../src/core/discovery');
  assert.equal(describeLink('/w', { path: '/w', target: '/elsewhere', why: 'outside' }), '. is a link to /elsewhere, outside /w: not followed');
  assert.equal(describeLink('/w', { path: '/w/a/l', target: '/w/b', why: 'inside' }), 'a/l is a link to /w/b: read there, once');
  assert.equal(describeCap({ maxDirs: 50_000, notRead: 1 }), 'stopped after 50,000 folders: 1 folder found (and what is below them) not read');
  assert.equal(describeCap({ maxDirs: 2, notRead: 1234 }), 'stopped after 2 folders: 1,234 folders found (and what is below them) not read');
});

test('edges of discovery: a job with only one of its files, nothing below a job, trial parts only beside agent/verifier, sidecars of metrics, bounds', async () => {
  const { emptyDiscoveryReport } = await import('../../src/core/discovery');
  assert.deepEqual(emptyDiscoveryReport(), { links: [], linksResolved: true });
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-edges-')).split(path.sep).join('/');
  write(`${root}/jc/config.json`, { job_name: 'jc' }); // a job still running: no result.json yet
  write(`${root}/jc/t__1/config.json`, { trial_name: 't__1' });
  write(`${root}/jc/logs/inner_run_summary.json`, '{}'); // nothing below a job is another run
  write(`${root}/jr/result.json`, {});
  write(`${root}/jr/t__1/config.json`, { trial_name: 't__1' });
  write(`${root}/jr/readme.txt`, 'not a job file');
  write(`${root}/nt/config.json`, {}); // a config.json without agent/ or verifier/ beside it: its artifacts are searched
  write(`${root}/nt/artifacts/a_run_summary.json`, '{}');
  write(`${root}/m/train_metrics.jsonl`);
  write(`${root}/m/train_metrics_failures.jsonl`);
  write(`${root}/d1/d2/deep_run_summary.json`, '{}');
  const found = await discoverRuns(nfs, root);
  assert.deepEqual(show(root, found).map((x) => x.join(' ')), ['summary d1/d2/deep_run_summary.json', 'job jc', 'job jr', 'summary nt/artifacts/a_run_summary.json']);
  assert.deepEqual(show(root, await discoverRuns(nfs, `${root}/jr/readme.txt`)), [], 'a job\'s other files are no job');
  // maxDepth counts folder levels below the root: d1/d2 is level 2.
  assert.equal((await discoverRuns(nfs, root, { maxDepth: 2 })).some((c) => c.anchor.includes('/d2/')), true);
  assert.equal((await discoverRuns(nfs, root, { maxDepth: 1 })).some((c) => c.anchor.includes('/d2/')), false);
  // maxDirs: only that many folders are read.
  write(`${root}/../hr-cap/a/x_run_summary.json`, '{}');
  const cap = path.posix.resolve(`${root}/../hr-cap`);
  assert.deepEqual(await discoverRuns(nfs, cap, { maxDirs: 1 }), []);
  assert.equal((await discoverRuns(nfs, cap, { maxDirs: 2 })).length, 1);
  // A file given as the root: include / exclude match it by its name.
  assert.equal((await discoverRuns(nfs, `${root}/d1/d2/deep_run_summary.json`, { include: ['deep_run_summary.json'] })).length, 1);
  assert.equal((await discoverRuns(nfs, `${root}/d1/d2/deep_run_summary.json`, { exclude: ['*.json'] })).length, 0);
});

test('a rollouts file found twice (named by a quality summary and by its sidecar) is one run; runs and links come sorted by path', async () => {
  const root = fs.mkdtempSync(path.join(tmpRoot, 'hr-twice-')).split(path.sep).join('/');
  write(`${root}/z/quality_summary.json`, { run: { rollouts: ['../a/b/r.jsonl', '../../outside.jsonl'] } });
  write(`${root}/a/b/r.jsonl`);
  write(`${root}/a/b/r_failures.jsonl`);
  write(`${root}/y/s_run_summary.json`, '{}');
  write(`${path.dirname(root)}/outside.jsonl`);
  fs.mkdirSync(`${root}/c/d`, { recursive: true });
  fs.symlinkSync(`${root}/y`, `${root}/x-link`);
  fs.symlinkSync(`${root}/y`, `${root}/c/d/a-link`);
  const found = await discoverRuns(nfs, root); // no report asked for: links and outside files are still not followed
  assert.deepEqual(show(root, found), [['rollouts', 'a/b/r.jsonl'], ['summary', 'y/s_run_summary.json']]);
  const report = { links: [], linksResolved: true } as import('../../src/core/discovery').DiscoveryReport;
  await discoverRuns(nfs, root, { report });
  assert.deepEqual(report.links.map((l) => [path.posix.relative(root, l.path), l.why]),
    [['c/d/a-link', 'inside'], ['x-link', 'inside'], ['../outside.jsonl', 'outside']], 'by absolute path');
  // The root reached through a link: its folders are not taken for links.
  fs.symlinkSync(root, `${root}-via`);
  const via = await discoverRuns(nfs, `${root}-via`);
  assert.deepEqual(via.map((c) => path.posix.relative(`${root}-via`, c.anchor)), ['a/b/r.jsonl', 'y/s_run_summary.json']);
});

test('the root "/" (a file system that resolves links): every folder is read at its own path, none is taken for a link', async () => {
  const m = new MemFs();
  m.put('/d/x_run_summary.json', '{}');
  m.put('/d/e/y_run_summary.json', '{}');
  const same = Object.assign(m.clone(), { realpath: async (p: string) => p });
  const report = emptyDiscoveryReport();
  assert.deepEqual((await discoverRuns(same, '/', { report })).map((c) => c.anchor), ['/d/e/y_run_summary.json', '/d/x_run_summary.json']);
  assert.deepEqual(report.links, []);
  // The root's folders are one level below it: /d/e is level 2, and "/", /d and /d/e are three folders read.
  const bounded = emptyDiscoveryReport();
  assert.deepEqual((await discoverRuns(same, '/', { report: bounded, maxDepth: 2, maxDirs: 3 })).map((c) => c.anchor), ['/d/e/y_run_summary.json', '/d/x_run_summary.json']);
  assert.equal(bounded.capped, undefined);
  // A root that is a link to "/": folders below it are where the link puts them.
  const viaLink = Object.assign(m.clone(), {
    realpath: async (p: string) => (p === '/top' ? '/' : p.startsWith('/top/') ? p.slice(4) : p),
  });
  viaLink.put('/top/d/x_run_summary.json', '{}');
  const r2 = emptyDiscoveryReport();
  assert.deepEqual((await discoverRuns(viaLink, '/top', { report: r2 })).map((c) => c.anchor), ['/top/d/x_run_summary.json']);
  assert.deepEqual(r2.links, []);
});

test('maxDirs: discovery stops after that many folders and says how many it found and did not read', async () => {
  const m = new MemFs();
  for (const d of ['a', 'b', 'c']) m.put(`/r/${d}/x_run_summary.json`, '{}');
  m.put('/r/a/deeper/y_run_summary.json', '{}');
  for (const concurrency of [1, 8]) {
    const report = emptyDiscoveryReport();
    // The root and a are read; b, c and a/deeper are found and not read.
    assert.deepEqual((await discoverRuns(m, '/r', { report, maxDirs: 2, concurrency })).map((c) => c.anchor), ['/r/a/x_run_summary.json']);
    assert.deepEqual(report.capped, { maxDirs: 2, notRead: 3 }, `concurrency ${concurrency}`);
  }
  const all = emptyDiscoveryReport();
  assert.equal((await discoverRuns(m, '/r', { report: all, maxDirs: 5 })).length, 4);
  assert.equal(all.capped, undefined, 'five folders, five read: nothing left');
});
