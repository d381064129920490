// Training curves and reward details for the dashboard: metrics.jsonl as columns (live tail, bad lines, null
// values), the step range and stride sent to the chart, and reward-details.json flattened into rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { readTrainingTable, trainingSeries, trainingTableOf } from '../../src/core/dashboard/training';
import { rewardDetailNodes } from '../../src/core/dashboard/rewardDetails';
import { RewardDetailsSchema, TrainingSeriesSchema } from '../../src/protocol/dashboard';

test('metrics rows become columns; a null stays null; the range and stride bound what is sent', () => {
  const rows = Array.from({ length: 100 }, (_, i) => ({ step: i + 1, reward: i / 100, reward_std: 0.1, loss: i === 5 ? null : 1 - i / 100, n_rollouts: 8 }));
  const t = trainingTableOf(rows);
  const all = trainingSeries(t);
  assert.equal(all.totalSteps, 100);
  assert.equal(all.stride, 1);
  assert.equal(all.steps.length, 100);
  assert.deepEqual(all.series.map((s) => s.key), ['reward', 'reward_std', 'loss']);
  assert.equal(all.series[2].values[5], null);
  const some = trainingSeries(t, { from: 10, to: 30 }, 5);
  assert.equal(some.from, 10);
  assert.equal(some.to, 30);
  assert.equal(some.stride, 5); // 21 rows, at most 5 points → every 5th
  assert.deepEqual(some.steps, [10, 15, 20, 25, 30]);
  const odd = trainingSeries(t, { from: 1, to: 22 }, 5);
  assert.equal(odd.steps[odd.steps.length - 1], 22); // the range's last row is always in
  assert.ok(TrainingSeriesSchema.safeParse(some).success);
  const empty = trainingSeries(trainingTableOf([]));
  assert.equal(empty.totalSteps, 0);
  assert.equal(empty.from, null);
  assert.ok(TrainingSeriesSchema.safeParse(empty).success);
});

test('a metrics.jsonl on disk: bad lines counted, an incomplete last line marks it live', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dash-train-'));
  try {
    const file = join(dir, 'metrics.jsonl');
    writeFileSync(file, '{"step":1,"reward":0.5,"kl":0.01}\nnot json\n{"reward":1}\n{"step":2,"reward":0.6,"kl":0.02}\n{"step":3,"rew');
    const t = await readTrainingTable(new NodeFs(), file);
    assert.deepEqual(t.steps, [1, 2]);
    assert.equal(t.badLines, 2);
    assert.equal(t.live, true);
    assert.deepEqual(trainingSeries(t).series.find((s) => s.key === 'kl')!.values, [0.01, 0.02]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reward-details.json: details, criteria, nested groups and judge output become rows with depths', () => {
  const nodes = rewardDetailNodes({
    correctness: { score: 0.75, kind: 'llm', criteria: [{ name: 'answer matches', value: 1, raw: 'yes', weight: 2, reasoning: 'same number' }, { name: 'units', value: 0, weight: 1, error: 'judge timeout' }],
      judge: { model: 'gpt-x' }, judge_output: '<b>not markup</b>', warnings: ['slow'] },
    overall: { kind: 'group', aggregation: 'weighted_mean', threshold: 0.5, score: 0.8, components: [
      { name: 'style', weight: 0.2, detail: { score: 1, kind: 'programmatic', criteria: [] } },
    ] },
    weird: 42,
  });
  assert.deepEqual(nodes.map((n) => [n.depth, n.name, n.kind, n.score]), [
    [0, 'correctness', 'llm', 0.75], [1, 'answer matches', 'criterion', 1], [1, 'units', 'criterion', 0],
    [0, 'overall', 'group', 0.8], [1, 'style', 'programmatic', 1], [0, 'weird', null, 42],
  ]);
  assert.equal(nodes[0].value, 'judge: gpt-x');
  assert.match(nodes[0].text ?? '', /<b>not markup<\/b>/);
  assert.match(nodes[0].text ?? '', /warnings: slow/);
  assert.equal(nodes[1].weight, 2);
  assert.match(nodes[2].text ?? '', /error: judge timeout/);
  assert.equal(nodes[3].value, 'aggregation: weighted_mean · threshold: 0.5');
  assert.equal(nodes[4].weight, 0.2);
  assert.ok(RewardDetailsSchema.safeParse({ taskId: 't', attemptId: 'a', file: 'f', nodes, error: null }).success);
  assert.deepEqual(rewardDetailNodes('junk').map((n) => n.name), ['(reward details)']);
});

test('tables copy as Markdown (pipes and newlines escaped) and CSV (quoted, formulas defused, numbers kept)', async () => {
  const { toCsv, toMarkdown } = await import('../../src/core/dashboard/tableText');
  const t = { headers: ['task', 'reward'], rows: [['a|b', '1'], ['line\nbreak', '-0.5'], ['=HYPERLINK("x")', '']] };
  assert.equal(toMarkdown(t), '| task | reward |\n| --- | --- |\n| a\\|b | 1 |\n| line break | -0.5 |\n| =HYPERLINK("x") |  |\n');
  assert.equal(toCsv(t), 'task,reward\r\na|b,1\r\n"line\nbreak",-0.5\r\n"\'=HYPERLINK(""x"")",\r\n');
});
