// What the diff (src/core/compare/diff.ts) promises beyond "a common subsequence": the work it does, counted as the
// cells of the edit graph visited (DiffWork), on fixed inputs (the count is deterministic): elements on one side only
// cost nothing, equal sequences one look at each pair, a short sequence against a long one no more than one pass over
// both here (in general about (N + M)·k/2 at most for a short side of k; keeping the diagonals that ran off the grid
// costs 6–20 times these), two long random sequences at most (N + M)·(MAX_COST + 1) here (about that in general);
// and the longest common subsequence whenever the two differ in at most 2·MAX_COST places, even where the point the
// search reaches furthest is not on a longest one.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { commonSubsequence, MAX_COST, type DiffWork, type Matches } from '../../../src/core/compare/diff';
import { Prng } from '../../../scripts/sample-runs/util';

/** Length of a longest common subsequence by dynamic programming (two rows). */
function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** The matches, checked to be a common subsequence, and the cells the search visited. */
function run(a: number[], b: number[]): { m: Matches; cells: number } {
  const work: DiffWork = { cells: 0 };
  const m = commonSubsequence(a, b, work);
  assert.equal(m.left.length, m.right.length);
  for (let i = 0; i < m.left.length; i++) {
    assert.equal(a[m.left[i]], b[m.right[i]]);
    if (i) assert.ok(m.left[i] > m.left[i - 1] && m.right[i] > m.right[i - 1]);
  }
  // Every match is one step of a trimmed common prefix or suffix, each counted once.
  assert.ok(Number.isInteger(work.cells) && work.cells >= m.left.length, `${work.cells} cells for ${m.left.length} matches`);
  return { m, cells: work.cells };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const random = (rng: Prng, n: number, alphabet: number) => Array.from({ length: n }, () => rng.int(0, alphabet));

test('elements on one side only cost nothing: 5,000 unique elements a side around three common ones', () => {
  const a = range(100_000, 5000);
  const b = range(200_000, 5000);
  a.splice(2500, 0, 1, 2, 3);
  b.splice(100, 0, 3, 2, 1);
  const r = run(a, b);
  assert.equal(r.m.left.length, 1);
  assert.ok(r.cells <= 6 * 6, `${r.cells} cells`);
  // One side's unique elements between its two common ones, the other side only those two, crossed.
  for (const [x, y] of [[[1, ...range(10, 5000), 2], [2, 1]], [[2, 1], [1, ...range(10, 5000), 2]]]) {
    const s = run(x, y);
    assert.equal(s.m.left.length, 1);
    assert.ok(s.cells <= 4 * 4, `${s.cells} cells`);
  }
  // The same more than once: still the common elements only.
  const w: DiffWork = { cells: 0 };
  commonSubsequence(a, b, w);
  commonSubsequence(a, b, w);
  assert.equal(w.cells, 2 * r.cells, 'the counter adds up over calls');
});

test('equal sequences cost one look at each pair; two swapped elements in the middle hardly more', () => {
  const a = range(0, 1000);
  const same = run(a, a.slice());
  assert.equal(same.m.left.length, 1000);
  assert.equal(same.cells, 1000);
  const b = a.slice();
  [b[500], b[501]] = [b[501], b[500]];
  const swapped = run(a, b);
  assert.equal(swapped.m.left.length, 999);
  assert.ok(swapped.cells >= 999 && swapped.cells <= 1000 + 20, `${swapped.cells} cells`);
  // With nothing in common at either end: the suffix is counted like the prefix.
  const c = [1, 2, ...range(10, 500)];
  const d = [2, 1, ...range(10, 500)];
  const tail = run(c, d);
  assert.equal(tail.m.left.length, 501);
  assert.ok(tail.cells >= 501 && tail.cells <= 501 + 20, `${tail.cells} cells`);
});

test('a short sequence against a long one costs about one pass over both, whichever side is short', () => {
  const rng = new Prng(21);
  for (const [n, m, alphabet] of [[5, 5000, 2], [10, 5000, 5], [5000, 3, 3], [5000, 10, 5]]) {
    const a = random(rng, n, alphabet);
    const b = random(rng, m, alphabet);
    const r = run(a, b);
    assert.equal(r.m.left.length, lcsLength(a, b), `${n}×${m}`);
    assert.ok(r.cells <= n + m, `${n}×${m}: ${r.cells} cells`);
  }
});

test(`two long random sequences past MAX_COST differences: at most (N + M)·(MAX_COST + 1) cells`, () => {
  const rng = new Prng(22);
  // Long and narrow too: a split is only ever taken at a point on the grid (the matches stay a common subsequence).
  for (const [n, m, alphabet] of [[1500, 1500, 20], [3000, 10, 2], [3000, 30, 2], [3000, 50, 5], [10, 3000, 2], [50, 3000, 5]]) {
    const a = random(rng, n, alphabet);
    const b = random(rng, m, alphabet);
    const r = run(a, b);
    assert.ok(r.cells <= (n + m) * (MAX_COST + 1), `${n}×${m}: ${r.cells} cells`);
  }
});

test('the longest common subsequence whenever the two differ in at most 2·MAX_COST places, even past a trap', () => {
  // a = A + B, b = B + A with A and B of distinct elements: the longest match is B (|B| > |A|), at |A| deletions and
  // |A| insertions. For MAX_COST rounds every point the search reaches is as far as any other (nothing matches before
  // A or B is passed over whole): a split there loses B.
  for (const [p, q] of [[MAX_COST, MAX_COST + 44], [MAX_COST - 1, MAX_COST + 1]]) {
    const A = range(1, p);
    const B = range(10_000, q);
    assert.equal(run([...A, ...B], [...B, ...A]).m.left.length, q, `AB/BA ${p},${q}`);
    assert.equal(run([...B, ...A], [...A, ...B]).m.left.length, q, `BA/AB ${p},${q}`);
  }
  // Random pairs with up to 2·MAX_COST single-element insertions and deletions.
  const rng = new Prng(23);
  for (let t = 0; t < 2; t++) {
    const a = random(rng, 800, [50, 1000][t]);
    const b = a.slice();
    for (let e = 0; e < MAX_COST; e++) b.splice(rng.int(0, b.length), 1);
    for (let e = 0; e < MAX_COST; e++) b.splice(rng.int(0, b.length + 1), 0, rng.int(0, 1000));
    assert.equal(run(a, b).m.left.length, lcsLength(a, b));
  }
});
