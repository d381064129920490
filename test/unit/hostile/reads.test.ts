// Item 1 (bounded reads) and item 5 (one bad file costs only itself): a FIFO, a device or a huge file where the data
// names a file is refused without being read (no hang, no memory growth); JSON nested 100,000 deep is one Problem
// naming its file and line, and the rest of the run is still read. Through the core (NodeFs, readers) and the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { isReadRefused } from '../../../src/core/fs/port';
import { readJsonl } from '../../../src/core/jsonl';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { writeRunSummary } from '../../../src/core/summary';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { deepJson, deepObject, makeDeviceLink, makeFifo, makeHuge } from '../../../scripts/sample-runs/mutate';
import { nemoRunWithSummary, runCli, tempDir } from './helpers';

const nfs = new NodeFs();

async function refused(p: Promise<unknown>, code: string): Promise<number> {
  const t0 = performance.now();
  await assert.rejects(p, (e: unknown) => isReadRefused(e) && e.code === code);
  return performance.now() - t0;
}

test('NodeFs: a FIFO, /dev/zero, /dev/stdin (links) and a file over the limit are refused unread, in milliseconds', { timeout: 10_000 }, async () => {
  const dir = tempDir();
  makeFifo(`${dir}/fifo.json`);
  makeDeviceLink(`${dir}/zero.json`);
  makeDeviceLink(`${dir}/stdin.json`, '/dev/stdin');
  makeHuge(`${dir}/huge.json`, 2 * 1024 * 1024 * 1024); // 2 GB, sparse
  for (const f of ['fifo.json', 'zero.json']) {
    assert.ok(await refused(nfs.readFile(`${dir}/${f}`), 'not-a-file') < 1000);
    await refused((async () => { for await (const _ of nfs.readChunks(`${dir}/${f}`)) { /* never */ } })(), 'not-a-file');
    await refused(nfs.openSequential(`${dir}/${f}`), 'not-a-file');
  }
  // /dev/stdin is whatever the test runner gave: a pipe, a terminal or /dev/null, never a regular file.
  await assert.rejects(nfs.readFile(`${dir}/stdin.json`));
  const before = process.memoryUsage().rss;
  assert.ok(await refused(nfs.readFile(`${dir}/huge.json`), 'too-large') < 1000);
  assert.ok(process.memoryUsage().rss - before < 64 << 20, 'refusing a huge file allocated nothing like its size');
  // The limit is the port's, and a caller's bound wins.
  const small = new NodeFs({ maxFileBytes: 10 });
  fs.writeFileSync(`${dir}/eleven.json`, '"123456789"');
  await refused(small.readFile(`${dir}/eleven.json`), 'too-large');
  assert.equal((await nfs.readFile(`${dir}/eleven.json`)).length, 11);
  await refused(nfs.readFile(`${dir}/eleven.json`, { maxBytes: 5 }), 'too-large');
});

test('readJsonl: a line over the limit is one Problem with its line, the lines around it are read; no newline at all stays bounded', { timeout: 10_000 }, async () => {
  const dir = tempDir();
  const f = `${dir}/rows.jsonl`;
  fs.writeFileSync(f, `{"a":1}\n{"big":"${'x'.repeat(5000)}"}\n{"a":3}\n`);
  const small = new NodeFs({ maxFileBytes: 1000 });
  const rows: number[] = [];
  const res = await readJsonl(small, f, (_v, line) => { rows.push(line); }, { chunkSize: 256 });
  assert.deepEqual(rows, [1, 3]);
  assert.deepEqual(res.problems.map((p) => [p.code, p.line]), [['too-large', 2]]);
  fs.writeFileSync(f, 'y'.repeat(20_000));
  const res2 = await readJsonl(small, f, () => { throw new Error('no row'); }, { chunkSize: 256 });
  assert.deepEqual(res2.problems.map((p) => [p.code, p.line]), [['too-large', 1]]);
});

test('CLI inspect: FIFO summary, FIFO quality_summary.json, FIFO viewer summary.json, FIFO rollouts: no hang, exit 0, each one Problem', { timeout: 60_000 }, async () => {
  const run = await nemoRunWithSummary();
  makeFifo(`${run.dir}/quality_summary.json`);
  const r1 = runCli(['inspect', '--json', run.dir]);
  assert.equal(r1.signal, null, `inspect hung on a FIFO quality_summary.json (${r1.ms.toFixed(0)} ms)`);
  assert.equal(r1.code, 0, r1.err);
  makeFifo(run.summary);
  const r2 = runCli(['inspect', '--json', run.dir]);
  assert.equal(r2.signal, null, 'inspect hung on a FIFO run summary');
  assert.equal(r2.code, 0, r2.err);
  const doc = JSON.parse(r2.out) as { runs: { problems: { code: string; file: string }[] }[] };
  assert.ok(doc.runs.some((r) => r.problems.some((p) => p.code === 'not-a-file' && p.file === run.summary)), r2.out.slice(0, 2000));
  makeFifo(run.rollouts);
  const r3 = runCli(['summary', run.rollouts]);
  assert.equal(r3.signal, null, 'summary hung on a FIFO rollouts file');
  assert.notEqual(r3.code, 0, 'a rollouts file that cannot be read is an error');
  const viewer = tempDir('viewer-');
  fs.mkdirSync(`${viewer}/projects/p/datasets/d`, { recursive: true });
  fs.writeFileSync(`${viewer}/projects/p/project.json`, '{"name":"p"}');
  makeFifo(`${viewer}/projects/p/datasets/d/summary.json`);
  const r4 = runCli(['inspect', '--json', viewer]);
  assert.equal(r4.signal, null, 'inspect hung on a FIFO viewer summary.json');
  assert.equal(r4.code, 0, r4.err);
  for (const r of [r1, r2, r3, r4]) assert.ok(r.ms < 15_000, `${r.ms} ms`);
});

test('CLI inspect: a summary that is a link to /dev/zero, and one of 300 MB: bounded memory, exit 0', { timeout: 60_000 }, async () => {
  const run = await nemoRunWithSummary();
  makeDeviceLink(run.summary);
  const r1 = runCli(['inspect', '--json', run.dir]);
  assert.equal(r1.signal, null, 'killed: hang or memory');
  assert.equal(r1.code, 0, r1.err);
  assert.ok(r1.rssMb !== undefined && r1.rssMb < 300, `peak RSS ${r1.rssMb} MB`);
  makeHuge(run.summary, 300 * 1024 * 1024);
  const r2 = runCli(['inspect', '--json', run.dir]);
  assert.equal(r2.code, 0, r2.err);
  assert.ok(r2.rssMb !== undefined && r2.rssMb < 300, `peak RSS ${r2.rssMb} MB`);
  assert.match(r2.out, /"code": "too-large"/);
  // HARBOR_RUNS_MAX_FILE_MB raises (or lowers) the limit for the CLI.
  const r3 = runCli(['inspect', '--json', run.dir], 20_000, { HARBOR_RUNS_MAX_FILE_MB: '0.001' });
  assert.match(r3.out, /over the 0\.001 MB read limit/);
});

test('deep JSON: a 100,000-deep result.json costs only its trial; a deep summary is one Problem with its line', { timeout: 60_000 }, async () => {
  const jobs = tempDir('jobs-');
  const job = await generateHarborJob(jobs, harborEveryCase());
  // result.json is read for every trial (config.json only when the result does not record the config).
  const trial = job.trials.find((t) => fs.existsSync(path.join(job.jobDir, t.name, 'result.json')))!;
  fs.writeFileSync(path.join(job.jobDir, trial.name, 'result.json'), `\n${deepJson(100_000)}`);
  const run = await readHarborJob(nfs, job.jobDir);
  assert.ok(!run.problems.some((p) => p.code === 'reader-failed'), JSON.stringify(run.problems.slice(0, 3)));
  const deep = run.problems.find((p) => p.code === 'too-deep');
  assert.ok(deep, JSON.stringify(run.problems.map((p) => p.code)));
  assert.equal(deep.file, path.join(job.jobDir, trial.name, 'result.json'));
  assert.equal(deep.line, 2);
  const attempts = run.tasks.reduce((n, t) => n + t.attempts.length, 0);
  assert.ok(attempts >= job.trials.length - 1, `${attempts} attempts of ${job.trials.length} trials`);

  const nemo = await nemoRunWithSummary();
  fs.writeFileSync(nemo.summary, `{\n"tasks": ${deepObject(100_000)}}`);
  const r = await readRunSummary(nfs, nemo.summary);
  // The summary's one problem, then the run as its rollouts give it (hostile/brokenSummary.test.ts).
  assert.deepEqual(r.problems.slice(0, 2).map((p) => [p.code, p.line]), [['too-deep', 2], ['read-from-rollouts', undefined]]);
  assert.ok(r.tasks.length > 0);
  const cli = runCli(['inspect', nemo.dir]);
  assert.equal(cli.code, 0, cli.err);
});

test('deep JSON: a 6,000- and a 100,000-deep materialized row cost only their line; the summary keeps every other task', { timeout: 60_000 }, async () => {
  const nemo = await nemoRunWithSummary();
  const mat = `${nemo.dir}/rollouts_materialized_inputs.jsonl`;
  const before = JSON.parse(fs.readFileSync(nemo.summary, 'utf8')) as { tasks: unknown[] };
  const lines = fs.readFileSync(mat, 'utf8').split('\n');
  const row = JSON.parse(lines[0]) as Record<string, unknown>;
  for (const depth of [6_000, 100_000]) {
    const deepRow = JSON.stringify({ ...row, task_input: '@@' }).replace('"@@"', `{"responses_create_params":{"metadata":${deepObject(depth)}}}`);
    fs.writeFileSync(mat, [deepRow, ...lines.slice(1)].join('\n'));
    const w = await writeRunSummary(nfs, nemo.rollouts);
    assert.equal(w.error, undefined);
    const deep = w.problems.find((p) => p.code === 'too-deep');
    assert.ok(deep, JSON.stringify(w.problems.map((p) => p.code)));
    assert.deepEqual([deep.file, deep.line], [mat, 1]);
    const after = JSON.parse(fs.readFileSync(nemo.summary, 'utf8')) as { tasks: unknown[] };
    assert.ok(after.tasks.length >= before.tasks.length - 1, `${after.tasks.length} tasks of ${before.tasks.length}`);
  }
});
