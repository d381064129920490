// A viewer dataset's summary.json read on the summary worker (readers/nemo/summaryDoc.ts with kind 'viewer-summary',
// readers/largeDocs.ts) gives the run it gives read on this thread: the same tasks, attempts and evidence, the same
// problems in the same order with the same lines (schema problems placed on the worker, the cross-check's and the
// traces' placed afterwards), for every generated case, hand-made faults, and files that are not a summary at all.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { readViewerDataset } from '../../../src/core/readers/viewerData';
import { summaryWorkersRunning } from '../../../src/core/readers/nemo/summaryDoc';
import { generateViewerData, viewerEveryCase, viewerLarge } from '../../../scripts/sample-runs/viewerData';
import { setJsonValue } from '../../../scripts/sample-runs/mutate';
import { TimeSlice } from '../../../src/core/turn';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-viewer-worker-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const nfs = new NodeFs();
let n = 0;

const here = (fsp: FsPort, d: string) => readViewerDataset(fsp, d, new TimeSlice(), Infinity);
const onWorker = (fsp: FsPort, d: string) => readViewerDataset(fsp, d, new TimeSlice(), 0);

async function datasetsOf(spec = viewerEveryCase()): Promise<string[]> {
  const res = await generateViewerData(`${tmpRoot}/g${n++}`, spec);
  return Object.values(res.datasets).map((d) => d.split(path.sep).join('/'));
}

/** Summary workers running, once the ones asked to end have exited (terminate() is asynchronous). */
async function exited(): Promise<number> {
  for (let i = 0; i < 100 && summaryWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return summaryWorkersRunning();
}

/** The run read both ways, checked equal; `workers`: how many summary workers ran at once meanwhile. */
async function same(d: string): Promise<{ json: string; workers: number }> {
  const a = await here(nfs, d);
  assert.equal(await exited(), 0);
  let workers = 0;
  const watch = setInterval(() => { workers = Math.max(workers, summaryWorkersRunning()); }, 1);
  const b = await onWorker(nfs, d);
  clearInterval(watch);
  assert.equal(JSON.stringify(b), JSON.stringify(a), d);
  assert.equal(await exited(), 0, 'no summary worker is left running');
  return { json: JSON.stringify(a), workers };
}

test('every generated dataset: the same run read on the worker as on this thread', async () => {
  const ds = await datasetsOf();
  assert.ok(ds.length >= 2);
  for (const d of ds) assert.ok((await same(d)).workers >= 1, `${d}: read on a worker`);
});

test('schema problems, a recorded aggregate that disagrees and a trace that is gone: the same problems at the same lines', async () => {
  const [d] = await datasetsOf(viewerLarge(6));
  const summary = `${d}/summary.json`;
  const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { tasks: { cells: Record<string, unknown> }[] };
  const cell = Object.keys(doc.tasks[2].cells)[0];
  setJsonValue(summary, ['tasks', 2, 'cells', cell, 'attempts', 1, 'reward'], 'one');
  setJsonValue(summary, ['k_max'], 'four');
  setJsonValue(summary, ['tasks', 4, 'cells', cell, 'passed_at'], 3.5);
  setJsonValue(summary, ['tasks', 3, 'cells', cell, 'attempts', 0, 'trace'], 'traces/not-written.json');
  setJsonValue(summary, ['summary', 'tasks_total'], 999);
  const a = await here(nfs, d);
  const b = await onWorker(nfs, d);
  assert.equal(JSON.stringify(b.problems), JSON.stringify(a.problems));
  assert.ok(a.problems.some((p) => p.code === 'schema' && typeof p.line === 'number'), 'a schema problem at its line');
  const codes = new Set(a.problems.map((p) => p.code));
  assert.ok(codes.has('schema'), [...codes].join());
  assert.ok(a.problems.length >= 3, JSON.stringify(a.problems));
  const about = b.problems.filter((p) => p.file === summary && p.jsonPath);
  assert.ok(about.length >= 3);
  for (const p of about) assert.ok(typeof p.line === 'number' && p.line > 1, `${p.code} ${JSON.stringify(p.jsonPath)} has a line`);
  assert.equal(JSON.stringify(b), JSON.stringify(a));
});

test('a summary.json that is not one (an array, a string, broken JSON, empty, gone, a folder): the same answers', async () => {
  const [d] = await datasetsOf(viewerLarge(2));
  const summary = `${d}/summary.json`;
  const seen = new Set<string>();
  for (const text of ['[1, 2]', '"x"', '{"tasks": [1, {"id": 3}], "k_max": 2', '', '{"tasks": "many"}']) {
    fs.writeFileSync(summary, text);
    const r = await same(d);
    assert.ok(r.workers >= 1, `${JSON.stringify(text)}: read on a worker`);
    seen.add(r.json);
  }
  fs.rmSync(summary);
  seen.add((await same(d)).json);
  fs.mkdirSync(summary);
  seen.add((await same(d)).json);
  assert.equal(seen.size, 7, 'each case reads differently');
});

test('a port whose paths Node does not read (a remote workspace) reads summary.json here, with the same run', async () => {
  const [d] = await datasetsOf(viewerLarge(3));
  const remote = Object.create(nfs, { nodeLocal: { value: false } }) as FsPort;
  assert.equal(JSON.stringify(await onWorker(remote, d)), JSON.stringify(await here(nfs, d)));
});
