// The Runs tree in the real workbench, on the examples (a temp copy): runs of all three kinds, tasks, attempts with
// outcome icons, evidence that opens in a preview tab, stable ids, filters and the view message.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until } from './helpers';
import { api, child, iconOf, labelOf, runNodes, type HarborRunsApi, type TreeNode } from './treeHelpers';

suite('runs tree', () => {
  let a: HarborRunsApi;
  suiteSetup(async () => { a = await api(); });

  function runOf(kind: string, label?: RegExp): Promise<TreeNode> {
    return runNodes(a).then((runs) => {
      const hit = runs.find((n) => n.kind === 'run' && n.run.kind === kind && (!label || label.test(n.run.label)));
      if (!hit) throw new Error(`no ${kind} run among: ${runs.map((n) => (n.kind === 'run' ? `${n.run.kind} ${n.run.label}` : n.id)).join(', ')}`);
      return hit;
    });
  }

  test('shows runs of all three kinds, with counts in their description', async () => {
    const runs = await runNodes(a);
    const kinds = new Set<string>(runs.map((n) => (n.kind === 'run' ? n.run.kind : '')));
    for (const k of ['nemo-gym', 'harbor-job', 'viewer-data']) assert.ok(kinds.has(k), `a ${k} run is shown (got ${[...kinds].join(', ')})`);
    for (const n of runs) {
      const item = a.getTreeItem(n);
      assert.equal(item.id, `run:${n.kind === 'run' ? n.run.id : ''}`);
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      if (n.kind === 'run' && n.run.training && n.run.tasks.every((t) => t.attempts.length === 0)) {
        // A training run with no attempts of its own: its steps and last reward instead.
        assert.match(String(item.description), /^training · \d+ steps? · reward \d/, `${labelOf(item)}: ${String(item.description)}`);
        continue;
      }
      const m = /^\d+\/\d+ passed · (\d+) attempt(s?)(?: · |$)/.exec(String(item.description));
      assert.ok(m, `${labelOf(item)}: ${String(item.description)}`);
      assert.equal(m[2] === '', m[1] === '1', `one attempt in the singular, others in the plural: ${String(item.description)}`);
    }
  });

  test('NeMo Gym: run → task → attempt → evidence, icons by outcome, test-stdout opens in a preview tab', async () => {
    const run = await runOf('nemo-gym', /tb-mini/);
    const task = await child(a, run, 'hello-world');
    const taskItem = a.getTreeItem(task);
    assert.match(String(taskItem.description), /^2\/2 · pass@2 ✓$/);
    assert.deepEqual(iconOf(taskItem), { id: 'pass', color: 'testing.iconPassed' });
    const attempt = await child(a, task, '#1');
    const attemptItem = a.getTreeItem(attempt);
    assert.match(String(attemptItem.description), /^1\.0 · passed/);
    assert.ok(attemptItem.tooltip instanceof vscode.MarkdownString && /\*\*Outcome:\*\* passed/.test(attemptItem.tooltip.value), 'a Markdown tooltip with the outcome');
    const stdout = await child(a, attempt, 'test-stdout.txt');
    const stdoutItem = a.getTreeItem(stdout);
    assert.equal(stdoutItem.command?.command, 'harborRuns.openItem');
    await vscode.commands.executeCommand(stdoutItem.command.command, ...(stdoutItem.command.arguments ?? []));
    const tab = await until(() => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t && t.input instanceof vscode.TabInputText && t.input.uri.path.endsWith('/test-stdout.txt') ? t : undefined;
    }, { message: 'test-stdout.txt is the active tab' });
    assert.equal(tab.isPreview, true, 'opened as a preview');
    if (hasDriver()) await screenshot('tree-nemo-test-stdout');
  });

  test('NeMo Gym: a failed attempt lists its ctrf failed tests; an infra error has no reward', async () => {
    const run = await runOf('nemo-gym', /tb-mini/);
    const failedAttempt = await child(a, await child(a, run, 'fix-permissions'), '#1');
    assert.deepEqual(iconOf(a.getTreeItem(failedAttempt)), { id: 'error', color: 'testing.iconFailed' });
    const ctrf = await child(a, failedAttempt, 'ctrf.json');
    assert.match(String(a.getTreeItem(ctrf).description), /1 failed test/);
    const tests = await a.getChildren(ctrf);
    assert.equal(tests.length, 1);
    assert.match(labelOf(a.getTreeItem(tests[0])), /test_prints_ok/);
    const infra = a.getTreeItem(await child(a, await child(a, run, 'parse-csv'), '#1'));
    assert.match(String(infra.description), /^— · infra error/);
  });

  test('Harbor job: trials as attempts, a running trial spins, artifacts/ is browsable', async () => {
    const run = await runOf('harbor-job');
    const tasks = await a.getChildren(run);
    const running = tasks.find((t) => t.kind === 'task' && t.task.attempts.some((x) => x.outcome === 'running'));
    assert.ok(running, 'a task with a running trial');
    const trial = (await a.getChildren(running)).find((n) => n.kind === 'attempt' && n.attempt.outcome === 'running');
    assert.ok(trial);
    assert.equal(iconOf(a.getTreeItem(trial))?.id, 'sync~spin');
    const withArtifacts = tasks.find((t) => t.kind === 'task' && t.task.attempts.some((x) => x.evidence.some((e) => e.kind === 'artifacts' && e.present)));
    assert.ok(withArtifacts, 'a trial with artifacts/');
    const att = (await a.getChildren(withArtifacts)).find((n) => n.kind === 'attempt' && n.attempt.evidence.some((e) => e.kind === 'artifacts' && e.present))!;
    const artifacts = (await a.getChildren(att)).find((n) => n.kind === 'evidence' && n.evidence.kind === 'artifacts')!;
    const entries = await a.getChildren(artifacts);
    assert.ok(entries.length > 0 && entries.every((e) => e.kind === 'entry'), 'the folder is listed lazily');
  });

  test('viewer data: a dataset with tasks and attempts', async () => {
    const run = await runOf('viewer-data');
    const tasks = (await a.getChildren(run)).filter((n) => n.kind === 'task');
    assert.ok(tasks.length > 0);
    const attempts = await a.getChildren(tasks[0]);
    assert.ok(attempts.length > 0 && attempts.every((n) => n.kind === 'attempt'));
  });

  test('harborRuns.include narrows discovery; nothing found leaves the tree empty for the welcome view', async () => {
    const cfg = vscode.workspace.getConfiguration('harborRuns');
    try {
      await cfg.update('include', ['harbor/**'], vscode.ConfigurationTarget.Workspace);
      await until(async () => { await a.whenIdle(); return a.store.runs().length > 0 && a.store.runs().every((r) => r.kind === 'harbor-job'); },
        { message: 'only the Harbor job is left', timeout: 15_000 });
      await cfg.update('include', ['no-such-folder/**'], vscode.ConfigurationTarget.Workspace);
      await until(async () => { await a.whenIdle(); return a.store.runs().length === 0; }, { message: 'no run is left', timeout: 15_000 });
      assert.deepEqual(await a.getChildren(), [], 'an empty tree shows the welcome content');
      if (hasDriver()) await screenshot('tree-welcome');
    } finally {
      await cfg.update('include', undefined, vscode.ConfigurationTarget.Workspace);
      await until(async () => { await a.whenIdle(); return a.store.runs().length > 1; }, { message: 'the runs are back', timeout: 15_000 });
    }
  });

  test('ids survive a refresh; a filter shows in the view message and narrows the tasks', async () => {
    const before = (await runNodes(a)).map((n) => a.getTreeItem(n).id).sort();
    await a.refresh();
    const after = (await runNodes(a)).map((n) => a.getTreeItem(n).id).sort();
    assert.deepEqual(after, before);
    const run = await runOf('nemo-gym', /tb-mini/);
    const all = (await a.getChildren(run)).filter((n) => n.kind === 'task').length;
    a.treeProvider.setState({ outcomes: new Set(['missing']) });
    try {
      await until(() => a.treeView.message?.includes('outcome missing'), { message: 'the view message names the filter' });
      const shown = (await a.getChildren(run)).filter((n) => n.kind === 'task');
      assert.ok(shown.length > 0 && shown.length < all, `${shown.length} of ${all} tasks shown`);
      for (const t of shown) for (const at of await a.getChildren(t)) assert.equal(at.kind === 'attempt' && at.attempt.outcome, 'missing');
    } finally {
      await vscode.commands.executeCommand('harborRuns.clearFilter');
    }
    assert.equal(a.treeView.message, undefined);
  });
});
