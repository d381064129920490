// A NeMo Gym run of an environment other than Harbor's (the sample-run generator's writeEnvironmentRun, shaped as
// NeMo Gym's blackjack example): rows name no task id, only `_ng_task_index` and `_ng_rollout_index`. The reader (from
// the rollouts, then from the summary the writer wrote) and the writer give one task per index with every repeat's
// reward, in repeat order, and no problem. The expected values come from the generator's own record of what it wrote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { loadRuns } from '../../src/core/load';
import { writeRunSummary } from '../../src/core/summary';
import { writeEnvironmentRun } from '../../scripts/sample-runs/nemoEnvironment';

test('an environment run without task ids: one task per _ng_task_index, read before and after Write Run Summary', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-env-')).split(path.sep).join('/');
  try {
    const { rolloutsPath, rewards } = writeEnvironmentRun(dir, { tasks: 12, repeats: 3 });
    const nfs = new NodeFs();
    const expectTasks = rewards.map((rs, i) => [String(i), rs]);
    const outcome = (r: number) => (r > 0 ? 'passed' : 'failed');

    const [before] = await loadRuns(nfs, [dir]);
    assert.equal(before.summaryIsVirtual, true);
    assert.deepEqual(before.problems.map((p) => `${p.code}: ${p.message}`), []);
    assert.deepEqual(before.tasks.map((t) => [t.id, t.attempts.map((a) => a.reward)]), expectTasks);
    assert.deepEqual(before.tasks.flatMap((t) => t.attempts.map((a) => a.outcome)), rewards.flat().map(outcome));

    const written = await writeRunSummary(nfs, rolloutsPath);
    assert.equal(written.error, undefined);
    assert.deepEqual(written.document!.tasks.map((t) => [t.task_id, t.task_index, t.repeats.map((r) => r.reward)]),
      rewards.map((rs, i) => [String(i), i, rs]));
    assert.deepEqual(written.problems.filter((p) => p.severity !== 'info').map((p) => p.code), []);

    const [after] = await loadRuns(nfs, [dir]);
    assert.equal(after.summaryIsVirtual, undefined);
    assert.deepEqual(after.tasks.map((t) => [t.id, t.attempts.map((a) => a.reward)]), expectTasks);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
