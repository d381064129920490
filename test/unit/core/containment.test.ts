// isInside answers normal absolute paths by a prefix test (no resolve / relative per evidence path): the same answer
// as the lexical check on every kind of path (dot segments, doubled and trailing slashes, relative, the root itself).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { isInside, outsideMessage } from '../../../src/core/containment';

function lexical(root: string, abs: string): boolean {
  const r = path.posix.relative(path.posix.resolve(root), path.posix.resolve(abs));
  return r === '' || (r !== '..' && !r.startsWith('../') && !path.posix.isAbsolute(r));
}

test('isInside agrees with the lexical check (resolve, then relative) on any path', () => {
  const seg = fc.constantFrom('a', 'b', 'ab', '.', '..', '', '...', 'a.b', '.hidden', 'x y');
  const p = fc.tuple(fc.boolean(), fc.array(seg, { maxLength: 5 })).map(([abs, xs]) => (abs ? '/' : '') + xs.join('/'));
  fc.assert(fc.property(p, p, (root, abs) => {
    assert.equal(isInside(root, abs), lexical(root, abs), `${root} ∋ ${abs}`);
  }), { numRuns: 5000, seed: 20261130 });
  for (const [root, abs] of [['/', '/'], ['/', '/x'], ['/a', '/a'], ['/a', '/ab'], ['/a', '/a/b'], ['/a/', '/a/b'], ['/a/b', '/a'], ['/a', '/a/../b']]) {
    assert.equal(isInside(root, abs), lexical(root, abs), `${root} ∋ ${abs}`);
  }
});

test('outsideMessage names what, the path and the run folder, and says it is not read', () => {
  assert.equal(outsideMessage('files.verifier_logs', '../../etc', '/runs/r1'),
    "files.verifier_logs names ../../etc, which is outside the run's folder /runs/r1: not read and not opened (open it yourself if you trust it)");
});
