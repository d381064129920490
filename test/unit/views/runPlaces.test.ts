// Runs of one workspace folder that share a label are told apart in the Runs tree as VS Code tells apart editors of
// files with the same name: each one's description starts with its folder inside the workspace folder (its anchor
// file when two share a folder); a run whose label is its own shows none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Run } from '../../../src/core/model';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { rootChildren, makeRunNode, type TreeNode } from '../../../src/views/tree/nodes';
import { describe as describeNode, runDescription } from '../../../src/views/tree/describe';
import { defaultViewState } from '../../../src/views/tree/viewState';
import { runPlaces } from '../../../src/views/tree/runPlaces';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { tempDir } from '../hostile/helpers';

function run(kind: Run['kind'], label: string, root: string, anchor = root): Run {
  return { id: `${kind}:${anchor}`, kind, root, anchor, label, identity: {}, state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks: [] };
}

const descriptions = (runs: Run[], folder: string) => (rootChildren([{ folder, name: path.basename(folder), runs }], defaultViewState(), (r, p, where) => makeRunNode(r, p, where)) as TreeNode[])
  .map((n) => [describeNode(n).label, describeNode(n).description]);

test('two copies of one Harbor job (same job name, two folders): each row says where it is', async () => {
  const ws = tempDir('ws-');
  const job = await generateHarborJob(`${ws}/jobs/a`, harborEveryCase());
  const name = path.basename(job.jobDir);
  fs.cpSync(job.jobDir, `${ws}/backup/${name}`, { recursive: true });
  const nfs = new NodeFs();
  const [a, b] = [await readHarborJob(nfs, job.jobDir), await readHarborJob(nfs, `${ws}/backup/${name}`)];
  assert.equal(a.label, b.label, 'the same label: the reason for this');
  // Another job of the same job name (another model): its row has the same label, so it says where it is too.
  const renamed = { ...b, id: 'harbor-job:/elsewhere', label: `${name} · other model` };
  assert.equal(runPlaces([a, renamed], ws).size, 2);
  const other = run('nemo-gym', 'tb · agent', `${ws}/nemo`, `${ws}/nemo/r_run_summary.json`);
  // Each row as it is without a place (a Harbor job's: its job name, counts, then agents, models, dataset).
  const alone = (r: Run) => describeNode(makeRunNode(r));
  assert.equal(alone(a).label, name);
  assert.deepEqual(descriptions([a, b, other], ws), [
    [name, `jobs/a/${name} · ${alone(a).description}`],
    [name, `backup/${name} · ${alone(b).description}`],
    ['tb · agent', runDescription(other)],
  ]);
});

test('NeMo Gym runs of one name in two folders, or two in one folder; viewer datasets copied; a run at the folder itself', () => {
  const ws = '/w';
  const n1 = run('nemo-gym', 'tb · agent', '/w/exp1/results', '/w/exp1/results/r_run_summary.json');
  const n2 = run('nemo-gym', 'tb · agent', '/w/exp2/results', '/w/exp2/results/r_run_summary.json');
  const n3 = run('nemo-gym', 'tb · agent', '/w/exp2/results', '/w/exp2/results/s_run_summary.json');
  const v1 = run('viewer-data', 'P / ds', '/w/data/projects/p/datasets/ds', '/w/data/projects/p/datasets/ds/summary.json');
  const v2 = run('viewer-data', 'P / ds', '/w/old/projects/p/datasets/ds', '/w/old/projects/p/datasets/ds/summary.json');
  const here = run('harbor-job', 'job1', '/w');
  const there = run('harbor-job', 'job1', '/w/backup/job1');
  const places = runPlaces([n1, n2, n3, v1, v2, here, there], ws);
  assert.deepEqual(Object.fromEntries(places), {
    [n1.id]: 'exp1/results',
    [n2.id]: 'exp2/results/r_run_summary.json',
    [n3.id]: 'exp2/results/s_run_summary.json',
    [v1.id]: 'data/projects/p/datasets/ds',
    [v2.id]: 'old/projects/p/datasets/ds',
    [here.id]: 'w',
    [there.id]: 'backup/job1',
  });
  assert.deepEqual(Object.fromEntries(runPlaces([n1, v1, here], ws)), {}, 'labels of their own: nothing added');
});
