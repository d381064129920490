// locateRun and withRowsRoot (where the run config, the results folder and the prepared rows are) on an in-memory
// folder: the run config beside the rollouts, given (there or not), or found through the first verifier folder the
// first 64 rows name, used only when it names that verifier folder's parent or prepared rows in its folder; the
// Problems word for word; the moved-root guess from the rows. Expected places written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Problem } from '../../../src/core/model';
import { locateRun, withRowsRoot } from '../../../src/core/summary/locate';
import { MemFs } from '../../../scripts/sample-runs/memFs';

const ROLLOUTS = '/out/rollouts.jsonl';
const CONFIG = '/res/run_config.yaml';

function config(opts: { artifacts?: string; rows?: string }): string {
  return [
    'harbor_mini_resources_server:', '  resources_servers:', '    harbor:',
    ...(opts.artifacts ? [`      artifacts_dir: ${opts.artifacts}`] : []),
    '      tasksets:', '        mini:', '          folder: /data/mini',
    ...(opts.rows ? ['      datasets:', '      - name: mini', '        type: validation', `        jsonl_fpath: ${opts.rows}`] : []),
    '',
  ].join('\n');
}

/** A run whose rollouts are in /out and whose results folder is /res (verifier folders under /res/verifier). */
function place(rows: unknown[], cfg = config({ artifacts: '/res/verifier', rows: '/res/tasks.jsonl' })): MemFs {
  const m = new MemFs();
  m.put(ROLLOUTS, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  m.put(CONFIG, cfg);
  m.put('/res/tasks.jsonl', '{}\n');
  m.put('/res/verifier/s1/reward.txt', '1\n');
  return m;
}

const located = (how: string): Problem => ({ file: CONFIG, severity: 'info', code: 'run-config-located',
  message: `run config used: ${CONFIG} (${how}); the prepared rows, agent and dataset come from there` });
const THROUGH_ROWS = 'the results folder the rows\' verifier folders are in';
const named = { verifier_logs_dir: '/res/verifier/s1' };

test('locateRun: the run config is found through the first verifier folder named in the first 64 rows', async () => {
  const problems: Problem[] = [];
  const p = await locateRun(place([...Array(63).fill({ reward: 1 }), named]), ROLLOUTS, undefined, problems);
  assert.equal(p.configPath, CONFIG);
  assert.equal(p.resultsDir, '/res');
  assert.equal(p.rowsPath, '/res/tasks.jsonl');
  assert.equal(p.originalRoot, null);
  assert.equal(p.config.artifactsDir, '/res/verifier');
  assert.deepEqual(problems, [located(THROUGH_ROWS)]);

  // Named first on row 65: not looked for; the results folder is the rollouts' own.
  const none: Problem[] = [];
  const q = await locateRun(place([...Array(64).fill({ reward: 1 }), named]), ROLLOUTS, undefined, none);
  assert.deepEqual([q.configPath, q.resultsDir, q.rowsPath, q.config], [null, '/out', '/out/tasks.jsonl', {}]);
  assert.deepEqual(none, []);

  // Rows before it that name no folder (null, '', a number) or do not parse are passed over.
  const r = await locateRun(place(['{"verifier_logs_dir": ', { verifier_logs_dir: null }, { verifier_logs_dir: '' },
    { verifier_logs_dir: 7 }, named]), ROLLOUTS, undefined, []);
  assert.equal(r.configPath, CONFIG);
});

test('locateRun: a run config found through the rows is used only when it names that verifier folder\'s parent or rows beside it', async () => {
  const rows = [named];
  // artifacts_dir only, or prepared rows in the results folder only: used.
  for (const cfg of [config({ artifacts: '/res/verifier' }), config({ rows: '/res/tasks.jsonl' }), config({ artifacts: '/res/verifier/', rows: '/elsewhere/tasks.jsonl' })]) {
    const p = await locateRun(place(rows, cfg), ROLLOUTS, undefined, []);
    assert.equal(p.configPath, CONFIG, cfg);
  }
  // Another run's config in that folder (it names other folders), or one naming neither: not used.
  for (const cfg of [config({ artifacts: '/other/verifier', rows: '/other/tasks.jsonl' }), config({}), config({ rows: '/res/sub/tasks.jsonl' })]) {
    const problems: Problem[] = [];
    const p = await locateRun(place(rows, cfg), ROLLOUTS, undefined, problems);
    assert.deepEqual([p.configPath, p.resultsDir, p.config], [null, '/out', {}], cfg);
    assert.deepEqual(problems, []);
  }
  // No run_config.yaml in that folder (a folder of that name is none either).
  const m = place(rows);
  m.files.delete(CONFIG);
  m.put(`${CONFIG}/x`, '');
  assert.equal((await locateRun(m, ROLLOUTS, undefined, [])).configPath, null);
});

test('locateRun: a run config given is used (and said) when it is there, a warning when it is not; one beside the rollouts needs no word', async () => {
  const problems: Problem[] = [];
  const p = await locateRun(place([]), ROLLOUTS, '../res/run_config.yaml', problems);
  assert.deepEqual([p.configPath, p.resultsDir, p.rowsPath], [CONFIG, '/res', '/res/tasks.jsonl']);
  assert.deepEqual(problems, [located('as given')]);

  const missing: Problem[] = [];
  const q = await locateRun(place([]), ROLLOUTS, '/nowhere/run_config.yaml', missing);
  assert.deepEqual([q.configPath, q.resultsDir, q.config], [null, '/out', {}]);
  assert.deepEqual(missing, [{ file: '/nowhere/run_config.yaml', severity: 'warning', code: 'run-config-missing',
    message: 'the run config given (/nowhere/run_config.yaml) is not there' }]);

  const m = place([named]);
  m.put('/out/run_config.yaml', config({ rows: '/out/tasks.jsonl' }));
  m.put('/out/tasks.jsonl', '{}\n');
  const beside: Problem[] = [];
  const r = await locateRun(m, ROLLOUTS, undefined, beside);
  assert.deepEqual([r.configPath, r.resultsDir, r.rowsPath], ['/out/run_config.yaml', '/out', '/out/tasks.jsonl']);
  assert.deepEqual(beside, []);
});

test('withRowsRoot: the root the rows name is the original root only when none is known and it is gone', async () => {
  const m = place([]);
  const base = await locateRun(m, ROLLOUTS, undefined, []);
  assert.equal(base.originalRoot, null);
  // Gone: taken, and the moved root maps it to the results folder.
  const moved = await withRowsRoot(m, base, '/old/res');
  assert.equal(moved.originalRoot, '/old/res');
  assert.equal(await moved.root.locate(m, '/old/res/tasks.jsonl'), '/out/tasks.jsonl');
  // There, or none: the place as it was.
  assert.equal(await withRowsRoot(m, base, '/res'), base);
  assert.equal(await withRowsRoot(m, base, null), base);
  // A root already known is kept.
  assert.equal(await withRowsRoot(m, moved, '/older'), moved);
});
