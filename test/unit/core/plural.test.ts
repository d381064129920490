// One plural rule (src/core/format.ts plural / pluralWord) for the tree, the webviews and the CLI: "1 task", "2
// tasks", "1 match", "Show 1 more task"; no other place spells its own `n === 1 ? '' : 's'`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatCount, plural, pluralWord } from '../../../src/core/format';
import { describe as describeNode } from '../../../src/views/tree/describe';
import { repoRoot } from '../../support/paths';
import { readingProgress, type MoreNode, type TaskNode } from '../../../src/views/tree/nodes';

test('plural and pluralWord: singular for 1 only, an irregular plural, the number written as asked', () => {
  assert.deepEqual([0, 1, 2].map((n) => plural(n, 'task')), ['0 tasks', '1 task', '2 tasks']);
  assert.deepEqual([1, 3].map((n) => plural(n, 'match', 'matches')), ['1 match', '3 matches']);
  assert.equal(plural(10_000, 'attempt', undefined, formatCount), '10,000 attempts');
  assert.equal(plural(1, 'measured attempt'), '1 measured attempt');
  assert.deepEqual([1, 2].map((n) => pluralWord(n, 'step')), ['step', 'steps']);
});

test('the tree: "Show 1 more task", "of 1 trial folder"', () => {
  const parent = { kind: 'task', id: 't' } as unknown as TaskNode;
  const more = (shown: number, total: number, what: MoreNode['what']): MoreNode => ({ kind: 'more', id: 'm', parent, shown, total, what });
  assert.equal(describeNode(more(200, 201, 'tasks')).label, 'Show 1 more task');
  assert.equal(describeNode(more(200, 202, 'attempts')).label, 'Show 2 more attempts');
  assert.equal(describeNode(more(0, 5000, 'tasks')).label, 'Show 1,000 more tasks');
  assert.equal(readingProgress({ done: 0, total: 1 }), '0 of 1 trial folder (0%)');
});

test('no file spells its own plural: they all call plural / pluralWord', () => {
  const root = repoRoot();
  const own: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ts$/.test(e.name) && /=== 1 \? ['"]{2} : ['"]s['"]/.test(fs.readFileSync(p, 'utf8'))) own.push(path.relative(root, p));
    }
  };
  for (const d of ['src', 'webview']) walk(path.join(root, d));
  assert.deepEqual(own, []);
});
