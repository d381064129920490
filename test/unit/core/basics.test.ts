// Small core helpers every layer leans on: how a reward reads, counting attempts, Buffer views, time slices.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatReward } from '../../../src/core/format';
import { asBuffer } from '../../../src/core/bytes';
import { TimeSlice } from '../../../src/core/turn';
import { countAttempts, type Attempt } from '../../../src/core/model';

test('formatReward: no reward, NaN and infinities read "—"; integers with one decimal; fractions to three places', () => {
  for (const r of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(formatReward(r), '—', String(r));
  assert.equal(formatReward(1), '1.0');
  assert.equal(formatReward(0), '0.0');
  assert.equal(formatReward(1 / 3), '0.333');
});

test('countAttempts: an attempt without a reward counts in total and its outcome, not as measured or passed', () => {
  const attempts = [
    { outcome: 'infra-error', reward: null },
    { outcome: 'running', reward: undefined },
    { outcome: 'passed', reward: 1 },
    { outcome: 'failed', reward: 0 },
  ] as unknown as Attempt[];
  const c = countAttempts(attempts);
  assert.equal(c.total, 4);
  assert.equal(c.measured, 2);
  assert.equal(c.passed, 1);
  assert.equal(c.byOutcome['infra-error'], 1);
  assert.equal(c.byOutcome.running, 1);
});

test('asBuffer: a Buffer is returned as it is; a plain Uint8Array becomes a Buffer over the same memory (no copy)', () => {
  const buf = Buffer.from('abc');
  assert.equal(asBuffer(buf), buf);
  const plain = new Uint8Array([1, 2, 3]);
  const view = asBuffer(plain);
  assert.ok(Buffer.isBuffer(view));
  plain[0] = 9;
  assert.equal(view[0], 9, 'a view of the same bytes');
});

test('TimeSlice: not due before its slice has passed, due after, and a yield gives the event loop a turn and restarts it', async () => {
  assert.equal(new TimeSlice(60_000).due, false);
  const s = new TimeSlice(200);
  const t0 = performance.now();
  while (performance.now() - t0 < 250) { /* busy: the slice passes */ }
  assert.equal(s.due, true);
  let ranBetween = false;
  setImmediate(() => { ranBetween = true; });
  await s.yield();
  assert.equal(s.due, false, 'the clock restarts at the yield');
  assert.equal(ranBetween, true, 'a macrotask queued before the yield ran during it');
});
