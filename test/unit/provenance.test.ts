// Reward provenance read from a generated Harbor job: the agent-written reward.json that disagrees with the
// verifier's reward.txt is a warning on the attempt and a Problem at reward.json; a reward file older than the
// verifier's start is flagged (mtime set back on disk); reward-details.json is an info finding and renders as rows.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import type { Attempt, Run } from '../../src/core/model';
import { readHarborJob } from '../../src/core/readers/harborJob';
import { generateHarborJob, harborEveryCase } from '../../scripts/sample-runs/harborJob';
import { dashboardModel } from '../../src/core/dashboard';
import { rewardDetailNodes } from '../../src/core/dashboard/rewardDetails';
import { attemptDescription } from '../../src/views/tree/describe';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dash-prov-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function attemptOf(run: Run, task: string): Attempt {
  const t = run.tasks.find((x) => x.id.endsWith(`/${task}`) || x.id === task);
  assert.ok(t, `task ${task} in ${run.tasks.map((x) => x.id).join(', ')}`);
  return t.attempts[0];
}

test('a generated job: disagreeing reward files, a reward file older than the verifier, reward-details.json', async () => {
  const { jobDir } = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
  // The verifier of hello-world (trajectory-absent, reward.txt 1) started at its recorded time: set reward.txt back an hour.
  const hello = fs.readdirSync(jobDir).find((n) => n.startsWith('hello-world__'))!;
  const result = JSON.parse(fs.readFileSync(path.join(jobDir, hello, 'result.json'), 'utf8'));
  const early = new Date(Date.parse(result.verifier.started_at) - 3600_000);
  fs.utimesSync(path.join(jobDir, hello, 'verifier', 'reward.txt'), early, early);

  const run = await readHarborJob(new NodeFs(), jobDir);
  const hack = attemptOf(run, 'fix-permissions');
  assert.equal(hack.reward, 1, 'Harbor reads reward.json first: the agent-written 1');
  assert.deepEqual(hack.provenance?.map((p) => [p.code, p.severity, path.basename(p.file)]), [['reward-files-disagree', 'warning', 'reward.json']]);
  assert.equal(hack.rewardMethod, 'reward.json');
  assert.ok(run.problems.some((p) => p.code === 'reward-files-disagree' && p.file.endsWith('/verifier/reward.json') && p.severity === 'warning'));

  const h = attemptOf(run, 'hello-world');
  assert.deepEqual(h.provenance?.map((p) => p.code), ['reward-before-verifier']);
  assert.match(h.provenance![0].message, /before the verifier started/);

  const essay = attemptOf(run, 'grade-essay');
  assert.deepEqual(essay.provenance?.map((p) => [p.code, p.severity]), [['reward-details', 'info']]);
  assert.equal(essay.rewardMethod, 'rewardkit');
  assert.ok(!run.problems.some((p) => p.code === 'reward-details'), 'information, not a Problem');
  const nodes = rewardDetailNodes(JSON.parse(fs.readFileSync(essay.provenance![0].file, 'utf8')));
  assert.ok(nodes.some((n) => n.kind === 'group' && n.depth === 0));
  assert.ok(nodes.some((n) => n.kind === 'criterion' && n.text?.includes('<script>')), 'judge text kept verbatim (rendered as text)');

  // The Runs tree says it on the attempt (an information-only finding is not a warning there).
  assert.match(attemptDescription(hack), /⚠ reward provenance/);
  assert.doesNotMatch(attemptDescription(essay), /reward provenance/);
  // Other trials: nothing to say.
  assert.equal(attemptOf(run, 'log-summary').provenance, undefined);
  const d = dashboardModel(run);
  assert.equal(d.provenance.filter((p) => p.severity === 'warning').length, 2);
  assert.equal(d.provenance[0].severity, 'warning');
});

test('a trial\'s reward.txt edited after the verifier ran (result.json says 1, the file 0): a warning on the attempt, a Problem, the dashboard', async () => {
  const { jobDir } = await generateHarborJob(path.join(root, 'jobs-vs'), harborEveryCase());
  const run0 = await readHarborJob(new NodeFs(), jobDir);
  const passed = run0.tasks.flatMap((t) => t.attempts).find((a) => a.outcome === 'passed' && !a.provenance && a.dir && fs.existsSync(path.join(a.dir, 'verifier', 'reward.txt')) && !fs.existsSync(path.join(a.dir, 'verifier', 'reward.json')));
  assert.ok(passed?.dir, 'a passed trial with reward.txt alone');
  const file = path.join(passed.dir, 'verifier', 'reward.txt');
  fs.writeFileSync(file, '0\n');
  const run = await readHarborJob(new NodeFs(), jobDir);
  const a = run.tasks.flatMap((t) => t.attempts).find((x) => x.dir === passed.dir)!;
  assert.equal(a.reward, 1, 'the reward on record is still result.json\'s');
  assert.deepEqual(a.provenance?.map((p) => [p.code, p.severity, p.file]), [['reward-file-vs-result', 'warning', file]]);
  assert.match(a.provenance![0].message, /^reward\.txt says 0 but result\.json's verifier_result\.rewards says 1: /);
  assert.ok(run.problems.some((p) => p.code === 'reward-file-vs-result' && p.file === file && p.severity === 'warning'));
  assert.match(attemptDescription(a), /⚠ reward provenance/);
  const before = dashboardModel(run0).provenance.length;
  assert.equal(dashboardModel(run).provenance.length, before + 1);
});
