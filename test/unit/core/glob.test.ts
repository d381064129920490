// Glob answers the speed tests (hostile/glob.test.ts, left out of mutation runs) do not check: braces and their
// limits, character sets and ranges, how patterns and paths are normalised, and which folders an exclude glob
// stops discovery from entering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludesFolder, expandBraces, globMatch, MAX_ALTERNATIVES } from '../../../src/core/glob';

// globMatch keeps compiled patterns: a test that checks how a pattern is compiled (normalised, split, braces) pads it
// with a number of spaces not used before in this process (trimmed away), so it is compiled here, not found.
let round = 0;
const fresh = (g: string): string => `${' '.repeat(++round)}${g}`;

test('expandBraces: alternatives, nested ones, literal braces, stray closers and the limit', () => {
  assert.deepEqual(expandBraces('a/{b,c}/{d,e{f,g}}'), ['a/b/d', 'a/b/ef', 'a/b/eg', 'a/c/d', 'a/c/ef', 'a/c/eg']);
  assert.deepEqual(expandBraces('x{a,{b,c}d}y'), ['xay', 'xbdy', 'xcdy']);
  assert.deepEqual(expandBraces('x{{a,b}c,d}y'), ['xacy', 'xbcy', 'xdy'], 'a nested group before the comma');
  assert.deepEqual(expandBraces('{,a}'), ['', 'a'], 'an empty alternative');
  assert.deepEqual(expandBraces('{a}'), ['{a}'], 'one alternative: literal');
  assert.deepEqual(expandBraces('{a}{b,c}'), ['{a}b', '{a}c'], 'a literal group before an expanded one');
  assert.deepEqual(expandBraces('x}{a,b}'), ['x}a', 'x}b'], 'a closer with nothing open is literal');
  assert.deepEqual(expandBraces('{a,b'), ['{a,b'], 'unclosed: literal');
  assert.deepEqual(expandBraces('plain'), ['plain']);
  assert.deepEqual(expandBraces('{a,b}{c,d}', 4), ['ac', 'ad', 'bc', 'bd'], 'exactly the limit');
  assert.equal(expandBraces('{a,b}{c,d}', 3), null, 'one past the limit');
  assert.equal(expandBraces('{a,b,c,d}', 3), null);
  assert.equal(expandBraces('{a,b}{c,d}{e,f}', 4), null, 'past the limit in a nested expansion');
  // The default limit: 2^k alternatives expand up to MAX_ALTERNATIVES, one more doubling does not.
  const k = Math.floor(Math.log2(MAX_ALTERNATIVES));
  assert.equal(expandBraces('{a,b}'.repeat(k))?.length, 2 ** k);
  assert.equal(expandBraces('{a,b}'.repeat(k + 1)), null);
});

test('globMatch: braces match any alternative; past the limit they are literal', () => {
  assert.equal(globMatch(fresh('**/{jobs,runs}/*'), 'x/runs/r1'), true);
  assert.equal(globMatch(fresh('**/{jobs,runs}/*'), 'x/other/r1'), false);
  assert.equal(globMatch(fresh('{a,b{c,d}}.json'), 'bd.json'), true);
  assert.equal(globMatch(fresh('{a,b{c,d}}.json'), 'b.json'), false);
  const many = '{a,b}'.repeat(10);
  assert.equal(globMatch(fresh(many), 'ab'.repeat(5)), false);
  assert.equal(globMatch(fresh(many), many), true);
});

test('globMatch: character sets, negated sets and ranges stand for one character', () => {
  const cases: [string, string, boolean][] = [
    ['run-[0-9]', 'run-7', true], ['run-[0-9]', 'run-0', true], ['run-[0-9]', 'run-9', true], ['run-[0-9]', 'run-a', false],
    ['run-[0-9]', 'run-/', false], ['run-[0-9]', 'run-:', false], ['run-[0-9]', 'run-77', false],
    ['[a-cx]', 'b', true], ['[a-cx]', 'x', true], ['[a-cx]', 'd', false], ['[xa-c]', 'c', true],
    ['[b-d]', 'a', false], ['[b-d]', 'e', false], ['[b-d]', 'b', true], ['[b-d]', 'd', true], ['[!a-c]', 'b', false], ['[!a-c]', 'd', true], ['[^a]', 'a', false], ['[^a]', 'b', true], ['[!.]*', '.hidden', false],
    ['[ab]', 'a', true], ['[ab]', 'c', false], ['[a-]', '-', true], ['[a-]', 'b', false], ['[-a]', '-', true],
    ['[]]', ']', true], ['[]a]', ']', true], ['[]a]', 'a', true], ['a[b', 'a[b', true], ['a[b', 'ab', false],
    ['x[a-c][0-1]', 'xb1', true], ['x[a-c][0-1]', 'xb2', false],
  ];
  for (const [g, p, want] of cases) assert.equal(globMatch(fresh(g), p), want, `${g} ~ ${p}`);
});

test('globMatch: patterns and paths are normalised (spaces, backslashes, ./ and / in front, / behind, empty segments)', () => {
  const cases: [string, string, boolean][] = [
    [' jobs/* ', 'jobs/j1', true], ['jobs\\*', 'jobs/j1', true], ['./jobs/*', 'jobs/j1', true], ['/jobs/*', 'jobs/j1', true],
    ['jobs/*/', 'jobs/j1', true], ['jobs//*', 'jobs/j1', true], ['jobs/*', './jobs/j1', true], ['jobs/*', 'jobs\\j1', true],
    ['jobs/*', '/jobs/j1/', true], ['jobs/*', 'jobs//j1', true], ['jobs/*', 'xjobs/j1', false], ['**/**/x', 'x', true],
    ['**/**/x', 'a/b/x', true], ['a/**/**', 'a', true], ['.jobs/*', 'jobs/j1', false], ['jobs/j1', 'jobs/j1/', true],
    ['jobs/j1', 'jobs/j1//', true], ['a//b', 'a/b', true], ['a/b', 'a//b', true],
  ];
  for (const [g, p, want] of cases) {
    assert.equal(globMatch(g, p), want, `${JSON.stringify(g)} ~ ${JSON.stringify(p)}`);
    assert.equal(globMatch(fresh(g), p), want, `${JSON.stringify(g)} ~ ${JSON.stringify(p)}, compiled afresh`);
  }
  // The same pattern twice (answered from the cache) gives the same answer.
  for (let i = 0; i < 2; i++) assert.equal(globMatch('{q,r}/*.json', 'r/a.json'), true);
});

test('excludesFolder: a folder the glob matches is not entered; an anchored glob does not exclude a folder of that name deeper down', () => {
  assert.equal(excludesFolder('**/old/**', 'runs/old'), true);
  assert.equal(excludesFolder('old/**', 'old'), true);
  assert.equal(excludesFolder(' old/**/ ', 'old'), true);
  assert.equal(excludesFolder('old/**', 'runs/old'), false, 'old/** names the top-level old only');
  assert.equal(globMatch('old/**', 'runs/old/x_run_summary.json'), false, '… whose runs it does not exclude either');
  assert.equal(excludesFolder('jobs', 'jobs'), true);
  assert.equal(excludesFolder('jobs', 'a/jobs'), true, 'a bare name matches at any depth');
  assert.equal(excludesFolder('**/*.json', 'runs'), false);
  assert.equal(excludesFolder('runs/*/tmp/**', 'runs/a/tmp'), true);
  assert.equal(excludesFolder('runs/*/tmp/**', 'runs/a'), false);
});
