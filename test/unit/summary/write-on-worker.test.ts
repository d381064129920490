// "Write Run Summary" writes on a worker thread where the files are Node's (summary/writeOnWorker.ts): the file,
// problems and counts must be those of a write on this thread, the run it sends back the run built here from the
// document in memory, and a cancelled, failing or vanished worker an error result, never a throw or a half-written file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SLICE_CHARS } from '../../../src/core/jsonSlices';
import { countRun } from '../../../src/core/model';
import { runFromWrittenSummary } from '../../../src/core/readers/runSummary';
import { writeRunSummary } from '../../../src/core/summary';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { factsOf, serveWrite, writeRunSummaryOnWorker, writerWorkerFile, writerWorkersRunning, type WriterAsk, type WriterJob, type WriterMsg } from '../../../src/core/summary/writeOnWorker';
import { buildRun, padRolloutsTo, type MiniRepeat, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';
import { assertSlicedBySize } from '../../support/slices';

const TASKS: MiniTask[] = [
  { id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', mode: 'separate', files: ['test-stdout.txt', 'reward.json', 'artifacts/'] }] },
  { id: 'b', repeats: [{ outcome: 'scored', folder: 'absent' }, { outcome: 'failed' }, { outcome: 'scored', reward: 0, files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }, { outcome: 'masked' }] },
  { id: 'c', repeats: [{ outcome: 'scored', files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }] },
];

/** Asserts that every writer worker has exited (within 5 s): each one left running would hold a run's memory. */
async function noWorkerLeft(what: string): Promise<void> {
  for (let i = 0; i < 100 && writerWorkersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(writerWorkersRunning(), 0, `${what}: no writer worker left running`);
}

test('the worker bundle is built (out/summaryWriterWorker.js)', () => {
  assert.ok(writerWorkerFile());
});

test('writeRunSummaryOnWorker: the bytes, problems and counts of a write on this thread; the run it sends is the one built from memory here', async () => {
  const dir = tmpDir('on-worker');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const here = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  assert.equal(here.error, undefined);
  const summary = here.path;
  const fromMemory = await runFromWrittenSummary(nodeFs, { path: summary, document: here.document, bytes: here.bytes!, problems: here.problems }, rollouts);
  for (const showRun of [true, false]) {
    fs.rmSync(summary);
    let progress = 0;
    const w = await writeRunSummaryOnWorker(rollouts, { onProgress: () => { progress++; }, showRun });
    assert.ok(w, 'written on the worker');
    const { facts } = w;
    assert.equal(facts.error, undefined);
    assert.equal(facts.path, summary);
    assert.deepEqual(fs.readFileSync(summary), Buffer.from(here.bytes!), 'the same bytes');
    assert.deepEqual(facts.problems, here.problems);
    assert.deepEqual(facts, factsOf(here), 'factsOf is what the worker sends');
    assert.ok(progress >= 1, 'progress crosses to the caller');
    // No temp file is left beside it.
    assert.deepEqual(fs.readdirSync(path.dirname(summary)).filter((n) => n.endsWith('.tmp')), []);
    // The notification's numbers (said before the run is shown) are the run's.
    assert.deepEqual([facts.tasks, facts.attempts, facts.missingPaths], [fromMemory.tasks.length, countRun(fromMemory).total, 1]);
    const sent = await w.run();
    await noWorkerLeft(`showRun ${showRun}`);
    if (!showRun) { assert.equal(sent, undefined, 'no run unless asked'); continue; }
    assert.ok(sent, 'the run is sent');
    // Everything the run shows, as built here from the document in memory (its problems placed at the same lines).
    assert.deepEqual(sent, JSON.parse(JSON.stringify(fromMemory)));
    assert.ok(sent.problems.some((p) => p.code === 'missing-path' && typeof p.line === 'number' && p.line > 1), 'placed at a line of the summary');
  }
});

test('writeRunSummaryOnWorker: a run of more tasks than one message holds comes back whole and in order', async () => {
  const dir = tmpDir('on-worker-many');
  const tasks: MiniTask[] = Array.from({ length: 450 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, repeats: [{ outcome: 'scored' }] }));
  const rollouts = posix(buildRun(dir, { tasks }));
  const w = await writeRunSummaryOnWorker(rollouts, { showRun: true });
  const sent = await w!.run();
  assert.deepEqual(sent?.tasks.map((t) => t.id), tasks.map((t) => t.id));
  assert.equal(countRun(sent!).total, 450);
  await noWorkerLeft('450 tasks');
});

test('writeRunSummaryOnWorker: cancelled before it starts, nothing is written and an earlier summary is left as it was', async () => {
  const dir = tmpDir('on-worker-cancel');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const summary = rollouts.replace(/\.jsonl$/, '_run_summary.json');
  fs.writeFileSync(summary, '{"earlier": true}\n');
  const ac = new AbortController();
  ac.abort(new Error('cancelled'));
  const w = await writeRunSummaryOnWorker(rollouts, { signal: ac.signal, showRun: true });
  assert.equal(w?.facts.error, 'cancelled');
  assert.equal(await w?.run(), undefined);
  assert.equal(fs.readFileSync(summary, 'utf8'), '{"earlier": true}\n');
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  await noWorkerLeft('cancelled');
});

test('writeRunSummaryOnWorker: a worker that fails to load or stops without answering is an error result, not a throw', async () => {
  const dir = tmpDir('on-worker-broken');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const throwing = path.join(dir, 'throws.js');
  fs.writeFileSync(throwing, 'throw new Error("no writer here");\n');
  const failed = (await writeRunSummaryOnWorker(rollouts, { workerFile: throwing, showRun: true }))!;
  assert.match(failed.facts.error ?? '', /the summary writer failed: no writer here/);
  assert.deepEqual(failed.facts.problems, [{ file: rollouts, severity: 'error', code: 'write-failed', message: failed.facts.error }]);
  assert.equal(await failed.run(), undefined);
  // A worker that says it failed (writerWorker.ts posts this when the write throws), then keeps listening.
  const saying = path.join(dir, 'says-failed.js');
  fs.writeFileSync(saying, "const { parentPort } = require('node:worker_threads');\n"
    + "parentPort.on('message', () => parentPort.postMessage({ kind: 'failed', message: 'disk on fire' }));\n");
  const said = (await writeRunSummaryOnWorker(rollouts, { workerFile: saying, showRun: true }))!;
  assert.equal(said.facts.error, 'the summary writer failed: disk on fire');
  assert.equal(await said.run(), undefined);
  await noWorkerLeft('a worker that said it failed');
  const exiting = path.join(dir, 'exits.js');
  fs.writeFileSync(exiting, 'process.exit(3);\n');
  const stopped = await writeRunSummaryOnWorker(rollouts, { workerFile: exiting });
  assert.match(stopped?.facts.error ?? '', /stopped \(exit code 3\) before it answered/);
  assert.equal(fs.existsSync(rollouts.replace(/\.jsonl$/, '_run_summary.json')), false, 'nothing written');
  await noWorkerLeft('failing workers');
  // No worker bundle: undefined, and the caller writes on its own thread.
  assert.equal(await writeRunSummaryOnWorker(rollouts, { workerFile: '' }), undefined);
});

test('writeRunSummaryOnWorker: a run it refuses (no run there) is the same error as on this thread', async () => {
  const dir = tmpDir('on-worker-none');
  const rollouts = posix(path.join(dir, 'nothing.jsonl'));
  const here = await writeRunSummary(nodeFs, rollouts);
  const facts = (await writeRunSummaryOnWorker(rollouts, { showRun: true }))?.facts;
  assert.equal(facts?.error, here.error);
  assert.match(facts?.error ?? '', /no run at/);
  assert.deepEqual(facts?.problems, here.problems);
  assert.deepEqual([facts?.tasks, facts?.attempts, facts?.missingPaths], [0, 0, 0]);
});

// The worker's side (serveWrite), driven on this thread through the two functions the worker gives it: what it posts,
// in what order, and that each slice of the written run waits for the caller to ask for it.
class Served {
  readonly posted: WriterMsg[] = [];
  private answer: (m: WriterAsk) => void = () => undefined;
  readonly done: Promise<void>;
  constructor(job: WriterJob) {
    this.done = serveWrite(job, (m) => this.posted.push(m), (f) => { this.answer = f; });
  }
  ask(m: WriterAsk = { kind: 'more' }): void { this.answer(m); }
  kinds(): string[] { return this.posted.map((m) => m.kind); }
  /** Waits until `n` messages are posted, then a little longer, so that a message posted too early is seen. */
  async settle(n: number): Promise<void> {
    for (let i = 0; i < 2000 && this.posted.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * The written run of `rollouts` as this thread builds it, and a slice budget that cuts its tasks into `n` (2 or 3)
 * slices: each of the first n - 1 slices ends at or just past the whole's 1/n, so the last holds the rest, no more than
 * one share (tasks far smaller than a share).
 */
async function writtenHere(rollouts: string, n: number) {
  const here = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  const run = await runFromWrittenSummary(nodeFs, { path: here.path, document: here.document, bytes: here.bytes!, problems: here.problems }, rollouts);
  const total = run.tasks.reduce((a, t) => a + JSON.stringify(t).length + 1, 0);
  return { here, run, budget: n === 2 ? Math.ceil(total / 2) : Math.floor(total / n) };
}

test('serveWrite: the facts of a write on this thread, then the run in slices cut by size, each sent only when asked, then the end', async () => {
  const dir = tmpDir('serve-write');
  const tasks: MiniTask[] = Array.from({ length: 130 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, repeats: [{ outcome: 'scored' }] }));
  const rollouts = posix(buildRun(dir, { tasks }));
  // 128 tasks in two slices: the end follows the second slice, no empty third one; an ask that comes before
  // the run is ready is kept.
  const even = posix(buildRun(tmpDir('serve-write-even'), { tasks: tasks.slice(0, 128) }));
  const early = new Served({ rollouts: even, showRun: true, sliceChars: (await writtenHere(even, 2)).budget });
  early.ask();
  await early.settle(4);
  assert.deepEqual(early.kinds(), ['progress', 'done', 'run', 'tasks']);
  early.ask();
  await early.settle(5);
  early.ask();
  await early.done;
  assert.deepEqual(early.kinds(), ['progress', 'done', 'run', 'tasks', 'tasks', 'end']);
  const { here, run: fromMemory, budget } = await writtenHere(rollouts, 3);
  const s = new Served({ rollouts, showRun: true, sliceChars: budget });
  await s.settle(3);
  assert.deepEqual(s.kinds(), ['progress', 'done', 'run'], 'the run\'s head is sent unasked, its tasks wait');
  const size = fs.statSync(rollouts).size + fs.statSync(rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl')).size;
  assert.deepEqual(s.posted[0], { kind: 'progress', read: size, total: size });
  assert.deepEqual(s.posted[1], { kind: 'done', facts: factsOf(here) });
  const head = JSON.parse((s.posted[2] as { head: string }).head) as { tasks: unknown[] };
  assert.deepEqual(head, JSON.parse(JSON.stringify({ ...fromMemory, tasks: [] })));
  // Two asks ahead: two slices, no more.
  s.ask(); s.ask();
  await s.settle(5);
  assert.deepEqual(s.kinds().slice(3), ['tasks', 'tasks']);
  s.ask();
  await s.settle(6);
  assert.deepEqual(s.kinds().slice(3), ['tasks', 'tasks', 'tasks'], 'the end waits for its own ask');
  const texts = s.posted.slice(3).map((m) => (m as { json: string }).json);
  assertSlicedBySize(texts, fromMemory.tasks, budget);
  s.ask();
  await s.done;
  assert.deepEqual(s.kinds().slice(6), ['end']);
});

test('serveWrite: by default the run\'s slices are of SLICE_CHARS', async () => {
  const tasks: MiniTask[] = Array.from({ length: 400 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] }));
  const rollouts = posix(buildRun(tmpDir('serve-write-default'), { tasks }));
  const { run } = await writtenHere(rollouts, 1);
  const s = new Served({ rollouts, showRun: true });
  for (let i = 0; i < 100 && s.kinds().at(-1) !== 'end'; i++) { s.ask(); await s.settle(s.posted.length + 1); }
  await s.done;
  const texts = s.posted.filter((m) => m.kind === 'tasks').map((m) => (m as { json: string }).json);
  assert.ok(texts.length >= 2, `${texts.length} slices`);
  assertSlicedBySize(texts, run.tasks, SLICE_CHARS);
});

test('serveWrite: without showRun, or after a write that failed, only progress and the facts; an abort is a cancelled write', async () => {
  const dir = tmpDir('serve-write-plain');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const here = await writeRunSummary(nodeFs, rollouts);
  const plain = new Served({ rollouts });
  await plain.done;
  assert.deepEqual(plain.kinds(), ['progress', 'done']);
  assert.deepEqual((plain.posted[1] as { facts: unknown }).facts, factsOf(here));
  // No run there: the error, and nothing after it even when the run was asked for.
  const none = new Served({ rollouts: posix(path.join(dir, 'nothing.jsonl')), showRun: true });
  await none.done;
  assert.deepEqual(none.kinds(), ['done']);
  assert.match((none.posted[0] as { facts: { error?: string } }).facts.error ?? '', /no run at/);
  // Aborted as it starts: the write says cancelled and sends no run; an earlier summary is left as it was.
  const summary = here.path;
  fs.writeFileSync(summary, '{"earlier": true}\n');
  const cancelled = new Served({ rollouts, showRun: true });
  cancelled.ask({ kind: 'abort' });
  await cancelled.done;
  assert.deepEqual(cancelled.kinds(), ['done']);
  assert.equal((cancelled.posted[0] as { facts: { error?: string } }).facts.error, 'cancelled');
  assert.equal(fs.readFileSync(summary, 'utf8'), '{"earlier": true}\n');
});

test('serveWrite and writeRunSummaryOnWorker: the file limit given is the one the write uses', async () => {
  const dir = tmpDir('serve-write-limit');
  // A row of 9 MiB: read whole by default, left out as too long under a 5 MiB limit.
  const rollouts = posix(buildRun(dir, { tasks: [...TASKS, { id: 'd', repeats: [{ outcome: 'scored', folder: 'none', padBytes: 9 << 20 }] },
    { id: 'e', repeats: [{ outcome: 'scored' }] }] }));
  const maxFileBytes = 5 << 20;
  const limited = await writeRunSummary(new NodeFs({ maxFileBytes }), rollouts);
  const unlimited = factsOf(await writeRunSummary(nodeFs, rollouts));
  assert.notDeepEqual(factsOf(limited), unlimited, 'the limit changes what is written');
  const s = new Served({ rollouts, maxFileBytes });
  await s.done;
  assert.deepEqual((s.posted.find((m) => m.kind === 'done') as { facts: unknown }).facts, factsOf(limited));
  // Progress once per percent: the big row's report falls in 99% (the small row after it is a few hundred bytes of
  // 28 MB), the end's at 100% (the row workers that read the file count every byte of its lines, newlines included).
  const once = new Served({ rollouts });
  await once.done;
  const said = once.posted.filter((m) => m.kind === 'progress') as { read: number; total: number }[];
  assert.deepEqual(said.map((m) => Math.floor((m.read / m.total) * 100)), [99, 100], JSON.stringify(said));
  // And the caller passes it on to the worker.
  assert.deepEqual((await writeRunSummaryOnWorker(rollouts, { maxFileBytes }))?.facts, factsOf(limited));
  assert.deepEqual((await writeRunSummaryOnWorker(rollouts))?.facts, unlimited);
});

test('writeRunSummaryOnWorker: cancelled while it writes, it stops with "cancelled" and sends no run', async () => {
  const dir = tmpDir('on-worker-cancel-later');
  const tasks: MiniTask[] = Array.from({ length: 450 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, repeats: [{ outcome: 'scored' }] }));
  const rollouts = posix(buildRun(dir, { tasks }));
  const ac = new AbortController();
  const writing = writeRunSummaryOnWorker(rollouts, { signal: ac.signal, showRun: true });
  ac.abort(new Error('cancelled'));
  const w = await writing;
  assert.equal(w?.facts.error, 'cancelled');
  assert.equal(await w?.run(), undefined);
  assert.equal(fs.existsSync(rollouts.replace(/\.jsonl$/, '_run_summary.json')), false, 'nothing written');
});

test('serveWrite: progress at most once per percent (a run of exactly 4 MiB is reported read at 4 MiB once); an empty run at 0%', async () => {
  const dir = tmpDir('serve-write-progress');
  const big: MiniRepeat = { outcome: 'scored', folder: 'none', padBytes: 300_000 };
  const rollouts = posix(buildRun(dir, { materialized: false, tasks: [{ id: 'a', repeats: Array.from({ length: 4 }, () => big) }] }));
  const size = 4 << 20;
  padRolloutsTo(rollouts, size);
  assert.equal(fs.statSync(rollouts).size, size);
  const s = new Served({ rollouts });
  await s.done;
  assert.deepEqual(s.posted.filter((m) => m.kind === 'progress'), [{ kind: 'progress', read: size, total: size }]);
  // Twice that: read at 4 MiB (50%) and at 8 MiB (100%), each said once.
  fs.writeFileSync(rollouts, fs.readFileSync(rollouts, 'utf8').repeat(2));
  const twice = new Served({ rollouts });
  await twice.done;
  assert.deepEqual(twice.posted.filter((m) => m.kind === 'progress'),
    [{ kind: 'progress', read: size, total: 2 * size }, { kind: 'progress', read: 2 * size, total: 2 * size }]);
  const empty = tmpDir('serve-write-empty');
  const emptyRollouts = posix(path.join(empty, 'rollouts.jsonl'));
  fs.writeFileSync(emptyRollouts, '');
  const e = new Served({ rollouts: emptyRollouts });
  await e.done;
  assert.deepEqual(e.posted.filter((m) => m.kind === 'progress'), [{ kind: 'progress', read: 0, total: 0 }]);
});
