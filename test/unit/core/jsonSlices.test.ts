// Lists handed over in slices by size (src/core/jsonSlices.ts): each slice's text is JSON.stringify of its items, cut
// where the budget is reached, at least one item however long.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonSlice, SLICE_CHARS } from '../../../src/core/jsonSlices';
import { assertSlicedBySize } from '../../support/slices';

function sliceAll(items: readonly unknown[], budget?: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < items.length;) {
    const s = jsonSlice(items, i, budget);
    assert.ok(s.end > i, 'each slice moves on');
    assert.equal(s.json, JSON.stringify(items.slice(i, s.end)), 'the text JSON.stringify writes for those items');
    out.push(s.json);
    i = s.end;
  }
  return out;
}

test('items of one size: slices of the fewest items reaching the budget, the last holding the rest', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ id: `t${i}` })); // {"id":"t0"}: 11 characters and a comma
  assert.deepEqual(sliceAll(items, 36).map((s) => (JSON.parse(s) as unknown[]).length), [3, 3, 3, 1]);
  assert.deepEqual(sliceAll(items, 37).map((s) => (JSON.parse(s) as unknown[]).length), [4, 4, 2]);
  assertSlicedBySize(sliceAll(items, 36), items, 36);
});

test('items of mixed sizes, a budget smaller than one item, the default budget', () => {
  const items = Array.from({ length: 300 }, (_, i) => ({ id: i, text: 'x'.repeat((i * 7919) % 500) }));
  for (const budget of [1, 100, 999, 5000]) assertSlicedBySize(sliceAll(items, budget), items, budget);
  assert.deepEqual(sliceAll(items, 1).length, 300, 'one item a slice when each is over the budget');
  const whole = sliceAll(items);
  assertSlicedBySize(whole, items, SLICE_CHARS);
  assert.ok(whole.length >= 2 && whole.length <= 3, `${whole.length} slices of ~${SLICE_CHARS} for ~75 K characters`);
});

test('what JSON.stringify writes in an array: null for undefined and functions; from a start, to the end', () => {
  const items = [undefined, () => 1, 'a', null, { b: undefined }];
  assert.deepEqual(jsonSlice(items, 0, 1000), { json: '[null,null,"a",null,{}]', end: 5 });
  assert.deepEqual(jsonSlice(items, 2, 1000), { json: '["a",null,{}]', end: 5 });
  assert.deepEqual(jsonSlice(items, 4, 0), { json: '[{}]', end: 5 });
  assert.deepEqual(jsonSlice(items, 5), { json: '[]', end: 5 }, 'past the end: an empty text, no move (callers stop before)');
});
