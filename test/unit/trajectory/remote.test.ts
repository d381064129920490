// The trajectory editor's sources (core/trajectory/remote.ts) against a small fake worker and fake sources: how
// RemoteTrajectory opens (first progress, ready, a load error, a worker that exits or throws before it read), how it
// matches answers to questions, what it does when the worker fails or is closed; LocalTrajectory's status and
// refusals; DeferredTrajectory while its source opens, fails or is closed. The real worker (out/trajectoryWorker.js)
// is checked in trajectory/session; these cases are the ones it never shows (it does not fail on purpose).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TrajectorySession } from '../../../src/core/trajectory/session';
import { DeferredTrajectory, LocalTrajectory, RemoteTrajectory, type SourceStatus, type TrajectorySource } from '../../../src/core/trajectory/remote';

// The fake worker plays the scenario named by `file` (workerData) and answers queries by their method name:
// `echo` answers its arguments, `fail` an error, `late` after the next query (answers out of order), `stray` also
// answers an id nobody asked and the same id twice, `progress` / `ready` / `loadError` post that message before
// answering, `exit` ends the worker with code 7, `throw` throws in the worker (an 'error' event), `hang` never answers.
const FAKE = `
const { parentPort, workerData } = require('node:worker_threads');
const st = (steps, loading) => ({ steps, problems: 1, ms: 5, loading });
const reading = (steps) => st(steps, { steps, bytesRead: steps * 10, bytesTotal: 1000 });
const scenario = workerData.file;
if (scenario === 'exit-early') process.exit(3);
if (scenario === 'throw-early') throw new Error('the fake worker broke at start');
if (scenario === 'loadError') parentPort.postMessage({ loadError: 'no such trajectory' });
if (scenario === 'loadError-null') parentPort.postMessage({ loadError: null });
if (scenario === 'ready') { parentPort.postMessage({ id: 1, result: 'too early' }); parentPort.postMessage({ ready: st(4, null) }); }
if (scenario === 'progress') { parentPort.postMessage({ hello: true }); parentPort.postMessage({ progress: reading(2) }); }
let late = null;
parentPort.on('message', (m) => {
  const answer = () => parentPort.postMessage({ id: m.id, result: { method: m.method, args: m.args } });
  switch (m.method) {
    case 'echo': answer(); break;
    case 'fail': parentPort.postMessage({ id: m.id, error: 'refused: ' + m.args.join(',') }); break;
    case 'late': late = answer; return;
    case 'stray': parentPort.postMessage({ id: m.id + 1000, result: 'stray' }); answer(); parentPort.postMessage({ id: m.id, result: 'again' }); break;
    case 'progress': parentPort.postMessage({ progress: reading(m.args[1]) }); answer(); break;
    case 'ready': parentPort.postMessage({ ready: st(m.args[1], null) }); answer(); break;
    case 'loadError': parentPort.postMessage({ loadError: 'broke half-way' }); answer(); break;
    case 'exit': process.exit(7);
    case 'throw': throw new Error('the fake worker broke');
    case 'hang': return;
  }
  if (late && m.method !== 'late') { const l = late; late = null; l(); }
});
`;

let dir: string | null = null;
function fakeWorker(): string {
  dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'traj-remote-'));
  const file = path.join(dir, 'fake-worker.cjs');
  if (!fs.existsSync(file)) fs.writeFileSync(file, FAKE);
  return file;
}
process.on('exit', () => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

// Each case ends within seconds; a source that never answers fails its case instead of hanging the run.
const T = { timeout: 10_000 };

type Ask = (method: string, path: number[], ...args: unknown[]) => Promise<unknown>;
const ask = (src: TrajectorySource): Ask => src.ask.bind(src) as unknown as Ask;

/** Whether `p` has settled by now (a settled promise's callbacks run before setImmediate's). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(() => { done = true; }, () => { done = true; });
  await new Promise((r) => setImmediate(r));
  return done;
}

test('a worker opens on its first progress: status and listeners follow it, `done` settles once it is ready', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  try {
    assert.deepEqual(remote.status, { steps: 2, problems: 1, ms: 5, loading: { steps: 2, bytesRead: 20, bytesTotal: 1000 } });
    const seen: SourceStatus[] = [];
    remote.onProgress((s) => seen.push(s));
    assert.equal(await settled(remote.done), false, 'still reading');
    const q = ask(remote);
    await q('progress', [], 9);
    assert.deepEqual(remote.status.loading, { steps: 9, bytesRead: 90, bytesTotal: 1000 });
    assert.equal(await settled(remote.done), false, 'more progress is not the end');
    assert.deepEqual(await q('ready', [], 12), { method: 'ready', args: [[], 12] });
    assert.deepEqual(seen.map((s) => [s.steps, s.loading === null]), [[9, false], [12, true]]);
    assert.deepEqual(remote.status, { steps: 12, problems: 1, ms: 5, loading: null });
    assert.equal(await settled(remote.done), true);
  } finally { remote.dispose(); }
});

test('a worker that is ready at once opens done; an answer before anybody asked is dropped', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'ready', '/');
  try {
    assert.deepEqual(remote.status, { steps: 4, problems: 1, ms: 5, loading: null });
    assert.equal(await settled(remote.done), true);
    // Id 1 was answered ('too early') before it was asked: the first real question gets its own answer.
    assert.deepEqual(await ask(remote)('echo', [0], 'a'), { method: 'echo', args: [[0], 'a'] });
  } finally { remote.dispose(); }
});

test('answers go to the question they answer: out of order, strays and repeats dropped, errors as rejections', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  try {
    const q = ask(remote);
    const late = q('late', [1], 'first');
    const echo = q('echo', [2], 'second');
    assert.deepEqual(await echo, { method: 'echo', args: [[2], 'second'] });
    assert.deepEqual(await late, { method: 'late', args: [[1], 'first'] });
    assert.deepEqual(await q('stray', [], 'x'), { method: 'stray', args: [[], 'x'] });
    await assert.rejects(q('fail', [3], 'y'), (e: Error) => e instanceof Error && e.message === 'refused: 3,y');
    assert.deepEqual(await q('echo', []), { method: 'echo', args: [[]] });
  } finally { remote.dispose(); }
});

test('a load error after the first page ends the reading but not the worker: queries still answer', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  try {
    const q = ask(remote);
    await q('loadError', []);
    assert.equal(await settled(remote.done), true);
    assert.equal(remote.status.steps, 2, 'the status is what was read');
    assert.deepEqual(await q('echo', [], 1), { method: 'echo', args: [[], 1] });
  } finally { remote.dispose(); }
});

test('a worker that exits fails every open question and every later one, and settles `done`', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  try {
    const q = ask(remote);
    const hung = q('hang', []);
    const exited = q('exit', []);
    await assert.rejects(hung, /^Error: the trajectory worker exited \(7\)$/);
    await assert.rejects(exited, /exited \(7\)/);
    assert.equal(await settled(remote.done), true);
    await assert.rejects(q('echo', []), /exited \(7\)/);
    remote.dispose();
    await assert.rejects(q('echo', []), /exited \(7\)/, 'the first reason stays');
  } finally { remote.dispose(); }
});

test('a worker that throws fails the open questions with its error (and the exit after it does not replace it)', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  const q = ask(remote);
  const hung = q('hang', []);
  await assert.rejects(q('throw', []), /the fake worker broke/);
  await assert.rejects(hung, /the fake worker broke/);
  assert.equal(await settled(remote.done), true);
  await new Promise((r) => setTimeout(r, 50));
  await assert.rejects(q('echo', []), /the fake worker broke/);
  remote.dispose();
});

test('a closed worker refuses questions and tells no more progress', T, async () => {
  const remote = await RemoteTrajectory.open(fakeWorker(), 'progress', '/');
  const seen: SourceStatus[] = [];
  remote.onProgress((s) => seen.push(s));
  remote.dispose();
  await assert.rejects(ask(remote)('echo', []), /^Error: the trajectory was closed$/);
  assert.deepEqual(seen, []);
});

test('opening fails with why: a load error, a worker that exits or throws before it read', T, async () => {
  await assert.rejects(RemoteTrajectory.open(fakeWorker(), 'loadError', '/'), /^Error: no such trajectory$/);
  await assert.rejects(RemoteTrajectory.open(fakeWorker(), 'loadError-null', '/'), /^Error: the trajectory worker did not start$/);
  await assert.rejects(RemoteTrajectory.open(fakeWorker(), 'exit-early', '/'), /^Error: the trajectory worker exited \(3\) before it read exit-early$/);
  await assert.rejects(RemoteTrajectory.open(fakeWorker(), 'throw-early', '/'), /^Error: the fake worker broke at start$/);
});

/** A stand-in for the session: each query returns its name and arguments, `problem` throws what `args[0]` says. */
function fakeSession(): TrajectorySession {
  const q = (name: string) => (...args: unknown[]) => ({ name, args });
  return {
    view: { steps: [1, 2, 3], problems: [1] },
    outline: q('outline'), rows: q('rows'), step: q('step'),
    problem(_path: unknown, what: unknown) { throw what === 'error' ? new TypeError('bad index') : what; },
  } as unknown as TrajectorySession;
}

test('a local source answers on this thread from the session it holds; a query that throws rejects with an Error', T, async () => {
  const local = new LocalTrajectory(fakeSession(), 42);
  assert.deepEqual(local.status, { steps: 3, problems: 1, ms: 42, loading: null });
  assert.equal(await settled(local.done), true);
  let fired = 0;
  const sub = (local.onProgress as TrajectorySource['onProgress'])(() => { fired++; });
  sub.dispose();
  assert.equal(fired, 0);
  const q = ask(local);
  assert.deepEqual(await q('rows', [1, 2], 10, 5), { name: 'rows', args: [[1, 2], 10, 5] });
  assert.deepEqual(await q('outline', []), { name: 'outline', args: [[]] });
  await assert.rejects(q('problem', [], 'error'), (e: Error) => e instanceof TypeError && e.message === 'bad index');
  await assert.rejects(q('problem', [], 'plain words'), (e: Error) => e instanceof Error && e.message === 'plain words');
  local.dispose();
  assert.deepEqual(await q('step', [], 0), { name: 'step', args: [[], 0] }, 'nothing to close');
});

/** A source under test control: `progress(st)` fires, `finish()` settles `done`; `disposed` counts dispose(). */
function fakeSource(status: SourceStatus) {
  let finish!: () => void;
  const listeners: ((s: SourceStatus) => void)[] = [];
  const src = {
    status,
    disposed: 0,
    done: new Promise<void>((r) => { finish = r; }),
    onProgress: (l: (s: SourceStatus) => void) => { listeners.push(l); return { dispose: () => undefined }; },
    ask: (method: string, p: number[], ...args: unknown[]) => Promise.resolve({ method, p, args }),
    dispose() { src.disposed++; },
    progress(st: SourceStatus) { src.status = st; for (const l of listeners) l(st); },
    finish: () => finish(),
  };
  return src;
}

const reading = (steps: number): SourceStatus => ({ steps, problems: 0, ms: 1, loading: { steps, bytesRead: steps, bytesTotal: 100 } });

test('a deferred source waits for its source: questions, status, progress and `done` follow it once it opens', T, async () => {
  let open!: (s: TrajectorySource) => void;
  const deferred = new DeferredTrajectory(new Promise((r) => { open = r; }));
  assert.deepEqual(deferred.status, { steps: 0, problems: 0, ms: 0, loading: { steps: 0, bytesRead: 0, bytesTotal: 0 } });
  const seen: SourceStatus[] = [];
  deferred.onProgress((s) => seen.push(s));
  const early = ask(deferred)('outline', [1], 5);
  assert.equal(await settled(early), false, 'asked before the source opened');
  const src = fakeSource(reading(3));
  open(src as unknown as TrajectorySource);
  assert.deepEqual(await early, { method: 'outline', p: [1], args: [5] });
  assert.deepEqual(deferred.status, reading(3));
  src.progress(reading(7));
  assert.deepEqual(deferred.status, reading(7));
  assert.deepEqual(seen, [reading(7)]);
  assert.equal(await settled(deferred.done), false, 'the source is still reading');
  src.finish();
  assert.equal(await settled(deferred.done), true);
  deferred.dispose();
  assert.equal(src.disposed, 1);
  src.progress(reading(9));
  assert.deepEqual(seen, [reading(7)], 'no progress after dispose');
});

test('a deferred source closed before its source opens closes that source and is done without it', T, async () => {
  let open!: (s: TrajectorySource) => void;
  const deferred = new DeferredTrajectory(new Promise((r) => { open = r; }));
  deferred.dispose();
  const src = fakeSource(reading(3));
  open(src as unknown as TrajectorySource);
  await deferred.done;
  assert.equal(src.disposed, 1);
  assert.equal(deferred.status.steps, 0, 'what it never took over');
});

test('a deferred source whose source fails to open is done, and its questions fail with why', T, async () => {
  const deferred = new DeferredTrajectory(Promise.reject(new Error('no worker')));
  assert.equal(await deferred.done, undefined);
  await assert.rejects(ask(deferred)('outline', []), /^Error: no worker$/);
  deferred.dispose();
});
