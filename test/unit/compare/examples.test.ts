// The compare examples the generator writes (scripts/sample-runs/compareJobs.ts) read back as runs that differ the
// way they are meant to, and two attempts of a task whose trajectories agree until the candidate takes more turns.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { compareBaseline, compareCandidate, compareOneTrialJobs } from '../../../scripts/sample-runs/compareJobs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { loadTrajectory } from '../../../src/core/trajectory';
import { alignTrajectories, compareRuns } from '../../../src/core/compare';
import type { Run } from '../../../src/core/model';

let dir = '';
let runs: Run[] = [];
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-ex-'));
  for (const spec of [compareBaseline(), compareCandidate(), ...compareOneTrialJobs()]) await generateHarborJob(path.join(dir, 'jobs'), spec);
  runs = await loadRuns(new NodeFs(), [dir.split(path.sep).join('/')]);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('baseline vs candidate: one regressed, one improved, one not comparable, one task only on each side', () => {
  assert.equal(runs.length, 3);
  const c = compareRuns(runs.slice(0, 2));
  assert.deepEqual(c.tasks.map((t) => `${t.id.split('/').pop()}:${t.change}`), [
    'regex-log:regressed', 'log-summary:improved', 'build-cython-ext:only-in-some', 'sqlite-with-gcov:only-in-some',
    'chess-best-move:not-comparable', 'fix-git:unchanged',
  ]);
  const merged = compareRuns(runs, { merge: true });
  assert.equal(merged.sides.length, 2);
  assert.equal(merged.sides[1].mergedFrom.length, 2);
  const fixGit = merged.tasks.find((t) => t.id.endsWith('/fix-git'))!;
  assert.equal(fixGit.change, 'regressed');
  assert.equal(fixGit.cells[1]?.attempts, 2);
});

test("two attempts of regex-log: the same steps until the candidate's extra turns, then the same ending", async () => {
  const fsPort = new NodeFs();
  const traj = async (r: Run) => {
    const a = r.tasks.find((t) => t.id.endsWith('/regex-log'))!.attempts[0];
    return loadTrajectory(fsPort, a.evidence.find((e) => e.kind === 'trajectory')!.path);
  };
  const al = alignTrajectories(await traj(runs[0]), await traj(runs[1]));
  assert.deepEqual(al.rows.map((r) => r.kind), ['same', 'same', 'same', 'same', 'right', 'right', 'same', 'same']);
  assert.deepEqual(al.firstDivergence, { row: 4, left: null, right: 4 });
  assert.ok(al.left.steps[1].promptTokens! > 0 && al.right.steps[1].durationMs! > 0);
});
