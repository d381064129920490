// What the trajectory's worker thread does (core/trajectory/serve.ts), driven on this thread through a MessageChannel:
// progress from the first page on, then ready (or why it could not be read); queries answered by id as the session
// answers them, refused when unknown or asked before anything is read; after the first page, reading waits for the
// editor's first screen (its outline query, not any other) or at most a while, and only the first time.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { bigTrajectory, continuedTrajectory, featureTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import type { TrajectoryFs } from '../../../src/core/trajectory/read';
import { DRAW_MS, FIRST_SCREEN_WAIT_MS, serveTrajectory, type ServeOptions } from '../../../src/core/trajectory/serve';
import { TrajectorySession } from '../../../src/core/trajectory/session';
import { memFolder } from './helpers';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;
const T = { timeout: 10_000 };

type Msg = { id?: number; result?: unknown; error?: string; progress?: Status; ready?: Status; loadError?: string };
type Status = { steps: number; problems: number; ms: number; loading: { steps: number; bytesRead: number; bytesTotal: number } | null };

/** The worker's side served on one port; the test's side: every message as it came (with when), ask, next. */
function serve(fs: TrajectoryFs, opts: ServeOptions = {}) {
  const { port1, port2 } = new MessageChannel();
  const got: { m: Msg; at: number }[] = [];
  const waiters: (() => void)[] = [];
  port2.on('message', (m: Msg) => { got.push({ m, at: performance.now() }); for (const w of waiters.splice(0)) w(); });
  const t0 = performance.now();
  serveTrajectory(port1 as MessagePort, FILE, DIR, { fs, ...opts });
  let id = 0;
  /** The first message (from `from` on) that `pred` accepts. */
  const next = async (pred: (m: Msg) => boolean, from = 0): Promise<{ m: Msg; at: number; i: number }> => {
    for (;;) {
      const i = got.findIndex((g, k) => k >= from && pred(g.m));
      if (i >= 0) return { ...got[i], i };
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const ask = async (method: string, ...args: unknown[]): Promise<Msg> => {
    const q = ++id;
    port2.postMessage({ id: q, method, args });
    return (await next((m) => m.id === q)).m;
  };
  return { got, next, ask, t0, close: () => { port1.close(); port2.close(); } };
}

/** The files read `chunk` bytes at a time, each read after `delayMs` (so the first page comes well before the end);
 * `reads` gets the time of each read. */
function slow(files: Parameters<typeof memFolder>[0], chunk = 8192, delayMs = 0, gate?: Promise<void>, reads?: number[]): TrajectoryFs {
  const mem = memFolder(files, DIR);
  return {
    stat: async (p) => { await gate; return mem.stat(p); },
    readFile: (p) => mem.readFile(p),
    openSequential: async (p) => {
      const bytes = await mem.readFile(p);
      let at = 0;
      return {
        read: async (into: Uint8Array) => {
          reads?.push(performance.now());
          if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
          const n = Math.min(chunk, into.length, bytes.length - at); into.set(bytes.subarray(at, at + n)); at += n; return n;
        },
        close: async () => undefined,
      };
    },
  };
}

test('a small trajectory: ready with its status; every query answered by id as the session answers it', T, async () => {
  const { files, expect } = continuedTrajectory();
  const w = serve(slow(files), { firstScreenWaitMs: 10 });
  try {
    const { m, at } = await w.next((x) => !!x.ready);
    assert.deepEqual({ ...m.ready, ms: 0 }, { steps: expect.steps, problems: 0, ms: 0, loading: null });
    assert.ok(m.ready!.ms >= 0 && m.ready!.ms <= at - w.t0, 'ms since the start');
    const local = await TrajectorySession.open(memFolder(files, DIR), FILE, DIR);
    assert.deepEqual(await w.ask('outline', []), { id: 1, result: local.outline([]) });
    assert.deepEqual(await w.ask('rows', [], 1, 2), { id: 2, result: local.rows([], 1, 2) });
    assert.deepEqual(await w.ask('raw', [], null), { id: 3, result: local.raw([], null) });
    assert.deepEqual(await w.ask('step', [], 99), { id: 4, result: null });
    assert.deepEqual(await w.ask('constructor', []), { id: 5, error: 'unknown query constructor' });
    assert.deepEqual(await w.ask('toString', []), { id: 6, error: 'unknown query toString' });
    assert.deepEqual(await w.ask('outline', [], 2), { id: 7, result: local.outline([], 2) }, 'the first screen asked for again');
    assert.deepEqual(await w.ask('header', []), { id: 8, result: local.header([]) });
    const ids = w.got.filter((g) => g.m.id !== undefined).map((g) => g.m.id);
    assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7, 8], 'each query answered once');
  } finally { w.close(); }
});

test('a query before anything is read is refused (an unknown one first for being unknown)', T, async () => {
  let open!: () => void;
  const w = serve(slow(continuedTrajectory().files, 8192, 0, new Promise((r) => { open = r; })));
  try {
    assert.deepEqual(await w.ask('outline', []), { id: 1, error: 'the trajectory is not read yet' });
    assert.deepEqual(await w.ask('nonsense', []), { id: 2, error: 'unknown query nonsense' });
    open();
    await w.next((x) => !!x.ready);
    assert.ok(((await w.ask('outline', [])).result as { total: number }).total > 0);
  } finally { w.close(); }
});

test('a trajectory that cannot be read at all: a load error saying why, and no ready', T, async () => {
  // A file system that throws at once (not a rejected promise, which the reader takes for a missing file).
  const fail = (e: unknown): TrajectoryFs => ({ stat: () => { throw e; }, readFile: () => { throw e; } });
  for (const [e, why] of [[new Error('disk gone'), 'disk gone'], ['plain words', 'plain words'], [null, 'null']] as const) {
    const w = serve(fail(e));
    try {
      const { m } = await w.next((x) => x.loadError !== undefined);
      assert.deepEqual(m, { loadError: why });
      assert.ok(!w.got.some((g) => g.m.ready || g.m.progress));
      assert.deepEqual(await w.ask('outline', []), { id: 1, error: 'the trajectory is not read yet' });
    } finally { w.close(); }
  }
});

test('an unreadable file is not a load error: ready, and the header says why', T, async () => {
  const w = serve(slow({ 'trajectory.json': '{ nope' }));
  try {
    const { m } = await w.next((x) => !!x.ready);
    assert.equal(m.ready!.steps, 0);
    const o = (await w.ask('outline', [])).result as { header: { unreadable: string | null } };
    assert.ok(o.header.unreadable);
  } finally { w.close(); }
});

test('media resolve through the given `real`: a link out of the folder is refused', T, async () => {
  const w = serve(slow(featureTrajectory()), { real: (p) => (p.endsWith('shot.png') ? '/elsewhere/shot.png' : p) });
  try {
    await w.next((x) => !!x.ready);
    const step = (await w.ask('step', [], 0)).result as { media: Record<string, string | null>; refused: Record<string, string> };
    assert.equal(step.media.m1, null);
    assert.match(step.refused.m1, /link to a file outside the trajectory's folder/);
  } finally { w.close(); }
});

const BIG = { 'trajectory.json': bigTrajectory(300, 400_000) };

test('after the first page, reading waits for the outline (not another query), then a little longer; only the first time', T, async () => {
  // 4 KiB reads 3 ms apart: the rest of the file takes well over the 250 ms between progress reports.
  const reads: number[] = [];
  const w = serve(slow(BIG, 4096, 3, undefined, reads), { firstScreenWaitMs: 60_000 });
  try {
    const first = await w.next((x) => !!x.progress);
    const st = first.m.progress!;
    assert.ok(st.loading && st.steps === st.loading.steps && st.steps > 0 && st.loading.bytesRead < st.loading.bytesTotal, JSON.stringify(st));
    assert.equal(st.problems, 0);
    // Queries answer from the first page on, while reading waits.
    const h = await w.ask('header', []);
    assert.equal((h.result as { total: number }).total, st.steps);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(w.got.filter((g) => g.m.progress || g.m.ready).length, 1, 'nothing more read while the first screen is not asked for');
    const asked = performance.now();
    const o = await w.ask('outline', []);
    assert.equal((o.result as { total: number }).total, st.steps);
    const ready = await w.next((x) => !!x.ready);
    assert.equal(ready.m.ready!.steps, 300);
    assert.equal(ready.m.ready!.loading, null);
    const more = w.got.filter((g) => g.m.progress && g.at > asked);
    assert.ok(more.length >= 1, 'more progress after the first page, without waiting again');
    const resumed = reads.find((t) => t > asked)!;
    assert.ok(resumed - asked >= DRAW_MS - 10, `reading went on ${resumed - asked} ms after the outline`);
    assert.ok(!reads.some((t) => t > first.at + 1 && t < asked), 'no read while waiting for the first screen');
  } finally { w.close(); }
});

test('when the first screen is never asked for, reading goes on after FIRST_SCREEN_WAIT_MS', T, async () => {
  const reads: number[] = [];
  const w = serve(slow(BIG, 8192, 0, undefined, reads));
  try {
    const ready = await w.next((x) => !!x.ready);
    assert.equal(ready.m.ready!.steps, 300);
    // The reads are timed on the thread that waits: the longest pause between two of them is the wait.
    const gap = Math.max(...reads.slice(1).map((t, i) => t - reads[i]));
    assert.ok(gap >= FIRST_SCREEN_WAIT_MS - 10, `the longest pause between reads: ${gap} ms`);
  } finally { w.close(); }
});

test('media resolve through the disk by default: a path that is not there is refused as missing', T, async () => {
  const w = serve(slow(featureTrajectory()));
  try {
    await w.next((x) => !!x.ready);
    const step = (await w.ask('step', [], 0)).result as { media: Record<string, string | null>; refused: Record<string, string> };
    assert.equal(step.media.m1, null);
    assert.match(step.refused.m1, /images\/shot\.png does not exist/);
  } finally { w.close(); }
});
