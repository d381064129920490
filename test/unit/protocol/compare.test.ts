// The Compare Runs and Compare Attempts protocols: the models the host builds from generated runs parse on the
// webview's side, the webview's messages parse on the host's, and anything else is rejected with a reason; a merged
// side's attempt leads back to the run and attempt it was read as.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as runsProto from '../../../src/protocol/compareRuns';
import * as attemptsProto from '../../../src/protocol/compareAttempts';
import { compareAttemptsModel, compareRunsModel, firstAttemptOf, resolveAttempt } from '../../../src/views/compareModel';
import { alignTrajectories } from '../../../src/core/compare';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { compareBaseline, compareCandidate, compareOneTrialJobs } from '../../../scripts/sample-runs/compareJobs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { loadTrajectory } from '../../../src/core/trajectory';
import type { Run } from '../../../src/core/model';

let dir = '';
let runs: Run[] = [];
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-proto-'));
  for (const spec of [compareBaseline(), compareCandidate(), ...compareOneTrialJobs()]) await generateHarborJob(path.join(dir, 'jobs'), spec);
  runs = await loadRuns(new NodeFs(), [dir.split(path.sep).join('/')]);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('Compare Runs: the model parses as the init message, plain and merged; a merged cell leads to its run', () => {
  const plain = compareRunsModel(runs, false);
  assert.ok(runsProto.parseHostMessage({ type: 'init', model: plain.model }).ok);
  assert.equal(plain.model.sides.length, 3);
  assert.equal(plain.model.canMerge, true);
  assert.deepEqual(plain.model.tasks.slice(0, 2).map((t) => `${t.id.split('/').pop()}:${t.change}`), ['fix-git:regressed', 'log-summary:only-in-some']);
  const merged = compareRunsModel(runs, true);
  const parsed = runsProto.parseHostMessage({ type: 'init', model: merged.model });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(merged.model.sides.length, 2);
  assert.match(merged.model.mergeNote ?? '', /2 runs of terminus-2 · openai\/gpt-5/);
  const fixGit = merged.model.tasks.find((t) => t.id.endsWith('/fix-git'))!;
  assert.equal(fixGit.cells[1]?.text, 'passed · 1/2 pass · 0.5');
  const ref = firstAttemptOf(merged.sides[1], fixGit.id)!;
  assert.equal(ref.runId, runs[1].id);
  const hit = resolveAttempt((id) => runs.find((r) => r.id === id), ref);
  assert.equal(hit?.attempt.outcome, 'passed');
  assert.equal(firstAttemptOf(merged.sides[1], 'no-such-task'), undefined);
  assert.equal(firstAttemptOf(merged.sides[7], fixGit.id), undefined);
});

test('Compare Attempts: the model parses; a side without a trajectory is said', async () => {
  const task = (r: Run) => r.tasks.find((t) => t.id.endsWith('/regex-log'))!;
  const [a, b] = [task(runs[0]).attempts[0], task(runs[1]).attempts[0]];
  const view = await loadTrajectory(new NodeFs(), a.evidence.find((e) => e.kind === 'trajectory')!.path);
  const m = compareAttemptsModel('regex-log', { title: 'A #1', attempt: a }, { title: 'B #1', attempt: b }, alignTrajectories(view, null, { right: 'no trajectory recorded' }));
  const parsed = attemptsProto.parseHostMessage({ type: 'init', model: m });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(m.right.unavailable, 'no trajectory recorded');
  assert.ok(m.rows.every((r) => r[0] === 'left'));
});

test('valid webview messages parse; invalid ones are rejected with a reason (both panels)', () => {
  for (const m of [{ type: 'ready' }, { type: 'setMerge', merge: true }, { type: 'openCell', taskId: 't', side: 1 },
    { type: 'compareAttempts', taskId: 't', left: 0, right: 2 }, { type: 'rendered', rows: 3, firstTask: null, domRows: 3 }]) {
    assert.ok(runsProto.parseWebviewMessage(m).ok, JSON.stringify(m));
  }
  for (const m of [undefined, null, 'ready', {}, { type: 'nope' }, { type: 'setMerge', merge: 'yes' }, { type: 'openCell', taskId: 't', side: -1 },
    { type: 'openCell', taskId: 't', side: 0.5 }, { type: 'compareAttempts', taskId: 'x'.repeat(100_001), left: 0, right: 1 }]) {
    const r = runsProto.parseWebviewMessage(m);
    assert.ok(!r.ok && r.error.length > 0, JSON.stringify(m)?.slice(0, 80));
  }
  for (const m of [{ type: 'ready' }, { type: 'diffVerifier' }, { type: 'openTrajectory', side: 'left' }, { type: 'rendered', rows: 1, selected: null, domRows: 1 }]) {
    assert.ok(attemptsProto.parseWebviewMessage(m).ok, JSON.stringify(m));
  }
  for (const m of [{ type: 'openTrajectory', side: 'middle' }, { type: 'openTrajectory' }, { type: 'rendered', rows: 1, selected: -1, domRows: 1 }]) {
    assert.ok(!attemptsProto.parseWebviewMessage(m).ok, JSON.stringify(m));
  }
  // Host messages the webview must refuse: a row kind that does not exist, a negative step index.
  const bad = { type: 'init', model: { task: 't', left: {}, right: {}, rows: [['moved', 0, 0]], firstDivergence: null, counts: { same: 0, changed: 0, left: 0, right: 0 } } };
  assert.ok(!attemptsProto.parseHostMessage(bad).ok);
  assert.ok(!runsProto.parseHostMessage({ type: 'init', model: { runIds: [] } }).ok);
});
