// package.json's trajectory contributions say what the code says: "Copy Link" is offered on exactly the tree items
// linkOf can link (runs, tasks, attempts, a present trajectory), "Open in Trajectory Viewer" on a present trajectory
// only, and the default trajectory editor claims agent and verifier-folder trajectories, not every JSON file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Attempt, Run } from '../../src/core/model';
import { describe } from '../../src/views/tree/describe';
import { attemptChildren, childrenOf, makeRunNode, type TreeNode } from '../../src/views/tree/nodes';
import { defaultViewState } from '../../src/views/tree/viewState';
import { globMatch } from '../../src/core/glob';
import { repoRoot } from '../support/paths';
import { evaluateWhen } from '../support/whenClause';

interface MenuEntry { command: string; when?: string }
interface CustomEditor { viewType: string; selector: { filenamePattern: string }[]; priority: string }
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { menus: Record<string, MenuEntry[]>; customEditors: CustomEditor[]; commands: { command: string }[] };
};

function attempt(i: number, trajectoryPresent: boolean): Attempt {
  return {
    id: `t#${i}`, index: i, label: `#${i + 1}`, outcome: 'failed', reward: 0, dir: `/r/v/t-${i}`, missing: [],
    evidence: [
      { kind: 'test-stdout', label: 'test-stdout.txt', path: `/r/v/t-${i}/test-stdout.txt`, isDir: false, present: true },
      { kind: 'trajectory', label: 'trajectory.json', path: `/r/v/t-${i}/trajectory.json`, isDir: false, present: trajectoryPresent },
    ],
  };
}

const run: Run = {
  id: 'nemo-gym:/r/x_run_summary.json', kind: 'nemo-gym', root: '/r', anchor: '/r/x_run_summary.json', label: 'tb · agent',
  identity: {}, state: 'complete', rolloutsPath: '/r/x.jsonl', summaryPath: '/r/x_run_summary.json',
  files: [{ key: 'rollouts', label: 'Rollouts', path: '/r/x.jsonl', present: true }], problems: [], unvalidated: [], skipped: [],
  tasks: [{ id: 't', index: 0, label: 't', attempts: [attempt(0, true), attempt(1, false)] }],
};

async function allNodes(): Promise<TreeNode[]> {
  const out: TreeNode[] = [];
  const visit = async (n: TreeNode): Promise<void> => {
    out.push(n);
    const kids = n.kind === 'attempt' ? attemptChildren(n) : await childrenOf(n, { state: defaultViewState(), listDir: async () => [] });
    for (const k of kids) await visit(k);
  };
  await visit(makeRunNode(run));
  return out;
}

function offered(command: string, n: TreeNode): boolean {
  const entries = manifest.contributes.menus['view/item/context'].filter((e) => e.command === command);
  assert.ok(entries.length > 0, `${command} is in the tree's context menu`);
  return entries.some((e) => evaluateWhen(e.when ?? 'true', { view: 'harborRuns.runs', viewItem: describe(n).contextValue }));
}

test('Copy Link is offered on runs, tasks, attempts and present trajectories; Open in Trajectory Viewer on present trajectories', async () => {
  const nodes = await allNodes();
  assert.ok(nodes.length > 6);
  for (const n of nodes) {
    const trajectory = n.kind === 'evidence' && n.evidence.kind === 'trajectory' && n.evidence.present;
    const linkable = n.kind === 'run' || n.kind === 'task' || n.kind === 'attempt' || trajectory;
    assert.equal(offered('harborRuns.copyLink', n), linkable, `${n.kind} ${describe(n).contextValue}`);
    assert.equal(offered('harborRuns.openTrajectory', n), trajectory, `${n.kind} ${describe(n).contextValue}`);
  }
});

test('the default trajectory editor claims agent and verifier-folder trajectories; any JSON is an option', () => {
  const [main, any] = ['harborRuns.trajectory', 'harborRuns.trajectory.any'].map((v) => manifest.contributes.customEditors.find((e) => e.viewType === v)!);
  assert.equal(main.priority, 'default');
  assert.equal(any.priority, 'option');
  // VS Code matches a pattern without a slash against the file name, one with a slash against the path.
  const claims = (e: CustomEditor, p: string) => e.selector.some((s) => globMatch(s.filenamePattern, s.filenamePattern.includes('/') ? p : path.posix.basename(p)));
  for (const p of ['jobs/j/t__x/agent/trajectory.json', 'jobs/j/t__x/agent/trajectory.cont-3.json', 'run/verifier/abc-123/trajectory.json']) {
    assert.ok(claims(main, p), `${p} opens in the trajectory editor`);
  }
  for (const p of ['tasks/t/trajectory.json', 'run/x_run_summary.json', 'jobs/j/t__x/result.json', 'jobs/j/t__x/agent/trajectory.summarization-1-summary.json']) {
    assert.ok(!claims(main, p), `${p} keeps the text editor`);
  }
  assert.ok(claims(any, 'anything/at/all.json'));
  for (const e of [main, any]) assert.ok(manifest.activationEvents.includes(`onCustomEditor:${e.viewType}`));
  assert.ok(manifest.activationEvents.includes('onUri'));
  for (const c of ['harborRuns.openTrajectory', 'harborRuns.copyLink', 'harborRuns.openLink']) assert.ok(manifest.contributes.commands.some((x) => x.command === c), c);
});
