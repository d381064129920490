// Compare Runs and Compare Attempts in the real workbench, on the compare examples (examples/compare/jobs): the
// command opens the panel on the runs given, the page renders regressions first, the merged view is a toggle the
// host acts on; "Compare" on a row opens the attempts panel scrolled to the first divergence; "Diff verifier output"
// opens VS Code's diff editor on two read-only harbor-compare: documents; two attempts selected in the Runs tree
// compare through "Compare with…"; a side without a trajectory says so.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview } from './helpers';
import { api, runNodes, type HarborRunsApi, type TreeNode } from './treeHelpers';
import type { Run } from '../../src/core/model';
import { sidesOf } from '../../src/core/compare';

const RUNS = 'harborRuns.compareRuns';
const ATTEMPTS = 'harborRuns.compareAttempts';
const seen: { viewType: string; key: string; message: { type: string } & Record<string, unknown> }[] = [];

function messages(viewType: string, key?: string) {
  return seen.filter((m) => m.viewType === viewType && (key === undefined || m.key === key)).map((m) => m.message);
}

async function rendered(viewType: string, key: string, after = 0) {
  return until(() => {
    const ms = messages(viewType, key);
    const err = ms.find((m) => m.type === 'error' || m.type === 'cspViolation');
    if (err) throw new Error(`the webview reported: ${JSON.stringify(err)}`);
    return ms.filter((m) => m.type === 'rendered')[after];
  }, { timeout: 30_000, message: `${viewType} renders (#${after + 1})` }).catch((e: Error) => {
    throw new Error(`${e.message}; messages: ${JSON.stringify(messages(viewType, key)).slice(0, 1500)}`);
  });
}

suite('compare runs and attempts', () => {
  let a: HarborRunsApi;
  let base: Run, cand: Run, one: Run;
  let recorder: { dispose(): void } | undefined;
  suiteSetup(async () => {
    a = await api();
    recorder = a.onDidReceivePanelMessage((m) => { seen.push(m as typeof seen[number]); });
    const job = (name: string) => {
      const r = a.store.runs().find((x) => x.kind === 'harbor-job' && x.identity.job === name);
      assert.ok(r, `examples/compare has the job ${name}`);
      return r;
    };
    base = job('2026-09-02__10-00-00');
    cand = job('2026-09-03__10-00-00');
    one = job('2026-09-04__09-00-00');
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Compare Runs: regressions first; the merged view is a toggle; Compare opens the attempts at the first divergence', async () => {
    const key = await vscode.commands.executeCommand<string>(RUNS, [base.id, cand.id, one.id]);
    assert.equal(key, [base.id, cand.id, one.id].join('\n'));
    const first = await rendered(RUNS, key);
    assert.equal(first.rows, 6);
    assert.match(String(first.firstTask), /fix-git$/, 'with three sides fix-git (failed in the one-trial job) is the regression; regex-log is not in every run');
    assert.ok(Number(first.domRows) > 0 && Number(first.domRows) <= 6);
    assert.equal(a.openPanels(RUNS).length, 1);
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Compare: 3 runs');
    // Asking again reveals the same panel.
    await vscode.commands.executeCommand(RUNS, [base.id, cand.id, one.id]);
    assert.equal(a.openPanels(RUNS).length, 1);
    if (!hasDriver()) return;
    const text = await webview('compare-runs-text', 'text', '.task-row.change-regressed');
    assert.ok(text?.ok, text?.error);
    assert.match(text.text ?? '', /regressed/);
    await screenshot('compare-runs');
    const click = await webview('compare-runs-merge', 'click', 'input#merge');
    assert.ok(click?.ok, click?.error);
    const merged = await rendered(RUNS, key, 1);
    assert.ok(messages(RUNS, key).some((m) => m.type === 'setMerge' && m.merge === true), 'the host got setMerge');
    assert.match(String(merged.firstTask), /regex-log$/, 'merged, the one-trial job joins the candidate: regex-log is the largest regression');
    const note = await webview('compare-runs-note', 'text', '.merge-note');
    assert.match(note?.text ?? '', /2 runs of terminus-2 · openai\/gpt-5/);
    await webview('compare-runs-merged', 'shot', '#app');

    const cmp = await webview('compare-runs-compare', 'click', '.task-row.change-regressed button.compare');
    assert.ok(cmp?.ok, cmp?.error);
    const panel = await until(() => a.openPanels(ATTEMPTS)[0], { timeout: 15_000, message: 'Compare opens the attempts panel' });
    const r = await rendered(ATTEMPTS, panel.key);
    assert.equal(r.rows, 8);
    assert.equal(r.selected, 4, 'scrolled to and selected at the first divergence');
    const head = await webview('compare-attempts-summary', 'text', '.summary');
    assert.match(head?.text ?? '', /First divergence at row 5 .* 6 same · 0 changed · 0 only left · 2 only right/);
    await screenshot('compare-attempts');

    const diff = await webview('compare-attempts-diff', 'click', 'button.action:last-child');
    assert.ok(diff?.ok, diff?.error);
    const tab = await until(() => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff ? t.input : undefined;
    }, { timeout: 15_000, message: 'the verifier diff opens in the diff editor' });
    assert.equal(tab.original.scheme, 'harbor-compare');
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.original), vscode.workspace.openTextDocument(tab.modified)]);
    assert.match(left.getText(), /^outcome: passed\nreward: 1\.0\n/);
    assert.match(right.getText(), /^outcome: failed\nreward: 0\.0\n[\s\S]*failed tests \(1\):\n {2}- \S*test_expected_output/);
    assert.match(right.getText(), /--- test-stdout\.txt ---\n/);
    await screenshot('compare-verifier-diff');
  });

  test('Compare with… on two attempts selected in the Runs tree; a side without a trajectory says so', async () => {
    const nodes = await runNodes(a);
    const attemptOf = async (run: Run, task: RegExp): Promise<TreeNode> => {
      const rn = nodes.find((n) => n.kind === 'run' && n.run.id === run.id)!;
      const tn = (await a.getChildren(rn)).find((n) => n.kind === 'task' && task.test(n.task.id))!;
      return (await a.getChildren(tn)).find((n) => n.kind === 'attempt')!;
    };
    const l = await attemptOf(base, /log-summary$/);
    const r = await attemptOf(cand, /log-summary$/);
    const key = await vscode.commands.executeCommand<string>(ATTEMPTS, l, [l, r]);
    assert.ok(key, 'the command compares the two selected attempts');
    const msg = await rendered(ATTEMPTS, key);
    assert.equal(msg.selected, null, 'log-summary ran the same steps on both sides: no divergence');

    const noTraj = a.store.runs().flatMap((run) => run.tasks.flatMap((t) => t.attempts.map((x) => ({ run, x }))))
      .find(({ x }) => x.outcome === 'passed' && !x.evidence.some((e) => e.kind === 'trajectory' && e.present));
    assert.ok(noTraj, 'examples have a passed attempt without a trajectory');
    const k2 = await vscode.commands.executeCommand<string>(ATTEMPTS, { runId: noTraj.run.id, attemptId: noTraj.x.id }, { runId: base.id, attemptId: l.kind === 'attempt' ? l.attempt.id : '' });
    await rendered(ATTEMPTS, k2);
    if (!hasDriver()) return;
    const un = await webview('compare-attempts-no-trajectory', 'text', '.side-head.left');
    assert.match(un?.text ?? '', /no trajectory recorded|trajectory missing/);
    await webview('compare-attempts-one-side', 'shot', '#app');
  });

  test('one viewer-data run of several model|harness cells compares its cells', async () => {
    const v = a.store.runs().find((r) => r.kind === 'viewer-data' && sidesOf([r]).length >= 2);
    assert.ok(v, 'examples/ has a viewer-data dataset with several cells');
    const key = await vscode.commands.executeCommand<string>(RUNS, [v.id]);
    assert.equal(key, v.id);
    const msg = await rendered(RUNS, key);
    assert.equal(msg.rows, v.tasks.filter((t) => t.attempts.some((x) => x.cell)).length, 'every task with an attempt in a cell');
    assert.equal(a.openPanels(RUNS).find((p) => p.key === key)?.title, `Compare cells: ${v.label}`);
  });
});
