// Include / exclude globs (issue: an untrusted workspace's settings can supply them): time bounded by path × pattern
// whatever the pattern, and the same answers as picomatch (the well-kept regex-based matcher, used here as the
// oracle on inputs too short for its backtracking to matter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { expandBraces, globMatch, matchesAny, MAX_ALTERNATIVES } from '../../../src/core/glob';

test('glob: ten `*a` against a 40-character name answers in well under 100 ms (regex matchers take > 30 s)', () => {
  const name = `${'a'.repeat(39)}b`;
  for (const [g, p] of [['*a'.repeat(10), name], [`**/${'*a'.repeat(10)}`, `x/y/${name}`], [`${'*a'.repeat(30)}*c`, 'a'.repeat(200)],
    [`${'**/'.repeat(20)}*a*a*a/b`, `${'a/'.repeat(40)}c`]] as const) {
    // The fastest of five (a shared, loaded machine can pause any one call); a backtracking matcher takes > 30 s each.
    let ms = Infinity;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      assert.equal(globMatch(g, p), false);
      ms = Math.min(ms, performance.now() - t0);
    }
    assert.ok(ms < 100, `${g} against ${p.length} characters took ${ms.toFixed(1)} ms`);
  }
  assert.equal(globMatch('*a'.repeat(10), 'a'.repeat(40)), true);
});

test('glob: braces expand to at most MAX_ALTERNATIVES, past that they are literal (no blow-up)', () => {
  assert.deepEqual(expandBraces('a/{b,c}/{d,e{f,g}}'), ['a/b/d', 'a/b/ef', 'a/b/eg', 'a/c/d', 'a/c/ef', 'a/c/eg']);
  assert.equal(expandBraces('{a,b}'.repeat(10)), null);
  const t0 = performance.now();
  assert.equal(globMatch('{a,b}'.repeat(40), 'ab'), false);
  assert.equal(globMatch('{a,b}'.repeat(40), '{a,b}'.repeat(40)), true);
  // 2^40 alternatives would never finish; the bound only tells that from a bounded expansion on a loaded machine.
  assert.ok(performance.now() - t0 < 5000);
  assert.equal(globMatch('**/{jobs,runs}/*', 'x/runs/r1'), true);
  assert.equal(globMatch('**/[!.]*', 'x/.hidden'), false);
  assert.equal(globMatch('run-[0-9]', 'run-7'), true);
  assert.ok(MAX_ALTERNATIVES >= 16);
});

test('glob: same answers as picomatch (dot: true) on random short patterns and paths', () => {
  const seg = fc.array(fc.constantFrom('a', 'b', '.', '*', '?', '[ab]', '[^a]'), { minLength: 1, maxLength: 4 }).map((x) => x.join(''))
    .filter((s) => !s.includes('**') && s !== '.' && s !== '..'); // `**` inside a segment: picomatch reads it as `*` only in some positions
  const pat = fc.array(fc.oneof(seg, fc.constant('**')), { minLength: 1, maxLength: 4 }).map((x) => x.join('/'));
  const pathArb = fc.array(fc.array(fc.constantFrom('a', 'b', '.', 'c'), { minLength: 1, maxLength: 4 }).map((x) => x.join('')), { minLength: 1, maxLength: 4 })
    .map((x) => x.join('/')).filter((p) => !p.split('/').some((s) => s === '.' || s === '..'));
  fc.assert(fc.property(pat, pathArb, (g, p) => {
    const full = (g.includes('/') ? g : `**/${g}`).replace(/\*\*(\/\*\*)+/g, '**');
    // Ours (like the matcher it replaces) lets `x/**` match `x` itself; picomatch does for a literal x only.
    const oracle = picomatch(full, { dot: true })(p) || (full.endsWith('/**') && picomatch(full.slice(0, -3), { dot: true })(p));
    assert.equal(globMatch(g, p), oracle, `${g} ~ ${p}`);
  }), { numRuns: 3000, seed: Number(process.env.FUZZ_SEED ?? 20261130) });
});

test('glob: matchesAny with none, one and several patterns', () => {
  assert.equal(matchesAny(undefined, 'a'), false);
  assert.equal(matchesAny([], 'a'), false);
  assert.equal(matchesAny(['x', '**/a'], 'q/a'), true);
});
