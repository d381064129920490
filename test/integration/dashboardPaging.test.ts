// The run dashboard of a run too big for one message, in the real workbench: a NeMo Gym run of 700 tasks generated
// into the workspace. The first screen comes at once with the task table's first rows (`rendered` says loading), the
// other rows follow in pages until the table has every task (`rendered` again, loading done); the task × attempt grid
// is not in the first message and comes when its section is opened; a re-read of the run (a live update) starts the
// table over with every task again. The Runs tree lists the same run's tasks a page at a time ("Show more"), and a
// link to a task past the page reveals it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, until, webview, workspaceRoot } from './helpers';
import { api, type HarborRunsApi } from './treeHelpers';
import type { Run } from '../../src/core/model';
import type { WebviewMessage } from '../../src/protocol/runOverview';
import { generateNemoRun, nemoLarge } from '../../scripts/sample-runs/nemoGym';
import { writeRunSummary } from '../../src/core/summary';
import { formatDeepLink } from '../../src/views/deepLink';
import { FIRST_PAGE, MORE_PAGE, type TreeNode } from '../../src/views/tree/nodes';
import { NodeFs } from '../../src/core/fs/nodeFs';

const VIEW_TYPE = 'harborRuns.runOverview';
const TASKS = 700;
type Rendered = Extract<WebviewMessage, { type: 'rendered' }>;

suite('run dashboard of a big run (rows in pages)', () => {
  let a: HarborRunsApi;
  let run: Run;
  let dir: string;
  const seen: { runId: string; message: WebviewMessage }[] = [];
  let recorder: { dispose(): void } | undefined;
  const rendered = (from: number): Rendered[] => seen.slice(from)
    .filter((e): e is { runId: string; message: Rendered } => e.runId === run.id && e.message.type === 'rendered').map((e) => e.message);
  const errors = () => seen.filter((e) => e.message.type === 'error').map((e) => JSON.stringify(e.message));

  suiteSetup(async function () {
    this.timeout(180_000);
    a = await api();
    recorder = a.onDidReceivePanelMessage((m) => { if (m.viewType === VIEW_TYPE) seen.push({ runId: m.key, message: m.message as WebviewMessage }); });
    dir = path.join(workspaceRoot(), 'paged');
    const g = await generateNemoRun(dir, { ...nemoLarge(TASKS, 2, 0), taskset: 'tb-paged' });
    const written = await writeRunSummary(new NodeFs(), g.rolloutsPath, { beforeDispatch: null, identity: g.identity, skipped: g.skipped });
    assert.ok(!written.error, written.error);
    await a.refresh();
    const r = a.store.runs().find((x) => x.root.startsWith(dir) && x.tasks.length === TASKS);
    assert.ok(r, `the generated run of ${TASKS} tasks is read`);
    run = r;
  });

  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
    await a.refresh();
  });

  test('the first screen has the first rows; the pages bring every task; the grid comes when opened', async function () {
    this.timeout(120_000);
    const from = seen.length;
    await vscode.commands.executeCommand('harborRuns.openRunOverview', run.id);
    const first = await until(() => { if (errors().length) throw new Error(errors().join('; ')); return rendered(from)[0]; },
      { timeout: 60_000, message: 'the overview renders' });
    assert.equal(first.loading, true, 'the first screen is drawn before every row is in');
    assert.ok((first.tableRows ?? 0) > 0 && (first.tableRows ?? 0) < TASKS, `the first screen has the first rows (${first.tableRows})`);
    assert.equal(first.rows, 0, 'the grid is not in the first message');
    const done = await until(() => rendered(from).find((m) => m.loading === false), { timeout: 60_000, message: 'every page of rows arrives' });
    assert.equal(done.tableRows, TASKS, 'the table has every task');
    assert.deepEqual(errors(), [], 'no page was dropped as invalid');
    if (!hasDriver()) return;
    const shown = await webview('paged-shown', 'text', 'section.task-table .tt-shown');
    assert.equal(shown?.text, `${TASKS} of ${TASKS} tasks`);
    const before = seen.length;
    const open = await webview('paged-grid-open', 'click', 'details.grid-section > summary');
    assert.ok(open?.ok, open?.error);
    const grid = await until(() => rendered(before).find((m) => m.rows > 0), { timeout: 30_000, message: 'the grid comes when its section is opened' });
    assert.equal(grid.rows, 500, 'the grid lists its first 500 tasks');
    assert.ok(seen.slice(before).some((e) => e.message.type === 'grid'), 'the page asked for the grid');
  });

  test('a re-read of the run (live update) draws a new first screen and brings every task again', async function () {
    this.timeout(120_000);
    const from = seen.length;
    // The run is re-read: the store reloads it and the open panel gets a new first screen, then its pages.
    await a.refresh();
    const again = await until(() => rendered(from)[0], { timeout: 60_000, message: 'the re-read run is drawn again' });
    assert.equal(again.loading, true);
    const done = await until(() => rendered(from).find((m) => m.loading === false), { timeout: 60_000, message: 'the re-read run is sent again in full' });
    assert.equal(done.tableRows, TASKS);
    assert.deepEqual(errors(), []);
  });

  test("the Runs tree lists the run's tasks a page at a time; Show more lists the next page", async function () {
    this.timeout(60_000);
    const runNode = a.treeProvider.nodeForRun(a.store.get(run.id)!);
    const tasksOf = (kids: TreeNode[]) => kids.filter((n): n is TreeNode & { kind: 'task' } => n.kind === 'task');
    const first = await a.getChildren(runNode);
    assert.equal(tasksOf(first).length, FIRST_PAGE);
    const more = first.find((n) => n.kind === 'more');
    assert.ok(more, 'a "Show more" row after the first page');
    const item = a.getTreeItem(more);
    assert.equal(item.label, `Show ${(TASKS - FIRST_PAGE).toLocaleString('en-US')} more tasks`);
    assert.equal(item.command?.command, 'harborRuns.showMore');
    // Its click, as the tree runs it.
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    const all = await a.getChildren(runNode);
    assert.equal(tasksOf(all).length, Math.min(TASKS, FIRST_PAGE + MORE_PAGE), 'the next page is listed');
    assert.ok(!all.some((n) => n.kind === 'more'), 'every task listed: no "Show more" row');
    assert.deepEqual(tasksOf(all).map((n) => n.task.id), run.tasks.map((t) => t.id), 'in the tree\'s order, the run\'s tasks');
  });

  test('a link to a task past the first page reveals it (the page is extended to it)', async function () {
    this.timeout(60_000);
    // A sort (even the same one) lists the tasks from the first page again.
    a.treeProvider.setState({ sort: 'id' });
    const fresh = a.store.get(run.id)!;
    const runNode = a.treeProvider.nodeForRun(fresh);
    assert.equal((await a.getChildren(runNode)).filter((n) => n.kind === 'task').length, FIRST_PAGE);
    const last = fresh.tasks.at(-1)!;
    const ok = await vscode.commands.executeCommand<boolean>('harborRuns.openLink', formatDeepLink({ kind: 'task', run: fresh.id, task: last.id }));
    assert.equal(ok, true, 'the link opened');
    const sel = await until(() => a.treeView.selection.find((n) => n.kind === 'task'), { timeout: 20_000, message: 'the task is selected in the tree' });
    assert.equal(sel.kind === 'task' && sel.task.id, last.id);
    assert.ok((await a.getChildren(runNode)).some((n) => n.kind === 'task' && n.task.id === last.id), 'the task is listed now');
  });
});
