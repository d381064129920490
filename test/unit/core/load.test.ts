// loadRuns and readCandidate through their results: every run below several roots read once by the reader of its
// kind and sorted by anchor whatever the order of the roots; a reader that throws becomes a run with one problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { loadRuns, readCandidate } from '../../../src/core/load';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { readNemoRollouts, readRunSummary } from '../../../src/core/readers/runSummary';
import { readViewerDataset, readViewerTrainingRun } from '../../../src/core/readers/viewerData';
import { repoRoot } from '../../support/paths';

const nfs = new NodeFs();
const examples = path.join(repoRoot(), 'examples').split(path.sep).join('/');

test('loadRuns: the runs of roots given in reverse order come out sorted by anchor, each once, each read by its own reader', async () => {
  const roots = ['viewer-data', 'nemo-gym', 'harbor'].map((r) => `${examples}/${r}`);
  const runs = await loadRuns(nfs, [...roots, roots[1]], { readConcurrency: 2 });
  const anchors = runs.map((r) => r.anchor);
  assert.deepEqual(anchors, [...anchors].sort(), 'sorted by anchor');
  assert.equal(new Set(anchors).size, anchors.length, 'a root given twice reads its runs once');
  assert.deepEqual([...new Set(runs.map((r) => r.kind))].sort(), ['harbor-job', 'nemo-gym', 'viewer-data']);
  const byReader: [RegExp, (fs: FsPort, p: string) => Promise<unknown>, 'anchor' | 'root'][] = [
    [/_run_summary\.json$/, readRunSummary, 'anchor'], [/\.jsonl$/, readNemoRollouts, 'anchor'],
    [/\/summary\.json$/, readViewerDataset, 'root'], [/\/run\.json$/, readViewerTrainingRun, 'root'],
  ];
  let read = 0;
  for (const run of runs) {
    if (!run.anchor.endsWith('/run.json')) assert.ok(run.tasks.length > 0, `${run.anchor} has tasks`);
    assert.equal(run.problems.some((p) => p.code === 'reader-failed'), false, run.anchor);
    const reader = run.kind === 'harbor-job' ? ([/./, readHarborJob, 'root'] as const) : byReader.find(([re]) => re.test(run.anchor));
    assert.ok(reader, `a reader for ${run.anchor}`);
    assert.deepEqual(run, await reader[1](nfs, run[reader[2]]), `${run.anchor} as its reader reads it`);
    read++;
  }
  assert.ok(read >= 4, `${read} runs`);
  assert.ok(runs.some((r) => r.anchor.endsWith('_run_summary.json')) && runs.some((r) => r.anchor.endsWith('/summary.json')));
});

test('readCandidate: a reader that throws gives an empty incomplete run with one reader-failed problem naming the error', async () => {
  const thrower = (e: unknown): FsPort => Object.assign(Object.create(nfs) as FsPort, {
    stat: () => Promise.reject(e), readFile: () => Promise.reject(e), readDir: () => Promise.reject(e),
  });
  const anchor = '/nowhere/out/rollouts_run_summary.json';
  const run = await readCandidate(thrower(new Error('disk on fire')), { kind: 'nemo-gym', variant: 'summary', anchor, root: '/nowhere/out' });
  assert.deepEqual(run, {
    id: `nemo-gym:${anchor}`, kind: 'nemo-gym', root: '/nowhere/out', anchor, label: 'rollouts_run_summary.json', identity: {},
    state: 'incomplete', files: [],
    problems: [{ file: anchor, severity: 'error', code: 'reader-failed', message: 'could not read this run: disk on fire' }],
    unvalidated: [], skipped: [], tasks: [],
  });
  // Something thrown that is not an Error (no message): its text.
  for (const thrown of [null, 'gone']) {
    const other = await readCandidate(thrower(thrown), { kind: 'viewer-data', variant: 'dataset', anchor: '/d/summary.json', root: '/d' });
    assert.equal(other.problems[0]?.message, `could not read this run: ${String(thrown)}`);
  }
});
