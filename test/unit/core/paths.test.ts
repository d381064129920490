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
