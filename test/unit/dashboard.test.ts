// Run dashboard view model: pass@k against hand-computed values, percentiles, usage, reward histogram, failure-cause
// grouping, failing ctrf tests, reward provenance rules, the viewer pivot both ways, null handling, and that the
// result passes the protocol's own validator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Run, Task } from '../../src/core/model';
import { dashboardModel, majorityOutcome } from '../../src/core/dashboard';
import { percentileSorted, rewardDistribution, usageStat } from '../../src/core/dashboard/stats';
import { pivotGrid, viewerPivot } from '../../src/core/dashboard/pivot';
import { provenanceFindings, primaryOfRewardJson, valueOfRewardTxt } from '../../src/core/readers/harbor/provenance';
import { DashboardSchema } from '../../src/protocol/dashboard';

const close = (a: number | null | undefined, b: number, eps = 1e-12) => assert.ok(typeof a === 'number' && Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

function att(id: string, i: number, o: Partial<Attempt> = {}): Attempt {
  const reward = o.reward === undefined ? 0 : o.reward;
  return {
    id: `${id}#${i}`, index: i, label: `#${i + 1}`, outcome: reward === null ? 'infra-error' : reward >= 1 ? 'passed' : 'failed',
    reward, evidence: [], missing: [], ...o,
  };
}
function task(id: string, attempts: Partial<Attempt>[]): Task {
  return { id, label: id, attempts: attempts.map((a, i) => att(id, i, a)) };
}
function run(tasks: Task[], o: Partial<Run> = {}): Run {
  return { id: 'x:run', kind: 'harbor-job', root: '/r', anchor: '/r', label: 'r', identity: {}, state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks, ...o };
}

test('pass@1..k: hand-computed, nulls excluded, all-null task counted as n_all_infra', () => {
  const r = run([
    task('a', [{ reward: 1 }, { reward: 0 }, { reward: 0 }, { reward: 0 }]), // n=4 c=1
    task('b', [{ reward: 0 }, { reward: 0 }, { reward: 0 }, { reward: 0 }]), // n=4 c=0
    task('c', [{ reward: 1 }, { reward: null }, { reward: 0 }]), // n=2 c=1 (the null is left out)
    task('d', [{ reward: null }, { reward: null }]), // all-infra
  ]);
  const d = dashboardModel(r);
  assert.deepEqual(d.passAt.map((p) => p.k), [1, 2, 3, 4]);
  // k=1: (1/4 + 0 + 1/2) / 3
  close(d.passAt[0].value, (0.25 + 0 + 0.5) / 3);
  // k=2: a: 1 − C(3,2)/C(4,2) = 1 − 3/6; c: n−c = 1 < 2 → 1
  close(d.passAt[1].value, (0.5 + 0 + 1) / 3);
  // k=3: a: 1 − C(3,3)/C(4,3) = 3/4
  close(d.passAt[2].value, (0.75 + 0 + 1) / 3);
  close(d.passAt[3].value, (1 + 0 + 1) / 3);
  for (const p of d.passAt) { assert.equal(p.nMeasured, 3); assert.equal(p.nAllInfra, 1); assert.equal(p.nTasks, 4); }
  // Null rewards are not zeros anywhere: the histogram counts them apart, the mean leaves them out.
  assert.equal(d.rewards.nNull, 3);
  assert.equal(d.rewards.nMeasured, 10);
  close(d.rewards.mean, 2 / 10);
  assert.equal(d.rewards.binary, true);
  assert.deepEqual(d.rewards.bins.map((b) => b.count), [8, 2]);
  const rowC = d.rows.find((x) => x.id === 'c')!;
  assert.deepEqual(rowC.rewards, [1, null, 0]);
  close(rowC.meanReward, 0.5);
  assert.equal(rowC.passedAt, 1);
  assert.equal(d.rows.find((x) => x.id === 'd')!.meanReward, null);
  assert.equal(d.rows.find((x) => x.id === 'b')!.passedAt, null);
  assert.ok(DashboardSchema.safeParse(d).success);
});

test('percentiles by linear interpolation (hand-computed) and usage stats', () => {
  assert.equal(percentileSorted([], 0.5), null);
  assert.equal(percentileSorted([7], 0.9), 7);
  close(percentileSorted([1, 2, 3, 4], 0.5), 2.5);
  close(percentileSorted([1, 2, 3, 4], 0.9), 3.7); // position 0.9·3 = 2.7 → 3 + 0.7·(4 − 3)
  close(percentileSorted([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 0.9), 91); // 8.1 → 90 + 0.1·10
  const s = usageStat([4, null, 1, 3, undefined, 2, Number.NaN]);
  assert.deepEqual({ ...s, p90: null }, { n: 4, missing: 3, sum: 10, median: 2.5, p90: null });
  close(s.p90, 3.7);
  assert.deepEqual(usageStat([null, null]), { n: 0, missing: 2, sum: null, median: null, p90: null });
});

test('tokens, cost and duration per attempt: sums, medians, p90; scatter hides an axis nobody reports and says why', () => {
  const r = run([
    task('a', [{ reward: 1, tokens: { input: 100, output: 20 }, durationSec: 10 }, { reward: 0, tokens: { input: 300, output: 40 }, durationSec: 30 }]),
    task('b', [{ reward: 0, tokens: { input: 200, cached: 50, output: 30 }, durationSec: 20 }]),
  ]);
  const d = dashboardModel(r);
  assert.equal(d.usage.tokens.sum, 120 + 340 + 230);
  assert.equal(d.usage.tokens.median, 230);
  assert.equal(d.usage.costUsd.n, 0);
  assert.equal(d.usage.costUsd.sum, null);
  assert.equal(d.usage.costUsd.missing, 3);
  close(d.usage.durationSec.p90, 28); // [10,20,30] at 1.8 → 20 + 0.8·10
  const cost = d.scatter.axes.find((a) => a.key === 'costUsd')!;
  assert.equal(cost.n, 0);
  assert.match(cost.note ?? '', /cost/);
  assert.equal(d.scatter.axes.find((a) => a.key === 'tokens')!.note, null);
  const pa = d.scatter.points.find((p) => p.taskId === 'a')!;
  close(pa.reward, 0.5);
  close(pa.tokens, 230);
  assert.equal(pa.costUsd, null);
});

test('reward histogram of partial rewards: ten bins over [0, 1], nulls apart', () => {
  const h = rewardDistribution([0, 0.05, 0.5, 0.55, 0.99, 1, null]);
  assert.equal(h.bins.length, 10);
  assert.equal(h.binary, false);
  assert.deepEqual(h.bins.map((b) => b.count), [2, 0, 0, 0, 0, 2, 0, 0, 0, 2]);
  assert.equal(h.nNull, 1);
});

test('failure causes grouped by exception type, NeMo failure class and verifier failure; failing ctrf tests ranked', () => {
  const ctrf = (names: string[]) => [{ kind: 'ctrf' as const, label: 'ctrf.json', path: '/c', isDir: false, present: true, failedTests: names.map((name) => ({ name, message: `${name} failed` })) }];
  const r = run([
    task('a', [
      { reward: 0, outcome: 'truncated', exception: { type: 'AgentTimeoutError', message: 'timed out after 600 s' }, details: { exceptionCategory: 'agent-timeout' }, evidence: ctrf(['test_x', 'test_y']) },
      { reward: null, outcome: 'infra-error', exception: { type: 'RewardFileNotFoundError', message: 'no reward' }, details: { exceptionCategory: 'verifier' } },
    ]),
    task('b', [
      { reward: 0, outcome: 'truncated', exception: { type: 'AgentTimeoutError', message: 'timed out' }, details: { exceptionCategory: 'agent-timeout' }, evidence: ctrf(['test_x']) },
      { reward: null, outcome: 'infra-error', failure: { class: 'environment_server_failed', stage: 'verification', reason: 'boom' } },
      { reward: null, outcome: 'infra-error', failure: { class: 'agent_run_error', reason: 'crash' } },
      { reward: 0, evidence: ctrf(['test_x']) },
    ]),
  ]);
  const d = dashboardModel(r);
  const by = new Map(d.causes.map((c) => [c.key, c]));
  assert.equal(d.causes[0].key, 'exception:AgentTimeoutError');
  assert.equal(by.get('exception:AgentTimeoutError')!.count, 2);
  assert.equal(by.get('exception:AgentTimeoutError')!.tasks, 2);
  assert.equal(by.get('exception:AgentTimeoutError')!.source, 'exception');
  assert.equal(by.get('exception:RewardFileNotFoundError')!.source, 'verifier');
  assert.equal(by.get('failure:environment_server_failed')!.source, 'verifier');
  assert.equal(by.get('failure:agent_run_error')!.source, 'failure');
  assert.deepEqual(by.get('exception:AgentTimeoutError')!.attempts, [{ taskId: 'a', attemptId: 'a#0' }, { taskId: 'b', attemptId: 'b#0' }]);
  assert.deepEqual(d.failingTests.map((t) => [t.name, t.attempts, t.tasks]), [['test_x', 3, 2], ['test_y', 1, 1]]);
  const rowB = d.rows.find((x) => x.id === 'b')!;
  assert.deepEqual(new Set(rowB.causes), new Set(['exception:AgentTimeoutError', 'failure:environment_server_failed', 'failure:agent_run_error']));
  assert.deepEqual(rowB.exceptions, ['AgentTimeoutError']);
  assert.equal(rowB.outcome, 'infra-error'); // two of four
  assert.equal(majorityOutcome([]), 'missing');
});

test('reward provenance rules: files that disagree, a reward file older than the verifier, reward-details present', () => {
  assert.equal(primaryOfRewardJson({ reward: 0.5, code_lines: 3 }), 0.5);
  assert.equal(primaryOfRewardJson({ correctness: 0.75 }), 0.75);
  assert.equal(primaryOfRewardJson({ a: 1, b: 0 }), null);
  assert.equal(valueOfRewardTxt(' 1\n'), 1);
  assert.equal(valueOfRewardTxt('pass'), null);
  const agree = provenanceFindings({ rewardJson: { path: '/v/reward.json', value: { reward: 1 } }, rewardTxt: { path: '/v/reward.txt', text: '1.0\n' } });
  assert.deepEqual(agree, []);
  const disagree = provenanceFindings({ rewardJson: { path: '/v/reward.json', value: { reward: 1 } }, rewardTxt: { path: '/v/reward.txt', text: '0\n' } });
  assert.equal(disagree.length, 1);
  assert.equal(disagree[0].code, 'reward-files-disagree');
  assert.equal(disagree[0].severity, 'warning');
  assert.match(disagree[0].message, /reward\.json says 1 and reward\.txt says 0/);
  const start = '2026-01-01T00:10:00Z';
  const early = provenanceFindings({ rewardTxt: { path: '/v/reward.txt', text: '1', mtimeMs: Date.parse('2026-01-01T00:05:00Z') }, verifierStartedAt: start });
  assert.deepEqual(early.map((f) => [f.code, f.file]), [['reward-before-verifier', '/v/reward.txt']]);
  // Within the clock skew tolerated, and after the start: no finding; no recorded start: nothing to compare.
  assert.deepEqual(provenanceFindings({ rewardTxt: { path: '/v/reward.txt', text: '1', mtimeMs: Date.parse(start) - 1000 }, verifierStartedAt: start }), []);
  assert.deepEqual(provenanceFindings({ rewardTxt: { path: '/v/reward.txt', text: '1', mtimeMs: 0 } }), []);
  const details = provenanceFindings({ detailsPath: '/v/reward-details.json' });
  assert.deepEqual(details.map((f) => [f.code, f.severity]), [['reward-details', 'info']]);

  const r = run([task('t', [{ reward: 1, provenance: disagree }, { reward: 0, provenance: details }])], { root: '/' });
  const d = dashboardModel(r);
  assert.equal(d.provenance.length, 2);
  assert.equal(d.provenance[0].code, 'reward-files-disagree');
  assert.equal(d.provenance[0].file, 'v/reward.json');
  assert.equal(d.rows[0].provenance, 2);
  assert.equal(d.rows[0].openAttemptId, 't#0');
});

function viewerRun(): Run {
  const a = (model: string, harness: string, i: number, reward: number | null, nTurns = 10): Partial<Attempt> => ({
    reward, cell: `${model}|${harness}`, index: i, details: { model, harness }, nTurns,
  });
  const t1 = { id: 't1', label: 't1', attempts: [
    a('M1', 'H1', 0, 0), a('M1', 'H1', 1, 1), a('M1', 'H2', 0, null), a('M1', 'H2', 1, null), a('M2', 'H1', 0, 1), a('M2', 'H1', 1, 1),
  ].map((x, j) => att('t1', j, { ...x, id: `t1#${x.cell}#${x.index}` })).map((x, j) => ({ ...x, index: [0, 1, 0, 1, 0, 1][j] })) };
  const t2 = { id: 't2', label: 't2', attempts: [a('M1', 'H1', 0, 0), a('M1', 'H1', 1, 0), a('M2', 'H1', 0, 0), a('M2', 'H1', 1, 1)]
    .map((x, j) => ({ ...att('t2', j, x), id: `t2#${x.cell}#${x.index}`, index: [0, 1, 0, 1][j] })) };
  return run([t1, t2], {
    kind: 'viewer-data', support: { H2: { tier: 'experimental', caveats: ['no step limit'] } },
    recorded: { by_model: [{ model: 'M1', 'pass@1': 0.25, 'pass@2': 0.5 }] },
  });
}

test('viewer pivot: per-cell pass@k over (task, cell) units, by_model / by_harness, both orientations, support tiers', () => {
  const r = viewerRun();
  const p = viewerPivot(r)!;
  assert.deepEqual(p.models, ['M1', 'M2']);
  assert.deepEqual(p.harnesses, ['H1', 'H2']);
  assert.equal(p.kMax, 2);
  const cell = (m: string, h: string) => p.cells.find((c) => c.model === m && c.harness === h);
  // M1|H1: t1 [0,1] → pass@1 0.5, pass@2 1; t2 [0,0] → 0, 0
  close(cell('M1', 'H1')!.passAt1, 0.25);
  close(cell('M1', 'H1')!.passAtK, 0.5);
  // M1|H2: t1 all null → all-infra, nothing measured: null, not 0
  assert.equal(cell('M1', 'H2')!.passAt1, null);
  assert.equal(cell('M1', 'H2')!.nAllInfra, 1);
  assert.equal(cell('M1', 'H2')!.meanReward, null);
  close(cell('M2', 'H1')!.passAt1, (1 + 0.5) / 2);
  assert.equal(cell('M2', 'H2'), undefined);
  const m1 = p.byModel.find((x) => x.name === 'M1')!;
  assert.equal(m1.cells, 3);
  assert.equal(m1.nMeasured, 2);
  assert.equal(m1.nAllInfra, 1);
  close(m1.passAt1, 0.25);
  assert.equal(m1.recordedPassAt1, 0.25);
  assert.equal(m1.recordedPassAtK, 0.5);
  close(m1.meanTurns, 10);
  const h1 = p.byHarness.find((x) => x.name === 'H1')!;
  assert.equal(h1.cells, 4);
  close(h1.passAt1, (0.5 + 0 + 1 + 0.5) / 4);
  assert.deepEqual(p.support, [{ harness: 'H2', tier: 'experimental', caveats: ['no step limit'] }]);
  // Both ways: models as columns, then harnesses as columns — the same cells, transposed.
  const byModelCols = pivotGrid(p, 'model');
  const byHarnessCols = pivotGrid(p, 'harness');
  assert.deepEqual(byModelCols.columns, ['M1', 'M2']);
  assert.deepEqual(byModelCols.rows, ['H1', 'H2']);
  assert.deepEqual(byHarnessCols.columns, ['H1', 'H2']);
  assert.deepEqual(byHarnessCols.rows, ['M1', 'M2']);
  for (const m of p.models) for (const h of p.harnesses) assert.equal(byModelCols.at(h, m), byHarnessCols.at(m, h));
  assert.equal(byModelCols.at('H2', 'M1')?.nAllInfra, 1);
  // The dashboard averages pass@k over units, and the task's passed_at is its best cell's.
  const d = dashboardModel(r);
  assert.equal(d.unit, 'task-cell');
  assert.equal(d.passAt[0].nTasks, 5);
  assert.equal(d.passAt[0].nAllInfra, 1);
  close(d.passAt[0].value, (0.5 + 1 + 0 + 0.5) / 4);
  assert.equal(d.rows.find((x) => x.id === 't1')!.passedAt, 1);
  assert.equal(d.rows.find((x) => x.id === 't2')!.passedAt, 2);
  assert.ok(DashboardSchema.safeParse(d).success);
});

test('a run without tasks, and a non-viewer run, have no pivot; nothing is NaN', () => {
  const d = dashboardModel(run([]));
  assert.equal(d.pivot, null);
  assert.deepEqual(d.passAt, [{ k: 1, value: null, nTasks: 0, nMeasured: 0, nAllInfra: 0 }]);
  assert.equal(d.rewards.mean, null);
  assert.ok(DashboardSchema.safeParse(d).success);
  assert.equal(dashboardModel(run([task('a', [{ reward: 1 }])])).pivot, null);
});
