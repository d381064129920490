// Small core helpers every layer leans on: how a reward reads, counting attempts, Buffer views, time slices.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatCount, formatReward } from '../../../src/core/format';
import { asBuffer } from '../../../src/core/bytes';
import { TimeSlice } from '../../../src/core/turn';
import { countAttempts, type Attempt, type Run } from '../../../src/core/model';
import { INSPECT_SCHEMA, inspectDocument, passAtKUnits, runPassAtK } from '../../../src/core/report';

test('formatReward: no reward, NaN and infinities read "—"; integers with one decimal; fractions to three places', () => {
  for (const r of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(formatReward(r), '—', String(r));
  assert.equal(formatReward(1), '1.0');
  assert.equal(formatReward(0), '0.0');
  assert.equal(formatReward(1 / 3), '0.333');
});

test('formatCount: the text toLocaleString(\'en-US\') gives, for whole counts without asking the locale data', () => {
  const values = [0, 7, 99, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 10_000_000, 123_456_789, -1, -1234, -999_999, Number.MAX_SAFE_INTEGER];
  const want = values.map((v) => v.toLocaleString('en-US'));
  assert.deepEqual(want.slice(0, 6), ['0', '7', '99', '999', '1,000', '1,001']);
  const own = Number.prototype.toLocaleString;
  Number.prototype.toLocaleString = () => { throw new Error('locale formatting asked for'); };
  try {
    assert.deepEqual(values.map(formatCount), want);
  } finally {
    Number.prototype.toLocaleString = own;
  }
  // Not a whole count: as toLocaleString writes it.
  for (const v of [1234.5, 2 ** 60, NaN, Infinity]) assert.equal(formatCount(v), v.toLocaleString('en-US'));
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

test('runPassAtK: units are tasks, or (task, cell) pairs for viewer data; k is 1 and the most attempts any unit has', () => {
  const run = (tasks: { id: string; attempts: { cell?: string; reward?: number | null }[] }[]) => ({ tasks }) as unknown as Run;
  assert.deepEqual(passAtKUnits(run([{ id: 'a', attempts: [{ cell: 'm|h', reward: 1 }, { cell: 'm|h', reward: 0 }, { cell: 'n|h' }] }, { id: 'b', attempts: [{ reward: 0 }] }])),
    [{ rewards: [1, 0] }, { rewards: [null] }, { rewards: [0] }]);
  // Units first seen first; tasks that share an id share their units (a unit is the pair of id and cell).
  assert.deepEqual(passAtKUnits(run([
    { id: 'a', attempts: [{ cell: 'x', reward: 1 }, { cell: 'y', reward: 0 }] },
    { id: 'b', attempts: [{ cell: 'x', reward: 0 }, { reward: 1 }] },
    { id: 'a', attempts: [{ cell: 'y', reward: null }, { cell: 'z', reward: 1 }, { cell: 'x', reward: 0 }] },
  ])), [{ rewards: [1, 0] }, { rewards: [0, null] }, { rewards: [0] }, { rewards: [1] }, { rewards: [1] }]);
  assert.deepEqual(runPassAtK(run([])), { maxAttempts: 0, entries: [] });
  assert.deepEqual(runPassAtK(run([{ id: 'a', attempts: [{ reward: 1 }] }, { id: 'b', attempts: [{ reward: 0 }] }])),
    { maxAttempts: 1, entries: [{ k: 1, value: 0.5, nTasks: 2, nMeasured: 2, nAllInfra: 0 }] });
  const three = runPassAtK(run([{ id: 'a', attempts: [{ reward: 0 }, { reward: 0 }, { reward: 1 }] }, { id: 'b', attempts: [{ reward: null }] }]));
  assert.equal(three.maxAttempts, 3);
  assert.deepEqual(three.entries.map((e) => [e.k, Math.round((e.value ?? Number.NaN) * 1e6) / 1e6, e.nMeasured, e.nAllInfra]), [[1, 0.333333, 1, 1], [3, 1, 1, 1]]);
});

test('inspectDocument: the schema name, the root as given, and each run with its counts, most attempts and pass@k', () => {
  const run = { kind: 'harbor-job', root: '/j', tasks: [{ id: 'a', attempts: [{ outcome: 'passed', reward: 1 }, { outcome: 'failed', reward: 0 }] }] } as unknown as Run;
  const doc = inspectDocument('/root', [run]);
  assert.equal(doc.schema, INSPECT_SCHEMA);
  assert.equal(INSPECT_SCHEMA, 'harbor-runs/inspect@1');
  assert.equal(doc.root, '/root');
  assert.equal(doc.runs.length, 1);
  const [r] = doc.runs;
  assert.equal(r.root, '/j');
  assert.equal(r.tasks, run.tasks, 'the run itself, not a copy of its tasks');
  assert.deepEqual([r.counts.total, r.counts.measured, r.counts.passed, r.counts.byOutcome.passed, r.counts.byOutcome.failed], [2, 2, 1, 1, 1]);
  assert.equal(r.maxAttempts, 2);
  assert.deepEqual(r.passAtK.map((e) => [e.k, e.value]), [[1, 0.5], [2, 1]]);
  assert.deepEqual(inspectDocument('/empty', []), { schema: INSPECT_SCHEMA, root: '/empty', runs: [] });
});
