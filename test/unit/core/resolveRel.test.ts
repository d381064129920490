// A run summary's paths are resolved against its folder (readers/nemo/repeatEvidence.ts resolveRel): plain relative
// paths under a normal folder are joined without path.resolve, which must give exactly what resolve gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { resolveRel } from '../../../src/core/readers/nemo/repeatEvidence';

test('resolveRel answers as path.posix.resolve (backslashes as slashes) for any root and relative or absolute path', () => {
  const seg = fc.constantFrom('a', 'verifier', '.', '..', '', 'x.json', 'b\\c', '...', '.hidden', ' ');
  const rel = fc.array(seg, { minLength: 0, maxLength: 6 }).chain((segs) => fc.boolean().map((abs) => (abs ? '/' : '') + segs.join('/')));
  const root = fc.constantFrom('/r', '/r/s', '/', '/r/', '/r/./s', '/r/../s', '/r//s', '/a b/c');
  fc.assert(fc.property(root, rel, (r, p) => {
    assert.equal(resolveRel(r, p), path.posix.resolve(r, p.replace(/\\/g, '/')), `${r} + ${p}`);
  }), { numRuns: 3000, seed: 20261201 });
  // The same root asked in turn with another (the normal-root answer is remembered per root).
  assert.equal(resolveRel('/r/../s', 'a'), '/s/a');
  assert.equal(resolveRel('/r', 'a'), '/r/a');
  assert.equal(resolveRel('/r/', 'a'), '/r/a');
});
