// The rollouts read on row workers from the writer's start (EarlyPickedLines, src/core/summary/parallelRows.ts;
// build.ts): read and picked ahead before anyone has asked for the lines, handed to the handlers attached later,
// stopped when never attached, and the writer's document and problems the same as when the rows are read in turn.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { EarlyPickedLines, forEachPickedLine, rowWorkersRunning } from '../../../src/core/summary/parallelRows';
import { buildRunSummary, serializeSummary } from '../../../src/core/summary';
import { buildRun, countingReads, recorder, rowsOf48Bytes, settled, type Call } from './builders';
import { posix, tmpDir } from './helpers';

test('an early read: the file read and picked before it is attached, nothing handed on; then the same calls as a read started at once', { timeout: 60_000 }, async () => {
  const file = posix(path.join(tmpDir('rows-early'), 'f.jsonl'));
  fs.writeFileSync(file, `${rowsOf48Bytes(20)}${'x'.repeat(300)}\n${rowsOf48Bytes(20)}{"_ng_task_id": "tail"}`);
  for (const workers of [1, 2]) {
    const plain: Call[] = [];
    const limited = countingReads().port;
    Object.assign(limited, { maxFileBytes: 200 });
    assert.equal(await forEachPickedLine(limited, file, recorder(plain), workers, 96), true);
    const { port, reads } = countingReads();
    Object.assign(port, { maxFileBytes: 200 });
    const early = new EarlyPickedLines(port, file, workers, 96);
    const chunks = Math.ceil(fs.statSync(file).size / 96);
    assert.equal(await settled(reads, 300, chunks), chunks, `${workers} worker(s): every chunk read before it is attached`);
    const calls: Call[] = [];
    // Attached with a ready of its own: still nothing handed on until that resolves.
    let go!: () => void;
    const done = early.attach({ ...recorder(calls), ready: new Promise<void>((r) => { go = r; }) });
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(calls, [], 'nothing handed on before the attached ready');
    go();
    assert.equal(await done, true);
    assert.deepEqual(calls, plain, `${workers} worker(s)`);
    await early.cancel(); // once attached: nothing
    await assert.rejects(early.attach(recorder([])), /was attached before/);
  }
  assert.equal(rowWorkersRunning(), 0);
});

test('an early read never attached is stopped by cancel (no worker left running); attached with a cancelled signal it throws the reason', { timeout: 60_000 }, async () => {
  const file = posix(path.join(tmpDir('rows-early-cancel'), 'f.jsonl'));
  fs.writeFileSync(file, rowsOf48Bytes(400));
  const before = rowWorkersRunning();
  const { port, reads } = countingReads();
  const early = new EarlyPickedLines(port, file, 1, 96);
  await settled(reads);
  assert.equal(rowWorkersRunning(), before + 1, 'its worker runs while it waits');
  await early.cancel();
  assert.equal(rowWorkersRunning(), before);
  await assert.rejects(early.attach(recorder([])), /was cancelled before/);

  const again = new EarlyPickedLines(new NodeFs(), file, 2, 96);
  const ac = new AbortController();
  ac.abort(new Error('the writer was cancelled'));
  const calls: Call[] = [];
  await assert.rejects(again.attach({ ...recorder(calls), signal: ac.signal }), /the writer was cancelled/);
  assert.deepEqual(calls, []);
  assert.equal(rowWorkersRunning(), before);
});

/** A port whose first stat of `slowPath` waits `ms` (and records, in `events`, the rollouts' reads meanwhile). */
function slowStat(slowPath: string, ms: number, events: string[]): FsPort {
  const node = new NodeFs();
  let first = true;
  return Object.assign(Object.create(node) as FsPort, {
    nodeLocal: false,
    stat: async (p: string) => {
      if (p === slowPath && first) {
        first = false;
        events.push('slow stat starts');
        await new Promise((res) => setTimeout(res, ms));
        events.push('slow stat ends');
      }
      return node.stat(p);
    },
    openSequential: async (p: string) => {
      const r = await node.openSequential!(p);
      return { read: async (b: Uint8Array) => { const n = await r.read(b); if (n && p.endsWith('rollouts.jsonl')) events.push('read rollouts.jsonl'); return n; }, close: () => r.close() };
    },
  });
}

test('the writer reads the rollouts on row workers from its start, while it finds the run\'s other files: the same document and problems', { timeout: 60_000 }, async () => {
  const dir = tmpDir('rows-early-writer');
  const rollouts = posix(buildRun(dir, { tasks: Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, repeats: [{ outcome: 'scored' }, { outcome: 'scored' }] })) }));
  fs.appendFileSync(rollouts, '{"broken": \n');
  const here = await buildRunSummary(new NodeFs(), rollouts, { beforeDispatch: null, rowWorkers: 0 });
  // The materialized inputs are stat-ed while the run's files are collected (before the schedule is read).
  const schedule = rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl');
  const events: string[] = [];
  const before = rowWorkersRunning();
  const there = await buildRunSummary(slowStat(schedule, 300, events), rollouts, { beforeDispatch: null, rowWorkers: 1 });
  assert.ok(events.includes('slow stat ends') && events.indexOf('read rollouts.jsonl') < events.indexOf('slow stat ends'),
    `the rollouts read before the run's files are all found: ${events.join(', ')}`);
  assert.equal(serializeSummary(there.document), serializeSummary(here.document));
  assert.deepEqual(there.problems, here.problems);
  assert.equal(rowWorkersRunning(), before);
});
