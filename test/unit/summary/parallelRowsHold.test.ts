// Row workers for a caller that is not ready yet (ParallelLineHandlers.ready, src/core/summary/parallelRows.ts): the
// writer reads the run's schedule on its own thread while the rollouts are read and picked ahead (build.ts). Nothing
// is handed on before ready, the read ahead is bounded, a cancel ends it, and the lines, the document and the problems
// come as without it, in the same order.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { forEachPickedLine, HOLD_LINES, rowWorkersRunning } from '../../../src/core/summary/parallelRows';
import { buildRunSummary, serializeSummary, UnreadableRunFile } from '../../../src/core/summary';
import { buildRun, countingReads, recorder, rowsOf48Bytes, settled, type Call } from './builders';
import { posix, tmpDir } from './helpers';

function gate(): { ready: Promise<void>; go: () => void } {
  let go!: () => void;
  const ready = new Promise<void>((r) => { go = r; });
  return { ready, go };
}

test('row workers with ready: nothing handed on before it, the whole file read and picked meanwhile, then the same calls as without it', { timeout: 60_000 }, async () => {
  const file = posix(path.join(tmpDir('rows-hold'), 'f.jsonl'));
  // 40 lines of 48 bytes (two a chunk of 96), a line too long for a limit of 200 bytes, a cut-off tail
  fs.writeFileSync(file, `${rowsOf48Bytes(20)}${'x'.repeat(300)}\n${rowsOf48Bytes(20)}{"_ng_task_id": "tail"}`);
  const limited = Object.assign(Object.create(new NodeFs()) as FsPort, { maxFileBytes: 200 });
  const plain: Call[] = [];
  assert.equal(await forEachPickedLine(limited, file, recorder(plain), 1, 96, undefined, false), true);
  assert.ok(plain.some((c) => c[0] === 'long') && plain.some((c) => c[0] === 'line' && c[2] === false), 'the long line and the tail are there');
  // Progress (bytes) comes per chunk handed over, per group read by a worker: the lines are compared.
  const lines = (calls: Call[]) => calls.filter((c) => c[0] === 'line' || c[0] === 'long');
  const bytes = (calls: Call[]) => calls.reduce((n, c) => n + (c[0] === 'bytes' ? c[1] as number : 0), 0);
  for (const workers of [1, 2]) {
    const { port, reads } = countingReads();
    Object.assign(port, { maxFileBytes: 200 });
    const { ready, go } = gate();
    const calls: Call[] = [];
    const done = forEachPickedLine(port, file, { ...recorder(calls), ready }, workers, 96);
    const chunks = Math.ceil(fs.statSync(file).size / 96);
    try {
      // (Waited for up to 20 s: on a loaded machine a worker can be off its core longer than the quiet spell.)
      assert.equal(await settled(reads, 300, chunks), chunks, `${workers} worker(s): every chunk read before ready`);
      assert.deepEqual(calls, [], 'nothing handed on before ready');
    } catch (e) {
      // The workers wait for ready: let them finish, or the test process never exits.
      go();
      await done.catch(() => undefined);
      throw e;
    }
    go();
    assert.equal(await done, true);
    assert.deepEqual(calls, plain, `${workers} worker(s)`);
    // Workers that read the file themselves (a port whose paths Node reads): the same lines, and every byte but the
    // cut-off tail's counted as progress.
    const itself = gate();
    const own: Call[] = [];
    const reading = forEachPickedLine(limited, file, { ...recorder(own), ready: itself.ready }, workers, 96);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(own, [], 'nothing handed on before ready');
    itself.go();
    assert.equal(await reading, true);
    assert.deepEqual(lines(own), lines(plain), `${workers} worker(s) reading the file`);
    assert.equal(bytes(own), fs.statSync(file).size - '{"_ng_task_id": "tail"}'.length);
  }
  assert.equal(rowWorkersRunning(), 0);
});

test('row workers with ready: the read ahead stops once HOLD_LINES lines are held, and goes on once ready', { timeout: 60_000 }, async () => {
  const file = posix(path.join(tmpDir('rows-hold-bound'), 'f.jsonl'));
  const lines = HOLD_LINES + 3000;
  fs.writeFileSync(file, rowsOf48Bytes(lines));
  const perChunk = 100;
  const total = Math.ceil(lines / perChunk);
  const { port, reads } = countingReads();
  const { ready, go } = gate();
  let applied = 0;
  const done = forEachPickedLine(port, file, { onOutcome: () => { applied++; }, ready }, 1, 48 * perChunk);
  // (The chunks up to HOLD_LINES are waited for before the quiet spell, as in the first test: under load a worker can
  // be off its core longer than the spell. A failed check still opens the gate, so the file does not hang.)
  try {
    const ahead = await settled(reads, 300, Math.ceil(HOLD_LINES / perChunk));
    assert.equal(applied, 0);
    // Held: the answered chunks up to HOLD_LINES lines, then at most three more in flight (two per worker and one).
    assert.ok(ahead * perChunk >= HOLD_LINES && ahead <= Math.ceil(HOLD_LINES / perChunk) + 3 && ahead < total, `${ahead} of ${total} chunks read ahead`);
  } finally { go(); }
  await done;
  assert.equal(applied, lines);
  assert.equal(reads(), total);
});

test('row workers with ready: a read cancelled while held throws the reason at once, hands nothing on, leaves no worker running', { timeout: 60_000 }, async () => {
  const file = posix(path.join(tmpDir('rows-hold-cancel'), 'f.jsonl'));
  fs.writeFileSync(file, rowsOf48Bytes(40));
  const before = rowWorkersRunning();
  const { port, reads } = countingReads();
  const never = new Promise<void>(() => undefined);
  const ac = new AbortController();
  const calls: Call[] = [];
  const done = forEachPickedLine(port, file, { ...recorder(calls), ready: never, signal: ac.signal }, 1, 96);
  await settled(reads);
  ac.abort(new Error('stop while held'));
  await assert.rejects(done, /stop while held/);
  const early = new AbortController();
  early.abort(new Error('stopped before'));
  await assert.rejects(forEachPickedLine(port, file, { ...recorder(calls), ready: never, signal: early.signal }, 1, 96), /stopped before/);
  assert.deepEqual(calls, []);
  assert.equal(rowWorkersRunning(), before);
});

/** A port whose first read of `slowPath` waits `ms` (and records, in `events`, the reads of every file meanwhile). */
function slowOn(slowPath: string, ms: number, events: string[], fail?: Error): FsPort {
  const node = new NodeFs();
  return Object.assign(Object.create(node) as FsPort, {
    openSequential: async (p: string) => {
      const r = await node.openSequential!(p);
      let first = true;
      return {
        read: async (b: Uint8Array) => {
          if (p === slowPath && first) {
            first = false;
            events.push('schedule read starts');
            await new Promise((res) => setTimeout(res, ms));
            events.push('schedule read ends');
            if (fail) throw fail;
          }
          const n = await r.read(b);
          if (p !== slowPath && n) events.push(`read ${path.basename(p)}`);
          return n;
        },
        close: () => r.close(),
      };
    },
  });
}

test('the writer reads the rollouts ahead on row workers while the schedule is read: the same document and problems, in the same order', { timeout: 60_000 }, async () => {
  const dir = tmpDir('rows-hold-writer');
  const rollouts = posix(buildRun(dir, { tasks: Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] })) }));
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  // A bad line in each file: the schedule's problem is said before the rollouts'.
  fs.appendFileSync(schedule, '{"broken": \n');
  fs.appendFileSync(rollouts, '{"broken": \n');
  const here = await buildRunSummary(new NodeFs(), rollouts, { beforeDispatch: null, rowWorkers: 0 });
  const codes = here.problems.filter((p) => p.code === 'parse-error').map((p) => p.file);
  assert.deepEqual(codes, [schedule, rollouts]);
  const events: string[] = [];
  const there = await buildRunSummary(slowOn(schedule, 300, events), rollouts, { beforeDispatch: null, rowWorkers: 1 });
  // (Since the writer starts the rollouts' read as it starts, a small file is read before the schedule's read begins.)
  assert.ok(events.includes('schedule read ends') && events.indexOf('read rollouts.jsonl') < events.indexOf('schedule read ends'),
    `the rollouts read before the schedule's read ends: ${events.join(', ')}`);
  assert.equal(serializeSummary(there.document), serializeSummary(here.document));
  assert.deepEqual(there.problems, here.problems);
});

test('the writer: a schedule that cannot be read while the rollouts are read ahead stops the writer with it, no row worker left running', { timeout: 60_000 }, async () => {
  const dir = tmpDir('rows-hold-writer-fail');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }, { id: 'b', repeats: [{ outcome: 'scored' }] }] }));
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  const before = rowWorkersRunning();
  // Handed chunks by this thread (a port whose reads it sees), and reading the file themselves.
  for (const nodeLocal of [false, true]) {
    const events: string[] = [];
    const port = Object.assign(slowOn(schedule, 200, events, new Error('disk gone')), { nodeLocal });
    await assert.rejects(buildRunSummary(port, rollouts, { beforeDispatch: null, rowWorkers: 1 }),
      (e: Error) => e instanceof UnreadableRunFile && e.file === schedule && /disk gone/.test(e.message));
    if (!nodeLocal) assert.ok(events.includes('read rollouts.jsonl'), 'the rollouts were being read ahead');
    assert.equal(rowWorkersRunning(), before);
  }
});
