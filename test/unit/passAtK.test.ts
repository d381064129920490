// pass@k: hand-computed values, the null rules of docs/formats.md#pass-at-k, and properties of the estimator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { passAtK, passAtKEstimate, passAtKValues, passAtKs, passedAt, taskPassAtK } from '../../src/core/passAtK';

const close = (a: number | null, b: number, eps = 1e-12) => {
  assert.ok(a !== null && Math.abs(a - b) <= eps, `${a} ≉ ${b}`);
};

/** C(n, k) with BigInt, for checking the product form against the textbook definition. */
function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
function reference(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  // 1 − C(n−c,k)/C(n,k), as a ratio of exact integers scaled to 1e15.
  const scale = 10n ** 15n;
  return 1 - Number((binom(n - c, k) * scale) / binom(n, k)) / 1e15;
}

test('hand-computed: n=4, c=1, k=2 → 0.5', () => close(passAtKEstimate(4, 1, 2), 0.5));
test('hand-computed: n=4, c=1, k=1 → 0.25', () => close(passAtKEstimate(4, 1, 1), 0.25));
test('hand-computed: n=5, c=2, k=2 → 1 − C(3,2)/C(5,2) = 0.7', () => close(passAtKEstimate(5, 2, 2), 0.7));
test('hand-computed: n=10, c=3, k=5 → 1 − C(7,5)/C(10,5) = 1 − 21/252', () => close(passAtKEstimate(10, 3, 5), 1 - 21 / 252));
test('n − c < k → 1', () => assert.equal(passAtKEstimate(4, 3, 2), 1));
test('c = 0 → 0 and c = n → 1', () => {
  assert.equal(passAtKEstimate(8, 0, 4), 0);
  assert.equal(passAtKEstimate(8, 8, 1), 1);
});
test('k > n: the estimate pass@n (1 if any passed, else 0)', () => {
  assert.equal(passAtKEstimate(3, 1, 8), 1);
  assert.equal(passAtKEstimate(3, 0, 8), 0);
});
test('large n stays finite and exact (no huge binomials)', () => {
  const v = passAtKEstimate(5000, 1, 1);
  close(v, 1 / 5000);
  close(passAtKEstimate(2000, 10, 100), reference(2000, 10, 100), 1e-9);
});

test('taskPassAtK leaves null rewards out: n = measured attempts', () => {
  // measured [1, 0, 0, 0] → n=4, c=1; the two nulls are not failures.
  close(taskPassAtK([1, null, 0, 0, null, 0], 2), 0.5);
  close(taskPassAtK([1, null, 0, 0, null, 0], 1), 0.25);
});
test('taskPassAtK: all null → null; no attempts → null; partial rewards below 1 do not pass', () => {
  assert.equal(taskPassAtK([null, null], 1), null);
  assert.equal(taskPassAtK([], 1), null);
  assert.equal(taskPassAtK([0.9, 0.5], 1), 0);
});

test('passAtK: all-null tasks count under nAllInfra and are left out of the mean', () => {
  const r = passAtK([
    { rewards: [1, 0] },           // pass@1 = 0.5
    { rewards: [0, 0] },           // 0
    { rewards: [null, null] },     // all infra
    { rewards: [] },               // no attempts: neither
  ], 1);
  assert.deepEqual({ nTasks: r.nTasks, nMeasured: r.nMeasured, nAllInfra: r.nAllInfra }, { nTasks: 4, nMeasured: 2, nAllInfra: 1 });
  close(r.value, 0.25);
});
test('passAtK: no measured task → value null', () => {
  const r = passAtK([{ rewards: [null] }], 1);
  assert.equal(r.value, null);
  assert.equal(r.nAllInfra, 1);
  assert.equal(passAtK([], 4).value, null);
});
test('viewer data example (docs/formats.md#pass-at-k): pass@4 over 3 measured tasks of 8 is not diluted by the 5 infra tasks', () => {
  const tasks = [
    { rewards: [0, 1, 0, 0] }, { rewards: [0, 0, 0, 0] }, { rewards: [0, 0, 0, 0] },
    ...Array.from({ length: 5 }, () => ({ rewards: [null, null, null, null] })),
  ];
  const r = passAtK(tasks, 4);
  close(r.value, 1 / 3);
  assert.equal(r.nAllInfra, 5);
});

test('passedAt: 1-based position of the first pass, nulls counted as positions', () => {
  assert.equal(passedAt([0, null, 1, 1]), 3);
  assert.equal(passedAt([1]), 1);
  assert.equal(passedAt([0, 0.99, null]), null);
  assert.equal(passedAt([]), null);
});

test('passAtKValues: 1 and powers of two up to the max attempts', () => {
  assert.deepEqual(passAtKValues(1), [1]);
  assert.deepEqual(passAtKValues(4), [1, 2, 4]);
  assert.deepEqual(passAtKValues(10), [1, 2, 4, 8]);
  assert.deepEqual(passAtKValues(0), []);
});

const nck = fc.integer({ min: 1, max: 60 }).chain((n) =>
  fc.record({ n: fc.constant(n), c: fc.integer({ min: 0, max: n }), k: fc.integer({ min: 1, max: n }) }));

test('property: the estimator is in [0, 1] and matches 1 − C(n−c,k)/C(n,k)', () => {
  fc.assert(fc.property(nck, ({ n, c, k }) => {
    const v = passAtKEstimate(n, c, k);
    assert.ok(v >= 0 && v <= 1, `${v} out of [0,1]`);
    assert.ok(Math.abs(v - reference(n, c, k)) < 1e-9, `n=${n} c=${c} k=${k}: ${v} vs ${reference(n, c, k)}`);
  }));
});

test('property: monotone non-decreasing in k and in c', () => {
  fc.assert(fc.property(nck, ({ n, c, k }) => {
    const v = passAtKEstimate(n, c, k);
    if (k + 1 <= n + 3) assert.ok(passAtKEstimate(n, c, k + 1) >= v - 1e-12, 'not monotone in k');
    if (c + 1 <= n) assert.ok(passAtKEstimate(n, c + 1, k) >= v - 1e-12, 'not monotone in c');
  }));
});

test('property: passAtK over tasks is in [0, 1] or null, and nMeasured + nAllInfra ≤ nTasks', () => {
  const reward = fc.oneof(fc.constant(null), fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true }));
  fc.assert(fc.property(fc.array(fc.record({ rewards: fc.array(reward, { maxLength: 8 }) }), { maxLength: 12 }), fc.integer({ min: 1, max: 8 }), (tasks, k) => {
    const r = passAtK(tasks, k);
    if (r.value !== null) assert.ok(r.value >= 0 && r.value <= 1);
    else assert.equal(r.nMeasured, 0);
    assert.ok(r.nMeasured + r.nAllInfra <= r.nTasks);
  }));
});

test('edges: no attempts or k below 1 → NaN / null; a fractional k is floored; non-finite rewards are not measured', () => {
  assert.ok(Number.isNaN(passAtKEstimate(0, 0, 1)));
  assert.ok(Number.isNaN(passAtKEstimate(4, 1, 0)));
  assert.ok(Number.isNaN(passAtKEstimate(-1, 0, 1)));
  assert.equal(passAtKEstimate(1, 1, 1), 1);
  assert.equal(passAtKEstimate(1, 0, 1), 0);
  // n − c = k exactly: the product is not empty, the estimate below 1 (1 − C(2,2)/C(4,2) = 5/6).
  close(passAtKEstimate(4, 2, 2), 5 / 6);
  assert.equal(taskPassAtK([1, 0], 0), null);
  assert.equal(taskPassAtK([1, 0], 0.5), null);
  assert.equal(taskPassAtK([1, 0], Number.NaN), null);
  // k = 2.9 is pass@2 (n=4, c=1 → 0.5), not pass@3 (0.75).
  close(taskPassAtK([1, 0, 0, 0], 2.9), 0.5);
  // Infinity and NaN are no measurements: n = 2 here, c = 1.
  close(taskPassAtK([1, Number.POSITIVE_INFINITY, Number.NaN, 0], 1), 0.5);
  assert.equal(taskPassAtK([Number.NaN], 1), null);
  assert.equal(passedAt([Number.POSITIVE_INFINITY, 1]), 2);
  assert.equal(passedAt([undefined, 1]), 2);
  // A reward of exactly the threshold passes; a hair below does not.
  assert.equal(taskPassAtK([1], 1), 1);
  assert.equal(taskPassAtK([1 - 1e-9], 1), 0);
  assert.deepEqual(passAtKValues(2), [1, 2]);
  assert.deepEqual(passAtKValues(8), [1, 2, 4, 8]);
  assert.deepEqual(passAtKValues(Number.NaN), []);
  assert.deepEqual(passAtKValues(0.5), []);
});

test('passAtK: a task with attempts none of them measured is all-infra; the mean is over measured tasks only', () => {
  const r = passAtK([{ rewards: [undefined, null] }, { rewards: [1] }, { rewards: [0, 1] }], 1);
  assert.deepEqual(r, { value: (1 + 0.5) / 2, nTasks: 3, nMeasured: 2, nAllInfra: 1 });
  assert.deepEqual(passAtK([{ rewards: [] }], 1), { value: null, nTasks: 1, nMeasured: 0, nAllInfra: 0 });
});

test('passAtKs: every k in one pass is the mean of the per-task estimates (taskPassAtK), nulls and k < 1 as passAtK says', () => {
  const reward = fc.oneof(fc.constant(null), fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true }));
  fc.assert(fc.property(fc.array(fc.array(reward, { maxLength: 9 }), { maxLength: 30 }), fc.array(fc.integer({ min: -1, max: 12 }), { minLength: 1, maxLength: 6 }), (rows, ks) => {
    const tasks = rows.map((rewards) => ({ rewards }));
    const got = passAtKs(tasks, ks);
    ks.forEach((k, i) => {
      const per = rows.map((r) => taskPassAtK(r, k));
      const measured = per.filter((v): v is number => v !== null);
      const want = {
        value: measured.length ? measured.reduce((a, b) => a + b, 0) / measured.length : null,
        nTasks: rows.length, nMeasured: measured.length, nAllInfra: rows.filter((r, j) => r.length > 0 && per[j] === null).length,
      };
      assert.equal(got[i].nTasks, want.nTasks);
      assert.equal(got[i].nMeasured, want.nMeasured);
      assert.equal(got[i].nAllInfra, want.nAllInfra);
      if (want.value === null) assert.equal(got[i].value, null);
      else assert.ok(Math.abs((got[i].value ?? NaN) - want.value) < 1e-12, `${got[i].value} vs ${want.value}`);
      assert.deepEqual(passAtK(tasks, k), got[i]);
    });
  }));
});
