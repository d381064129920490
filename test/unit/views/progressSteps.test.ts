// ProgressSteps (src/views/progressSteps.ts): the Write Run Summary notification's bar moves at most every half
// second, by whole percents that add up to what was read, and always reaches 100 %.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ProgressSteps } from '../../../src/views/progressSteps';

test('progress steps: whole percents at most every 500 ms, the rest added to the next step, 100 % at once', () => {
  let now = 1000;
  const s = new ProgressSteps(500, () => now);
  assert.equal(s.next(1, 100), 1, 'the first percent is said at once');
  assert.equal(s.next(2, 100), 0, 'not again within 500 ms');
  now += 499;
  assert.equal(s.next(7, 100), 0);
  now += 1;
  assert.equal(s.next(7, 100), 6, 'what was held back comes with the next step');
  assert.equal(s.reported, 7);
  assert.equal(s.next(6, 100), 0, 'never backwards');
  now += 10;
  assert.equal(s.next(100, 100), 93, '100 % is said at once');
  assert.equal(s.next(100, 100), 0);
  assert.equal(s.reported, 100);
});

test('progress steps: nothing for an unknown total or less than a percent; never past 100 %', () => {
  let now = 0;
  const s = new ProgressSteps(500, () => now);
  assert.equal(s.next(5, 0), 0);
  assert.equal(s.next(5, -1), 0);
  assert.equal(s.next(9, 1000), 0, 'under 1 %');
  now = 10_000;
  assert.equal(s.next(5000, 1000), 100, 'more read than the total (a file that grew) is 100 %');
  assert.equal(s.reported, 100);
});
