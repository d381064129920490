// The project's one set of POSIX path helpers (core/paths.ts), which the Harbor reader's joinPath now is too.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  basename, dirname, isAbsolutePath, isNormalAbsolute, isWithin, joinPath, normalizePath, relativeInside, relativePath, stemOf, withoutSuffix,
} from '../../../src/core/paths';
import { joinPath as harborJoin, baseName } from '../../../src/core/readers/harbor/paths';

test('joinPath normalises, for every caller (the Harbor reader included)', () => {
  assert.equal(joinPath('/jobs/j/', 'trial', '../trial2', './agent//', 'trajectory.json'), '/jobs/j/trial2/agent/trajectory.json');
  assert.equal(joinPath('/', 'x'), '/x');
  assert.equal(joinPath('/a', '/abs/b'), '/abs/b', 'an absolute part replaces the base');
  assert.equal(harborJoin, joinPath);
  assert.equal(baseName('/jobs/j/'), 'j');
});

test('dirname / basename, isWithin and relativeInside', () => {
  assert.equal(dirname('/a/b/c.json'), '/a/b');
  assert.equal(dirname('/c.json'), '/');
  assert.equal(basename('/a/b/'), 'b');
  assert.equal(isWithin('/a/b/c', '/a/b'), true);
  assert.equal(isWithin('/a/bc', '/a/b'), false);
  assert.equal(isWithin('/a/b', '/a/b'), true, 'a folder is within itself');
  assert.equal(isWithin('/a/b', '/a/b/'), false, 'a folder with a trailing slash contains what is below it');
  assert.equal(isWithin('/a/b/x', '/a/b/'), true);
  assert.equal(relativeInside('/run', '/run/verifier/x'), 'verifier/x');
  assert.equal(relativeInside('/run', '/elsewhere/x'), '/elsewhere/x');
  assert.equal(relativePath('/run/a', '/run/b/c'), '../b/c');
});

test('dirname of a bare name, stemOf and withoutSuffix', () => {
  assert.equal(dirname('x.json'), '.');
  assert.equal(stemOf('rollouts.jsonl'), 'rollouts');
  assert.equal(stemOf('a.b.c'), 'a.b');
  assert.equal(stemOf('.hidden'), '.hidden', 'a leading dot is part of the name');
  assert.equal(stemOf('noext'), 'noext');
  assert.equal(withoutSuffix('/runs/out/rollouts.jsonl'), '/runs/out/rollouts');
});

test('absolute and normal paths; normalizePath with drives and backslashes', () => {
  for (const p of ['/a', 'C:/a', 'c:\\a']) assert.equal(isAbsolutePath(p), true, p);
  for (const p of ['a/b', 'C:a', 'xC:/a', '']) assert.equal(isAbsolutePath(p), false, p);
  assert.equal(isNormalAbsolute('/a/b.json'), true);
  for (const p of ['/a/./b', '/a/../b', '/a//b', '/a/', 'a/b', '/a\\b']) assert.equal(isNormalAbsolute(p), false, p);
  assert.equal(normalizePath('C:/a/../b'), 'C:/b');
  assert.equal(normalizePath('C:\\a\\.\\b'), 'C:/a/b');
  assert.equal(normalizePath('/a\\b/../c'), '/a/c');
  assert.equal(normalizePath('/a:b/../c'), '/c', 'a colon further on is not a drive');
  assert.equal(normalizePath('/..'), '/');
});

test('relativePath: siblings that share a prefix, a base found later in the target, relative paths, drives', () => {
  assert.equal(relativePath('/run/out', '/run/out-logs/s1'), '../out-logs/s1', 'out-logs is not inside out');
  assert.equal(relativePath('/run/out', '/run/out/s1'), 's1');
  assert.equal(relativePath('/x', '/y/x'), '../y/x', 'the base at the end of the target is not the target\'s folder');
  assert.equal(relativePath('/a/b', '/a/b'), '.');
  assert.equal(relativePath('/a/b/c', '/a'), '../..');
  assert.equal(relativePath('/run', '/x/a:b/c'), '../x/a:b/c', 'a colon inside a path is no drive');
  assert.equal(relativePath('rel/a', 'rel/b'), 'rel/b', 'relative paths come back as they are');
  assert.equal(relativePath('/a', 'b'), 'b');
  assert.equal(relativePath('a', '/b'), '/b');
  assert.equal(relativePath('C:/a', 'D:/b'), 'D:/b', 'another drive: absolute');
  assert.equal(relativePath('C:/a/b', 'c:/a/d'), '../d', 'the same drive, either case');
  assert.equal(relativePath('/a/./b', '/a/b/c'), 'c', 'a base that is not normal');
});

/** joinPath / normalizePath / isNormalAbsolute as they were before their fast paths (one regex, split and join). */
const NORMAL_RE = /^(?:\/(?!\.\.?(?:\/|$))[^/\\]+)+$/;
function normalizeSlow(p: string): string {
  if (NORMAL_RE.test(p)) return p;
  const drive = /^[A-Za-z]:/.test(p) ? p.slice(0, 2) : '';
  const rest = (drive ? p.slice(2) : p).replace(/\\/g, '/');
  const out: string[] = [];
  for (const seg of rest.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') { out.pop(); continue; }
    out.push(seg);
  }
  return `${drive}/${out.join('/')}`;
}
function joinSlow(base: string, ...parts: string[]): string {
  let p = base;
  for (const part of parts) {
    if (!part) continue;
    p = isAbsolutePath(part) ? part : `${p.replace(/\/+$/, '')}/${part}`;
  }
  return normalizeSlow(p);
}

test('the fast paths of joinPath, normalizePath and isNormalAbsolute answer as the slow ones on tricky inputs', () => {
  const names = ['', '.', '..', '...', '.a', 'a.', 'a..b', 'a', 'bc', 'C:', 'c:', 'a:b', ' ', 'a\\b', '\\', 'é', 'a\nb'];
  const pieces: string[] = [];
  for (const x of names) {
    pieces.push(x, `/${x}`, `${x}/`, `//${x}`, `${x}//`);
    for (const y of names) pieces.push(`${x}/${y}`, `${x}\\${y}`, `${x}//${y}`);
  }
  pieces.push('C:/a', 'c:\\a', 'C:\\', 'C:/', 'x:/..', '/C:/a', 'a/b/c/./d', 'a/../../b');
  const bases = ['/', '//', '/a', '/a/', '/a//', '/a/b', '/a/./b', '/a/../b', '/a\\b', '/..', '/.', 'a', 'a/b', '', 'C:/a', 'C:\\a',
    '/a:b', '/jobs/job 1/trial__x', '/.../x', '/.hidden'];
  for (const p of [...pieces, ...bases]) {
    assert.equal(normalizePath(p), normalizeSlow(p), `normalizePath(${JSON.stringify(p)})`);
    assert.equal(isNormalAbsolute(p), NORMAL_RE.test(p), `isNormalAbsolute(${JSON.stringify(p)})`);
  }
  for (const b of [...bases, ...pieces.slice(0, 200)]) {
    for (const part of pieces) {
      // Twice: the second time the base may be the one remembered as normal.
      for (let k = 0; k < 2; k++) assert.equal(joinPath(b, part), joinSlow(b, part), `joinPath(${JSON.stringify(b)}, ${JSON.stringify(part)})`);
    }
    assert.equal(joinPath(b, 'x', '..', 'y/z'), joinSlow(b, 'x', '..', 'y/z'));
    assert.equal(joinPath(b), joinSlow(b));
  }
});

test('joinPath of plain names to a normal folder, and what is not plain', () => {
  assert.equal(joinPath('/jobs/j/t', 'verifier/ctrf.json'), '/jobs/j/t/verifier/ctrf.json');
  assert.equal(joinPath('/jobs/j/t', 'verifier/../ctrf.json'), '/jobs/j/t/ctrf.json');
  assert.equal(joinPath('/jobs/j/t', 'C:/x'), 'C:/x', 'a drive path replaces the base');
  assert.equal(joinPath('/jobs/j/t', 'C:'), '/jobs/j/t/C:', 'a bare drive letter is a name');
  assert.equal(joinPath('/jobs/j/t/', 'a'), '/jobs/j/t/a', 'a trailing slash on the base');
  assert.equal(joinPath('/', 'a'), '/a');
  assert.equal(joinPath('', 'a'), '/a');
  assert.equal(joinPath('/a\\b', 'c'), '/a/b/c', 'a backslash in the base');
});
