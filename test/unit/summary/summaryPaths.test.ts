// Rules 1 and 6 at the path level: the summary's name and its inverse, which `.jsonl` names are rollouts, and paths
// related to the summary's folder (its links resolved, also when it does not exist yet; the same answer whatever was
// related before). Real folders and links in a temp folder; expected paths written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { isRunSummaryPath, PathRelator, rolloutsPathForSummary, rolloutsStem } from '../../../src/core/summary/paths';
import { nodeFs, posix, tmpDir } from './helpers';

test('isRunSummaryPath and rolloutsPathForSummary: `<stem>_run_summary.json` and back', () => {
  assert.equal(isRunSummaryPath('/r/rollouts_run_summary.json'), true);
  assert.equal(isRunSummaryPath('/r/x_run_summary.json'), true);
  assert.equal(isRunSummaryPath('/r/_run_summary.json'), false);
  assert.equal(isRunSummaryPath('/r/_run_summary.json/x'), false);
  assert.equal(isRunSummaryPath('/r/rollouts_run_summary.json.bak'), false);
  assert.equal(isRunSummaryPath('/r/summary.json'), false);
  assert.equal(rolloutsPathForSummary('/r/rollouts_run_summary.json'), '/r/rollouts.jsonl');
  assert.equal(rolloutsPathForSummary('/r/other.json'), '/r/other.jsonl');
  assert.equal(rolloutsPathForSummary('/r/a.json.d/other'), '/r/a.json.d/other.jsonl');
});

test('rolloutsStem: a `.jsonl` that is not a sidecar nor the health verdicts', () => {
  assert.equal(rolloutsStem('rollouts.jsonl'), 'rollouts');
  assert.equal(rolloutsStem('rollout_verdicts.jsonl'), undefined);
  assert.equal(rolloutsStem('rollouts_failures.jsonl'), undefined);
  assert.equal(rolloutsStem('.jsonl'), undefined);
  assert.equal(rolloutsStem('rollouts.json'), undefined);
});

test('PathRelator: a summary folder not made yet is related through its existing, resolved ancestor', async () => {
  const root = posix(fs.realpathSync(tmpDir('relator')));
  fs.mkdirSync(`${root}/real/res`, { recursive: true });
  fs.symlinkSync(`${root}/real`, `${root}/link`);
  // The summary goes to link/new/deeper (not there yet): its folder is real/new/deeper.
  const rel = await PathRelator.create(nodeFs, `${root}/link/new/deeper/x_run_summary.json`);
  assert.equal(rel.summaryDir, `${root}/real/new/deeper`);
  assert.equal(await rel.rel(`${root}/real/res/rollouts.jsonl`), '../../res/rollouts.jsonl');
  assert.equal(await rel.rel(`${root}/real/new/deeper/rollouts.jsonl`), 'rollouts.jsonl');
  assert.equal(await rel.rel(`${root}/link/res/rollouts.jsonl`), '../../res/rollouts.jsonl');
});

test('PathRelator: the summary\'s own folder and its ancestors are `.` and `..`, whatever was related before', async () => {
  const root = posix(fs.realpathSync(tmpDir('relator')));
  fs.mkdirSync(`${root}/r/a/b`, { recursive: true });
  fs.mkdirSync(`${root}/r/a/c`);
  const expected: [string, string][] = [
    [`${root}/r/a/b`, '.'], [`${root}/r/a`, '..'], [`${root}/r`, '../..'],
    [`${root}/r/a/c`, '../c'], [`${root}/r/x`, '../../x'], [`${root}/r/a/b/f`, 'f'],
  ];
  // Each order: first the ancestors, then after their siblings were related (their folders then cached).
  for (const order of [expected, [...expected].reverse()]) {
    const rel = await PathRelator.create(nodeFs, `${root}/r/a/b/x_run_summary.json`);
    for (const [p, want] of order) assert.equal(await rel.rel(p), want, p);
    for (const [p, want] of order) assert.equal(await rel.rel(p), want, `${p} again`);
    for (const [p, want] of order) assert.equal(rel.relSync(p), want, `${p} (relSync)`);
  }
});
