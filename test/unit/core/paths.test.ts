// The project's one set of POSIX path helpers (core/paths.ts), which the Harbor reader's joinPath now is too.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { basename, dirname, isWithin, joinPath, relativeInside, relativePath } from '../../../src/core/paths';
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
  assert.equal(isWithin('/a/b', '/a/b/'), false, 'a folder with a trailing slash contains what is below it');
  assert.equal(isWithin('/a/b/x', '/a/b/'), true);
  assert.equal(relativeInside('/run', '/run/verifier/x'), 'verifier/x');
  assert.equal(relativeInside('/run', '/elsewhere/x'), '/elsewhere/x');
  assert.equal(relativePath('/run/a', '/run/b/c'), '../b/c');
});
