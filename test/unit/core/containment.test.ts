// isInside answers normal absolute paths by a prefix test (no resolve / relative per evidence path): the same answer
// as the lexical check on every kind of path (dot segments, doubled and trailing slashes, relative, the root itself).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { containment, isInside, outsideMessage } from '../../../src/core/containment';
import type { FsPort } from '../../../src/core/fs/port';

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

test('containment: by the text first, then (where the port resolves links) by the real path against the folder\'s', async () => {
  const port = (links: Record<string, string>, resolves = true): FsPort => ({
    ...(resolves ? { realpath: async (p: string) => (p in links ? links[p] : undefined) } : {}),
  } as unknown as FsPort);
  const root = '/runs/r1';
  assert.deepEqual(await containment(port({}), root, '/runs/r1/../r2/x'), { inside: false, reason: "/runs/r1/../r2/x is outside the run's folder /runs/r1" });
  assert.deepEqual(await containment(port({}, false), root, '/runs/r1/a'), { inside: true, checked: 'text' });
  assert.deepEqual(await containment(port({ [root]: root }), root, '/runs/r1/gone'), { inside: true, checked: 'real' }, 'not there: nothing to open');
  assert.deepEqual(await containment(port({ [root]: root, '/runs/r1/a': '/runs/r1/b' }), root, '/runs/r1/a'), { inside: true, checked: 'real' });
  assert.deepEqual(await containment(port({ [root]: root, '/runs/r1/out': '/etc/passwd' }), root, '/runs/r1/out'),
    { inside: false, real: '/etc/passwd', reason: "/runs/r1/out is a link to /etc/passwd, outside the run's folder /runs/r1" });
  // The folder itself behind a link: its files are compared with its real path; a folder the port cannot resolve by its own.
  assert.deepEqual(await containment(port({ [root]: '/disk/r1', '/runs/r1/a': '/disk/r1/a' }), root, '/runs/r1/a'), { inside: true, checked: 'real' });
  assert.deepEqual(await containment(port({ '/runs/r1/a': '/runs/r1/b' }), root, '/runs/r1/a'), { inside: true, checked: 'real' });
  assert.equal((await containment(port({ '/runs/r1/a': '/disk/r1/a' }), root, '/runs/r1/a')).inside, false);
});
