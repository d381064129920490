// The trajectory editor in the real extension host: the default editor of agent/trajectory.json (a custom editor
// tab, not text), listed by the API's openPanels, the webview's handshake and rendering (observed through
// onDidReceivePanelMessage), the Runs tree opening a trial's trajectory with its attempt, "Copy Link" and deep links
// (a trajectory at a step, an attempt revealed in the tree, files outside the workspace refused), and the "any JSON"
// editor saying a file is not ATIF.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview, workspaceRoot } from './helpers';
import { api, type HarborRunsApi } from './treeHelpers';
import { continuedTrajectory, featureTrajectory, type FolderFiles } from '../../scripts/sample-runs/atifFeatures';
import { parseTrajectoryWebviewMessage, type TrajectoryWebviewMessage } from '../../src/protocol/trajectory';
import { parseDeepLink } from '../../src/views/deepLink';

type Rendered = Extract<TrajectoryWebviewMessage, { type: 'rendered' }>;
const VIEW_TYPES = ['harborRuns.trajectory', 'harborRuns.trajectory.any'];
/** Every message a trajectory editor received since the suite started, by the editor's key (the file's path). */
const seen: { viewType: string; key: string; message: TrajectoryWebviewMessage }[] = [];

function write(dir: string, files: FolderFiles): void {
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), v instanceof Uint8Array ? v : JSON.stringify(v));
  }
}

/** The first `rendered` report of the editor of `file` that satisfies `pred`; fails on an error or CSP report. */
async function rendered(file: string, pred: (m: Rendered) => boolean = () => true, since = 0): Promise<Rendered> {
  return until(() => {
    const msgs = seen.slice(since).filter((m) => m.key === file).map((m) => m.message);
    const err = msgs.find((m) => m.type === 'error' || m.type === 'cspViolation');
    if (err) throw new Error(`the webview reported ${JSON.stringify(err)}`);
    return msgs.filter((m): m is Rendered => m.type === 'rendered').find(pred);
  }, { timeout: 30_000, message: `the trajectory editor of ${file} renders` }).catch((e: Error) => {
    throw new Error(`${e.message}; messages: ${JSON.stringify(seen.filter((m) => m.key === file).slice(-10))}`);
  });
}

suite('trajectory editor', () => {
  let a: HarborRunsApi;
  let dir: string;
  let recorder: vscode.Disposable | undefined;
  suiteSetup(async () => {
    a = await api();
    recorder = a.onDidReceivePanelMessage((m) => {
      if (VIEW_TYPES.includes(m.viewType)) seen.push({ viewType: m.viewType, key: m.key, message: m.message as TrajectoryWebviewMessage });
    });
    dir = path.join(workspaceRoot(), 'trajectories-it');
    write(path.join(dir, 'cont', 'agent'), continuedTrajectory().files);
    write(path.join(dir, 'features', 'agent'), featureTrajectory());
    write(path.join(dir, 'restore', 'agent'), featureTrajectory());
    write(dir, { 'mini.json': { trajectory_format: 'mini-swe-agent-1', info: {}, messages: [{ role: 'user', content: 'x' }] } });
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('agent/trajectory.json opens in the trajectory editor by default and renders every step', async () => {
    const file = path.join(dir, 'features', 'agent', 'trajectory.json');
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
    const r = await rendered(file, (m) => m.selected === 0);
    assert.equal(r.rows, 5);
    assert.equal(r.view, 'timeline');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputCustom && tab.input.viewType === 'harborRuns.trajectory', 'a custom editor tab');
    const open = a.openPanels('harborRuns.trajectory').filter((p) => p.key === file);
    assert.equal(open.length, 1, `openPanels lists the editor: ${JSON.stringify(a.openPanels())}`);
    assert.ok(open[0].title.endsWith('trajectory.json'), open[0].title);
    for (const m of seen.filter((x) => x.key === file)) assert.ok(parseTrajectoryWebviewMessage(m.message).ok, 'only valid messages are reported');
    assert.ok(seen.some((m) => m.key === file && m.message.type === 'getStep' && m.message.index === 0), 'the page asked for step #1');
    if (hasDriver()) {
      const text = await webview('trajectory-header', 'text', '.head-box');
      assert.ok(text?.ok && text.text?.includes('ATIF-v1.8'), text?.error ?? text?.text);
      await screenshot('trajectory-editor');
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until(() => a.openPanels('harborRuns.trajectory').every((p) => p.key !== file), { timeout: 10_000, message: 'a closed editor leaves openPanels' });
  });

  test('the Runs tree opens a trial\'s trajectory in the editor with its attempt', async () => {
    const run = a.store.runs().find((r) => r.kind === 'harbor-job');
    assert.ok(run, 'examples/ has a Harbor job');
    const task = run.tasks.find((t) => t.attempts.some((x) => x.evidence.some((e) => e.kind === 'trajectory' && e.present)))!;
    const attempt = task.attempts.find((x) => x.evidence.some((e) => e.kind === 'trajectory' && e.present))!;
    const ev = attempt.evidence.find((e) => e.kind === 'trajectory')!;
    const runNode = a.treeProvider.nodeForRun(run);
    const taskNode = (await a.getChildren(runNode)).find((n) => n.kind === 'task' && n.task.id === task.id)!;
    const attemptNode = (await a.getChildren(taskNode)).find((n) => n.kind === 'attempt' && n.attempt.id === attempt.id)!;
    const evNode = (await a.getChildren(attemptNode)).find((n) => n.kind === 'evidence' && n.evidence.kind === 'trajectory')!;
    const item = a.getTreeItem(evNode);
    assert.equal(item.command?.command, 'harborRuns.openTrajectory');
    assert.equal(a.getTreeItem(attemptNode).command, undefined, 'the attempt row itself opens nothing');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const r = await rendered(ev.path);
    assert.ok(r.rows > 0);
    assert.ok(a.openPanels('harborRuns.trajectory').some((p) => p.key === ev.path && p.visible), 'the editor is open and visible');
    if (hasDriver()) {
      const text = await webview('trajectory-attempt', 'text', '.attempt');
      assert.ok(text?.ok && text.text?.includes(task.label || task.id), `${text?.error} ${text?.text}`);
      assert.ok(text.text?.includes(attempt.outcome), `the outcome is shown: ${text.text}`);
      await screenshot('trajectory-from-tree');
    }
  });

  test('a deep link opens a trajectory at a step; links outside the workspace are refused', async () => {
    const file = path.join(dir, 'cont', 'agent', 'trajectory.json');
    const link = `${vscode.env.uriScheme}://harbor-runs.harbor-runs/trajectory?file=${encodeURIComponent(file)}&step=5`;
    const since = seen.length;
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', link), true);
    const r = await rendered(file, (m) => m.selected === 4, since);
    assert.equal(r.rows, continuedTrajectory().expect.steps);
    // The editor is open: a second link moves it to another step instead of opening a second one.
    const again = seen.length;
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', link.replace('step=5', 'step=2')), true);
    await rendered(file, (m) => m.selected === 1, again);
    assert.equal(a.openPanels('harborRuns.trajectory').filter((p) => p.key === file).length, 1);
    for (const bad of ['/etc/x.json', `${workspaceRoot()}/../../etc/x.json`]) {
      const outside = `${vscode.env.uriScheme}://harbor-runs.harbor-runs/trajectory?file=${encodeURIComponent(bad)}&step=1`;
      assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', outside), false, `${bad} is refused`);
    }
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', `${vscode.env.uriScheme}://other.extension/trajectory?file=${encodeURIComponent(file)}`), false);
  });

  test('the editor opened again comes back on the step it was left on (the host keeps the view state per file)', async () => {
    const file = path.join(dir, 'restore', 'agent', 'trajectory.json');
    const link = `${vscode.env.uriScheme}://harbor-runs.harbor-runs/trajectory?file=${encodeURIComponent(file)}&step=4`;
    const since = seen.length;
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', link), true);
    await rendered(file, (m) => m.selected === 3, since);
    await until(() => seen.slice(since).some((m) => m.key === file && m.message.type === 'viewState' && m.message.state.selected === 3),
      { timeout: 10_000, message: 'the page reports its view state' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => a.openPanels('harborRuns.trajectory').every((p) => p.key !== file), { timeout: 10_000, message: 'the editor is closed' });
    // Opened plainly (no step asked for): a new page, whose own state is gone, is handed the state the host kept.
    const again = seen.length;
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
    const first = await rendered(file, () => true, again);
    assert.equal(first.selected, 3, 'the first screen is on step #4 again');
    assert.ok(seen.slice(again).some((m) => m.key === file && m.message.type === 'getStep' && m.message.index === 3), 'the page asked for step #4');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Copy Link on an attempt gives a link that reveals it in the Runs tree', async () => {
    const run = a.store.runs().find((r) => r.kind === 'harbor-job')!;
    const runNode = a.treeProvider.nodeForRun(run);
    const taskNode = (await a.getChildren(runNode)).find((n) => n.kind === 'task')!;
    const attemptNode = (await a.getChildren(taskNode)).find((n) => n.kind === 'attempt')!;
    assert.ok(attemptNode.kind === 'attempt');
    const link = await vscode.commands.executeCommand<string>('harborRuns.copyLink', attemptNode);
    assert.equal(await vscode.env.clipboard.readText(), link);
    const u = vscode.Uri.parse(link);
    assert.deepEqual(parseDeepLink(u.path, u.query), { kind: 'attempt', run: run.id, task: attemptNode.task.id, attempt: attemptNode.attempt.id });
    await a.treeView.reveal(runNode, { select: true, focus: false });
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', link), true);
    await until(() => a.treeView.selection.some((n) => n.kind === 'attempt' && n.attempt.id === attemptNode.attempt.id),
      { timeout: 10_000, message: 'the attempt is selected in the Runs tree' });
    const missing = link.replace(/attempt=[^&]*/, 'attempt=no-such-attempt');
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', missing), false);
  });

  test('"Open With…" any JSON: a file that is not ATIF says what it looks like', async () => {
    const file = path.join(dir, 'mini.json');
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'harborRuns.trajectory.any');
    const r = await rendered(file, (m) => m.view === 'timeline');
    assert.equal(r.rows, 0);
    assert.ok(a.openPanels('harborRuns.trajectory.any').some((p) => p.key === file), 'listed under the "any JSON" view type');
    if (hasDriver()) {
      const text = await webview('trajectory-not-atif', 'text', '.not-atif');
      assert.ok(text?.ok && /mini-swe-agent/.test(text.text ?? ''), text?.error ?? text?.text);
      await screenshot('trajectory-not-atif');
    }
  });
});
