// What a list handed over in slices by size (src/core/jsonSlices.ts) must be: the items whole and in order, each slice
// the fewest items whose JSON reaches the budget (the last slice may hold less), never an empty one.
import assert from 'node:assert/strict';

export function assertSlicedBySize(slices: readonly string[], all: readonly unknown[], budget: number): void {
  const parsed = slices.map((s) => JSON.parse(s) as unknown[]);
  assert.deepEqual(parsed.flat(), JSON.parse(JSON.stringify(all)), 'every item once, in order');
  parsed.forEach((items, k) => {
    assert.ok(items.length >= 1, `slice ${k} is empty`);
    const sizes = items.map((x) => JSON.stringify(x).length + 1);
    const total = sizes.reduce((a, b) => a + b, 0);
    if (k < parsed.length - 1) assert.ok(total >= budget, `slice ${k} (${total} characters) stops short of ${budget}`);
    assert.ok(total - sizes[sizes.length - 1] < budget, `slice ${k} (${total} characters) goes on past ${budget}`);
  });
}
