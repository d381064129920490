// A large run summary is parsed and validated on a worker thread, its tasks sent back in slices, and the problems
// found afterwards placed at their lines by a worker that reads the file again (src/core/readers/nemo/summaryDoc.ts): the run is the same,
// byte for byte (problems' lines, columns and key order included), as the one read on this thread, for a good
// summary, one with schema issues and missing evidence, one that does not parse and one that is not an object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { openSummaryDocument, placeDeferred, readSummaryDocument, summaryDocWorkerFile, summaryWorkersRunning } from '../../../src/core/readers/nemo/summaryDoc';
import { locate, readJsonDocument } from '../../../src/core/readers/jsonFile';
import { LARGE_DOCS } from '../../../src/core/readers/largeDocs';
import type { Problem } from '../../../src/core/model';
import { writeRunSummary } from '../../../src/core/summary';
import { generateNemoRun, nemoEveryCase, nemoLarge } from '../../../scripts/sample-runs/nemoGym';

type Obj = Record<string, unknown>;

/** `p`, or a failure after 20 s (a read left waiting on a worker fails the case, not the runner's timeout). */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: still waiting after 20 s`)), 20_000); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A generated run of `tasks` tasks × 2 repeats and its written summary, in a temp folder removed after `body`. */
async function withWrittenRun(tasks: number,
  body: (w: { root: string; nfs: NodeFs; written: Awaited<ReturnType<typeof writeRunSummary>> }) => Promise<void>): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-summarydoc-')).split(path.sep).join('/');
  try {
    const nfs = new NodeFs();
    const gen = await generateNemoRun(`${root}/run`, nemoLarge(tasks, 2, 0));
    await body({ root, nfs, written: await writeRunSummary(nfs, gen.rolloutsPath.split(path.sep).join('/'), {}) });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('a summary read on the worker thread gives the run read on this thread (problems placed at the same lines)', async () => {
  assert.ok(summaryDocWorkerFile(), 'out/summaryDocWorker.js is built');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-summarydoc-')).split(path.sep).join('/');
  try {
    const nfs = new NodeFs();
    const dir = `${root}/results/harbor/tb-mini`;
    const gen = await generateNemoRun(dir, { ...nemoEveryCase(), originalRoot: '/home/dev/gym/results/harbor/tb-mini' });
    const written = await writeRunSummary(nfs, gen.rolloutsPath.split(path.sep).join('/'), { skipped: gen.skipped, identity: gen.identity });
    assert.equal(written.error, undefined);
    const good = fs.readFileSync(written.path, 'utf8');
    const doc = JSON.parse(good) as Obj;
    const tasks = doc.tasks as Obj[];
    ((tasks[0].repeats as Obj[])[0]).reward = '1'; // a schema issue, placed by the worker
    ((tasks[1].repeats as Obj[])[0]).test_stdout = 'nowhere/test-stdout.txt'; // missing evidence, placed after the slices
    const cases: [string, string][] = [
      ['good', good],
      ['schema issue and missing evidence', JSON.stringify(doc, null, 2)],
      ['not JSON', good.slice(0, good.length >> 1)],
      ['not an object', '[1, 2]'],
    ];
    for (const [what, text] of cases) {
      fs.writeFileSync(written.path, text);
      const here = await readRunSummary(nfs, written.path, Infinity);
      const there = await readRunSummary(nfs, written.path, 0); // on the worker: any size
      assert.equal(JSON.stringify(there), JSON.stringify(here), what);
      if (what === 'schema issue and missing evidence') {
        const placed = here.problems.filter((p) => p.code === 'schema' || p.code === 'missing-evidence');
        assert.ok(placed.length >= 2 && placed.every((p) => typeof p.line === 'number' && p.line > 1), 'problems have their lines');
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a summary of many tasks comes back whole, in order, across several slices', async () => {
  await withWrittenRun(700, async ({ nfs, written }) => {
    const here = await readRunSummary(nfs, written.path, Infinity);
    const there = await readRunSummary(nfs, written.path, 0);
    assert.equal(there.tasks.length, 700);
    assert.equal(JSON.stringify(there), JSON.stringify(here));
  });
});

test('problems are placed by reading the file again, only while it is the text that was parsed; the worker has ended by then', async () => {
  await withWrittenRun(450, async ({ nfs, written }) => {
    const text = fs.readFileSync(written.path, 'utf8');
    const paths: (string | number)[][] = [['tasks', 449, 'repeats', 1, 'reward'], ['files'], ['tasks', 0]];
    const here = await readJsonDocument(nfs, written.path, 'run summary');
    const expected = paths.map((p) => locate(here, p));
    assert.ok(expected.every((p) => p && p.line > 1));
    const problem = (jsonPath: (string | number)[]): Problem => ({ file: written.path, jsonPath, severity: 'warning', code: 'x', message: 'x' });

    // A worker left running keeps its thread (and the 40 MB it read) alive: every summary worker must exit once its
    // answer is in (within a few seconds: terminate() is asynchronous).
    const exited = async (): Promise<number> => {
      for (let i = 0; i < 100 && summaryWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      return summaryWorkersRunning();
    };
    assert.equal(await exited(), 0);
    let seen = 0;
    const watch = setInterval(() => { seen = Math.max(seen, summaryWorkersRunning()); }, 1);
    const { doc, validated } = await readSummaryDocument(nfs, written.path, 0);
    clearInterval(watch);
    assert.ok(validated && doc.placeLater, 'read on the worker');
    assert.equal(seen, 1, 'one summary worker ran while the document was read');
    assert.equal(await exited(), 0, 'the summary worker has ended once the document is whole');
    const same = paths.map(problem);
    await placeDeferred(doc, same);
    assert.equal(await exited(), 0, 'the placing worker has ended once the places are in');
    assert.deepEqual(same.map((p) => p.line === undefined ? undefined : { line: p.line, column: p.column }), expected);
    assert.deepEqual(Object.keys(same[0]), ['file', 'line', 'column', 'jsonPath', 'severity', 'code', 'message']);

    const again = await readSummaryDocument(nfs, written.path, 0);
    fs.writeFileSync(written.path, `\n${text}`); // changed after it was parsed: its lines are not the ones read
    const changed = paths.map(problem);
    await placeDeferred(again.doc, changed);
    assert.deepEqual(changed.map((p) => p.line), [undefined, undefined, undefined]);
  });
});

test('a summary worker that fails, throws as it starts or exits without answering: the document is read on this thread, the same', async () => {
  await withWrittenRun(20, async ({ root, nfs, written }) => {
    const here = await readSummaryDocument(nfs, written.path, Infinity);
    assert.equal(here.validated, false);
    // `failed` and `odd` keep listening, as a worker that failed midway does: it runs until it is ended.
    const workers = {
      failed: "require('node:worker_threads').parentPort.on('message', () => require('node:worker_threads').parentPort.postMessage({ kind: 'failed', message: 'no' }));",
      throws: "throw new Error('a worker that cannot start');",
      exits: "require('node:worker_threads').parentPort.once('message', () => process.exit(3));",
      odd: "require('node:worker_threads').parentPort.on('message', () => require('node:worker_threads').parentPort.postMessage({ kind: 'surprise' }));",
      unstartable: undefined, // a path Node refuses to start a worker from: the constructor throws
    };
    for (const [name, code] of Object.entries(workers)) {
      const file = code === undefined ? `${name}.js` : `${root}/${name}.js`;
      if (code !== undefined) fs.writeFileSync(file, code);
      const got = await within(readSummaryDocument(nfs, written.path, 0, file), name);
      assert.equal(got.validated, false, `${name}: read on this thread`);
      assert.deepEqual(got.doc, here.doc, `${name}: the same document`);
    }
    for (let i = 0; i < 100 && summaryWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(summaryWorkersRunning(), 0, 'no failed worker is left running');
  });
});

test('a placing worker that fails, throws as it starts, exits without answering, answers oddly or cannot start: the problems are placed on this thread, at the same lines', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-summarydoc-')).split(path.sep).join('/');
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => { unhandled.push(e); };
  process.on('unhandledRejection', onUnhandled);
  try {
    const nfs = new NodeFs();
    const gen = await generateNemoRun(`${root}/run`, nemoLarge(20, 2, 0));
    const written = await writeRunSummary(nfs, gen.rolloutsPath.split(path.sep).join('/'), {});
    const paths: (string | number)[][] = [['tasks', 19, 'repeats', 1, 'reward'], ['files'], ['tasks', 3]];
    const here = await readJsonDocument(nfs, written.path, 'run summary');
    const expected = paths.map((p) => locate(here, p));
    assert.ok(expected.every((p) => p && p.line > 1), 'each path is in the file');
    const problem = (jsonPath: (string | number)[]): Problem => ({ file: written.path, jsonPath, severity: 'warning', code: 'x', message: 'x' });
    const port = "require('node:worker_threads').parentPort";
    // `failed` and `odd` keep listening: the placing worker runs until it is ended.
    const workers: Record<string, string | undefined> = {
      failed: `${port}.on('message', () => ${port}.postMessage({ kind: 'failed', message: 'no' }));`,
      throws: "throw new Error('a placing worker that cannot start');",
      exits: `${port}.once('message', () => process.exit(3));`,
      odd: `${port}.on('message', () => ${port}.postMessage({ kind: 'surprise' }));`,
      unstartable: undefined, // a path Node refuses to start a worker from: the constructor throws
    };
    for (const [name, code] of Object.entries(workers)) {
      const file = code === undefined ? `${name}.js` : `${root}/${name}.js`;
      if (code !== undefined) fs.writeFileSync(file, code);
      const { doc, validated } = await readSummaryDocument(nfs, written.path, 0, undefined, file);
      assert.ok(validated && doc.placeLater, `${name}: the summary itself was read on the worker`);
      const placed = paths.map(problem);
      await within(placeDeferred(doc, placed), name);
      assert.deepEqual(placed.map((p) => p.line === undefined ? undefined : { line: p.line, column: p.column }), expected, `${name}: placed on this thread`);
      assert.deepEqual(Object.keys(placed[0]), ['file', 'line', 'column', 'jsonPath', 'severity', 'code', 'message'], `${name}: key order`);
      for (let i = 0; i < 100 && summaryWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(summaryWorkersRunning(), 0, `${name}: no worker left running`);
    }
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('from the worker the document comes with its head, the tasks as they are sent; a worker that stops midway: the rest read on this thread', async () => {
  await withWrittenRun(6, async ({ root, nfs, written }) => {
    const doc = JSON.parse(fs.readFileSync(written.path, 'utf8')) as Obj;
    const tasks = doc.tasks as Obj[];
    ((tasks[4].repeats as Obj[])[1]).reward = '1'; // a schema issue in a task the worker never sends
    fs.writeFileSync(written.path, JSON.stringify(doc, null, 2));
    const here = await readSummaryDocument(nfs, written.path, Infinity);
    const schema = await LARGE_DOCS['nemo-summary'].schemaProblems(here.doc);
    assert.equal(schema.length, 1);
    // A worker that sends the head and the first two tasks, and exits when asked for more.
    const head = JSON.stringify({ kind: 'head', ok: true, problems: [], value: { ...doc, tasks: undefined }, tasks: tasks.length });
    const first = JSON.stringify(JSON.stringify(tasks.slice(0, 2)));
    const file = `${root}/midway.js`;
    fs.writeFileSync(file, `const { parentPort } = require('node:worker_threads');
let asks = 0;
parentPort.on('message', (m) => {
  if (m.path) return parentPort.postMessage(${head});
  if (++asks === 1) return parentPort.postMessage({ kind: 'tasks', bytes: Buffer.from(${first}), ends: [Buffer.byteLength(${first})] });
  process.exit(3);
});`);
    const opened = await within(openSummaryDocument(nfs, written.path, 0, file), 'open');
    assert.ok(opened.validated && opened.feed, 'from the worker, with the tasks still coming');
    const list = (opened.doc.value as Obj).tasks as unknown[];
    assert.deepEqual({ ...opened.doc.value as Obj, tasks: undefined }, { ...doc, tasks: undefined }, 'the head');
    assert.equal(list.length, 0, 'no task parsed before one is wanted');
    assert.equal(await within(opened.feed.more(), 'first slice'), true);
    assert.deepEqual(list, tasks.slice(0, 2));
    assert.equal(await within(opened.feed.more(), 'the rest'), true);
    assert.deepEqual(list, tasks, 'the rest read on this thread, from where the slices stopped');
    assert.equal(await opened.feed.more(), false);
    const late = await opened.feed.late();
    assert.deepEqual(late, schema, 'the schema\'s problems, at their lines');
    const paths = [['tasks', 5, 'repeats', 0], ['files']];
    assert.deepEqual(await opened.doc.placeLater!(paths), paths.map((p) => locate(here.doc, p)));
    for (let i = 0; i < 100 && summaryWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(summaryWorkersRunning(), 0);
  });
});

test('a reader of the feed: every task, and the schema\'s problems, as one read on this thread', async () => {
  await withWrittenRun(300, async ({ nfs, written }) => {
    const doc = JSON.parse(fs.readFileSync(written.path, 'utf8')) as Obj;
    ((doc.tasks as Obj[])[250].repeats as Obj[])[0].reward = '1';
    fs.writeFileSync(written.path, JSON.stringify(doc, null, 2));
    const here = await readSummaryDocument(nfs, written.path, Infinity);
    const opened = await openSummaryDocument(nfs, written.path, 0);
    assert.ok(opened.feed);
    assert.deepEqual(opened.doc.problems, [], 'the head: no schema problem yet');
    const list = (opened.doc.value as Obj).tasks as unknown[];
    let slices = 0;
    while (await opened.feed.more()) slices++;
    assert.ok(slices >= 2, `${slices} slices`);
    assert.deepEqual(list, doc.tasks);
    const schema = await LARGE_DOCS['nemo-summary'].schemaProblems(here.doc);
    assert.equal(schema.length, 1);
    assert.deepEqual(await opened.feed.late(), schema, 'placed in the text read again');
  });
});
