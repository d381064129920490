// Longest common subsequence of two integer sequences by Myers' O(ND) difference algorithm in linear space
// (E. Myers, "An O(ND) Difference Algorithm and Its Variations", 1986; the bisection as in diff-match-patch):
// common prefix and suffix trimmed, the middle of the edit path found from both ends, each half solved the same way.
// Elements that occur on one side only can never be matched: they are set aside first, so two sequences that share
// little cost little (a full N×M table is never built). Time O((N+M)·D) for D differences, memory O(N+M); when a
// search passes MAX_COST differences it splits at the furthest point reached so far (as git's xdiff does), so two
// long sequences of the same few elements in different orders stay fast: the match is then long, not always longest.
// It is the longest whenever the two differ in at most 2·MAX_COST places (the searches from both ends meet within
// MAX_COST rounds); past that the work is about (N + M)·MAX_COST cells of the edit graph (random pairs of 300–3,000:
// up to 1.24·(N + M)·(MAX_COST + 1)). Diagonals that run off the graph are dropped, so k elements against a long
// sequence cost at most about (N + M)·k/2, often less than one pass. `DiffWork` counts the cells visited:
// test/unit/compare/diffWork.test.ts holds it to these bounds on fixed inputs (nothing for elements on one side only).

/** Differences searched from each end before a split is taken where the search got furthest. */
export const MAX_COST = 256;

/**
 * What a search cost, for callers (and tests) that hold it to the bound above: the cells of the edit graph visited,
 * counted as each element of a trimmed common prefix or suffix, each diagonal reached in a round of the search and
 * each step along the run of equal elements that follows it. Elements on one side only cost nothing here.
 */
export interface DiffWork {
  cells: number;
}

export interface Matches {
  /** Matched positions, increasing on both sides: a[left[i]] === b[right[i]]. */
  left: number[];
  right: number[];
}

let cells = 0;

/** The positions of a (longest) common subsequence of a and b; `work.cells` grows by the cells the search visited. */
export function commonSubsequence(a: ArrayLike<number>, b: ArrayLike<number>, work?: DiffWork): Matches {
  // Keep only what occurs on both sides (a unique element is never part of a common subsequence).
  const inA = new Set<number>();
  for (let i = 0; i < a.length; i++) inA.add(a[i]);
  const inB = new Set<number>();
  for (let j = 0; j < b.length; j++) inB.add(b[j]);
  const ia: number[] = [];
  const ib: number[] = [];
  for (let i = 0; i < a.length; i++) if (inB.has(a[i])) ia.push(i);
  for (let j = 0; j < b.length; j++) if (inA.has(b[j])) ib.push(j);
  const fa = Int32Array.from(ia, (i) => a[i]);
  const fb = Int32Array.from(ib, (j) => b[j]);
  const out: Matches = { left: [], right: [] };
  cells = 0;
  solve(fa, 0, fa.length, fb, 0, fb.length, out);
  if (work) work.cells += cells;
  for (let n = 0; n < out.left.length; n++) { out.left[n] = ia[out.left[n]]; out.right[n] = ib[out.right[n]]; }
  return out;
}

function solve(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: Matches): void {
  const before = out.left.length;
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) { out.left.push(aLo++); out.right.push(bLo++); }
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - suffix - 1] === b[bHi - suffix - 1]) suffix++;
  aHi -= suffix;
  bHi -= suffix;
  cells += out.left.length - before + suffix;
  if (aLo < aHi && bLo < bHi) {
    const split = bisect(a, aLo, aHi, b, bLo, bHi);
    if (split) {
      solve(a, aLo, aLo + split[0], b, bLo, bLo + split[1], out);
      solve(a, aLo + split[0], aHi, b, bLo + split[1], bHi, out);
    }
  }
  for (let s = 0; s < suffix; s++) { out.left.push(aHi + s); out.right.push(bHi + s); }
}

/** Where the forward and backward searches of the shortest edit path meet: [x, y] relative to the ranges; null if nothing is common. */
function bisect(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const off = maxD;
  const len = 2 * maxD + 2;
  const v1 = new Int32Array(len).fill(-1);
  const v2 = new Int32Array(len).fill(-1);
  v1[off + 1] = 0;
  v2[off + 1] = 0;
  const delta = n - m;
  const front = (delta & 1) !== 0;
  let k1start = 0, k1end = 0, k2start = 0, k2end = 0;
  let bestX = 0, bestY = 0;
  for (let d = 0; d < maxD; d++) {
    if (d > MAX_COST && bestX + bestY > 0 && (bestX < n || bestY < m)) return [bestX, bestY];
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const k1o = off + k1;
      let x1 = k1 === -d || (k1 !== d && v1[k1o - 1] < v1[k1o + 1]) ? v1[k1o + 1] : v1[k1o - 1] + 1;
      let y1 = x1 - k1;
      const x0 = x1;
      while (x1 < n && y1 < m && a[aLo + x1] === b[bLo + y1]) { x1++; y1++; }
      cells += 1 + x1 - x0;
      v1[k1o] = x1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else {
        // On the grid: the furthest point so far (the first reached of equally far ones), and the meeting test.
        if (x1 + y1 > bestX + bestY) { bestX = x1; bestY = y1; }
        if (front) {
          const k2o = off + delta - k1;
          if (k2o >= 0 && k2o < len && v2[k2o] !== -1 && x1 >= n - v2[k2o]) return [x1, y1];
        }
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const k2o = off + k2;
      let x2 = k2 === -d || (k2 !== d && v2[k2o - 1] < v2[k2o + 1]) ? v2[k2o + 1] : v2[k2o - 1] + 1;
      let y2 = x2 - k2;
      const x0 = x2;
      while (x2 < n && y2 < m && a[aHi - x2 - 1] === b[bHi - y2 - 1]) { x2++; y2++; }
      cells += 1 + x2 - x0;
      v2[k2o] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const k1o = off + delta - k2;
        if (k1o >= 0 && k1o < len && v1[k1o] !== -1) {
          const x1 = v1[k1o];
          const y1 = off + x1 - k1o;
          if (x1 >= n - x2) return [x1, y1];
        }
      }
    }
  }
  return null;
}
