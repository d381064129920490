// TimeSlice: long work cut into slices with a turn of the event loop between them. Workers running side by side on
// one TimeSlice (the NeMo reader reads 32 repeats at a time) must get one slice of work per turn between them, not
// one slice each: otherwise the event loop waits for all of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimeSlice } from '../../../src/core/turn';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* work */ }
}

test('eight workers on one TimeSlice: about one slice of work per turn of the event loop, not eight', async () => {
  const SLICE = 10;
  const UNIT = 1;
  const slice = new TimeSlice(SLICE);
  let turn = 0;
  let stop = false;
  const tick = (): void => { turn++; if (!stop) setImmediate(tick); };
  setImmediate(tick);
  const unitsPerTurn = new Map<number, number>();
  let left = 800;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (left > 0) {
      left--;
      busy(UNIT);
      unitsPerTurn.set(turn, (unitsPerTurn.get(turn) ?? 0) + 1);
      if (slice.due) await slice.yield();
    }
  }));
  stop = true;
  const most = Math.max(...unitsPerTurn.values());
  // One slice (~10 units) plus one unit for each worker that resumes and finds the slice already used: at most ~18.
  // With a turn each, every worker starts a fresh slice as it resumes: ~8 × 10 units in one turn.
  assert.ok(most <= 24, `${most} units of work ran in one turn of the event loop (${unitsPerTurn.size} turns)`);
  assert.ok(unitsPerTurn.size >= 800 / 24, `the work took ${unitsPerTurn.size} turns`);
});

test('a TimeSlice used by one caller: due once its time has passed, a new slice after each turn', async () => {
  const slice = new TimeSlice(5);
  assert.equal(slice.due, false);
  busy(7);
  assert.equal(slice.due, true);
  await slice.yield();
  assert.equal(slice.due, false);
  const a = slice.yield();
  const b = slice.yield();
  assert.equal(a, b, 'callers asking while a turn is pending share it');
  await a;
});
