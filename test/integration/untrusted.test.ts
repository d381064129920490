// Untrusted runs in the real workbench (docs/untrusted-runs.md): a hostile workspace folder generated here
// (scripts/sample-runs/hostileWorkspace.ts) — a Harbor job whose test-stdout.txt links to a file outside the
// workspace, a `latest` link to the job, a link to a folder outside, a NeMo Gym run whose summary names a file
// outside the run. The tree lists the job once and says which links it did not follow; the paths that leave their run
// are shown refused with the reason; clicking them (tree, Open as JSON, the Run Overview's cell) opens nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview, workspaceRoot } from './helpers';
import { api, child, iconOf, labelOf, type HarborRunsApi, type TreeNode } from './treeHelpers';
import { generateHostileWorkspace, type HostileWorkspace } from '../../scripts/sample-runs/hostileWorkspace';
import { setJsonValue } from '../../scripts/sample-runs/hostile';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { writeRunSummary } from '../../src/core/summary';
import { evidenceToOpen } from '../../src/views/runOverviewModel';

/** Every tab's file path, in every group. */
function openFiles(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.fsPath : '')).filter(Boolean);
}

suite('untrusted runs', () => {
  let a: HarborRunsApi;
  let w: HostileWorkspace;
  let summary: string;
  const refusals: { path: string; reason: string }[] = [];
  let sub: vscode.Disposable | undefined;

  suiteSetup(async () => {
    a = await api();
    sub = a.onDidRefuseOpen((r) => refusals.push(r));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-outside-'));
    w = await generateHostileWorkspace(path.join(workspaceRoot(), 'hostile'), outside);
    const written = await writeRunSummary(new NodeFs(), w.rollouts);
    assert.ok(!written.error, written.error);
    summary = written.path;
    const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { tasks: { repeats: unknown[] }[] };
    const ti = doc.tasks.findIndex((t) => t.repeats.length > 0);
    setJsonValue(summary, ['tasks', ti, 'repeats', 0, 'test_stdout'], path.relative(path.dirname(summary), w.secret));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await a.refresh();
  });

  suiteTeardown(async () => {
    sub?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(w.dir, { recursive: true, force: true });
    fs.rmSync(w.outside, { recursive: true, force: true });
    await a.refresh();
  });

  function hostileRun(kind: string): TreeNode {
    return a.treeProvider.nodeForRun(a.store.runs().find((r) => r.kind === kind && r.root.startsWith(w.dir))!);
  }

  test('the job is listed once (not again through jobs/latest), nothing outside is listed, the links not followed are said', async () => {
    const runs = a.store.runs().filter((r) => r.kind === 'harbor-job' && (r.root.startsWith(w.dir) || r.root.startsWith(w.outside)));
    assert.deepEqual(runs.map((r) => r.root), [w.jobDir]);
    const notes = (await a.getChildren()).filter((n) => n.kind === 'message').map((n) => labelOf(a.getTreeItem(n)));
    assert.ok(notes.some((t) => t === `hostile/elsewhere is a link to ${fs.realpathSync(w.outside)}, outside ${workspaceRoot()}: not followed`), notes.join('\n'));
    assert.ok(notes.some((t) => /^hostile\/jobs\/latest is a link to .*: read there, once$/.test(t)), notes.join('\n'));
    const note = (await a.getChildren()).find((n) => n.kind === 'message')!;
    assert.equal(iconOf(a.getTreeItem(note))?.id, 'info');
  });

  test('a run summary that is a FIFO: the tree still loads, the run says it was not read (never opened for reading)', () => {
    const run = a.store.runs().find((r) => r.anchor === w.fifoSummary);
    assert.ok(run, 'the FIFO summary is a run of its own');
    assert.ok(run.problems.some((p) => p.code === 'not-a-file' && /FIFO/.test(p.message)), JSON.stringify(run.problems));
  });

  test('a test-stdout.txt linking outside the run: shown refused with the reason; clicking it opens nothing', async () => {
    const run = hostileRun('harbor-job');
    const trial = await findAttempt(run, w.trial);
    const stdout = await child(a, trial, 'test-stdout.txt');
    const item = a.getTreeItem(stdout);
    assert.equal(item.description, 'refused: outside the run');
    assert.equal(iconOf(item)?.id, 'circle-slash');
    assert.equal(item.command?.command, 'harborRuns.explainMissing');
    assert.ok(item.tooltip instanceof vscode.MarkdownString && /\*\*Not opened:\*\*/.test(item.tooltip.value), 'the tooltip says why');
    const before = refusals.length;
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    // The open command itself (a keybinding, the context menu) refuses it too.
    await vscode.commands.executeCommand('harborRuns.openItem', stdout);
    await vscode.commands.executeCommand('harborRuns.openAsJson', stdout);
    await until(() => refusals.length >= before + 3, { message: 'three refusals reported' });
    for (const r of refusals.slice(before)) {
      assert.equal(r.path, w.linkedStdout);
      assert.match(r.reason, /is a link to .*secret\.txt, outside the run's folder/);
    }
    await new Promise((res) => setTimeout(res, 500));
    assert.deepEqual(openFiles().filter((f) => f.endsWith('test-stdout.txt') || f.endsWith('secret.txt')), [], 'nothing was opened');
    if (hasDriver()) await screenshot('untrusted-refused-link');
  });

  test('a summary naming a file outside the run: the evidence is refused (not "missing"); a file of the run still opens', async () => {
    const run = a.treeProvider.nodeForRun(a.store.runs().find((r) => r.anchor === summary)!);
    const refused: TreeNode[] = [];
    const walk = async (n: TreeNode): Promise<void> => {
      for (const k of await a.getChildren(n)) {
        if (a.getTreeItem(k).description === 'refused: outside the run') refused.push(k);
        else if (k.kind === 'task' || k.kind === 'attempt') await walk(k);
      }
    };
    await walk(run);
    assert.equal(refused.length, 1);
    const before = refusals.length;
    await vscode.commands.executeCommand('harborRuns.openItem', refused[0]);
    await until(() => refusals.length > before, { message: 'the refusal is reported' });
    assert.match(refusals[before].reason, /secret\.txt is outside the run's folder/);
    // A file inside the run opens as before.
    await vscode.commands.executeCommand('harborRuns.openItem', summary);
    await until(() => openFiles().includes(summary), { message: 'the run summary opens' });
    assert.ok(!openFiles().some((f) => f.endsWith('secret.txt')));
  });

  test('Run Overview: clicking the cell of the attempt whose test-stdout links out opens nothing', async function () {
    if (!hasDriver()) { this.skip(); return; }
    const run = a.store.runs().find((r) => r.kind === 'harbor-job' && r.root === w.jobDir)!;
    const attempt = run.tasks.flatMap((t) => t.attempts).find((x) => evidenceToOpen(x) === w.linkedStdout);
    assert.ok(attempt, 'the linked test-stdout is what the cell opens');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('harborRuns.openRunOverview', run.id);
    const css = `#grid button.cell[data-attempt-id="${attempt.id.replace(/["\\]/g, '\\$&')}"]`;
    await until(async () => (await webview('untrusted-overview-grid', 'text', '#grid tbody'))?.ok === true, { timeout: 20_000, message: 'the grid renders' });
    const before = refusals.length;
    const click = await webview('untrusted-overview-click', 'click', css);
    assert.ok(click?.ok, click?.error);
    await until(() => refusals.length > before, { timeout: 15_000, message: 'the overview refuses the linked file' });
    assert.equal(refusals[before].path, w.linkedStdout);
    assert.ok(!openFiles().some((f) => f === w.linkedStdout || f.endsWith('secret.txt')), 'nothing was opened');
    await screenshot('untrusted-overview-refused');
  });

  test('harborRuns.maxFileSizeMB is the read limit: a summary over it is a Problem naming the setting, the run is still listed; raised, it reads', async () => {
    const original = fs.readFileSync(summary);
    const config = vscode.workspace.getConfiguration('harborRuns');
    try {
      const doc = JSON.parse(original.toString('utf8')) as Record<string, unknown>;
      fs.writeFileSync(summary, JSON.stringify({ ...doc, padding: 'x'.repeat(1_500_000) }));
      await config.update('maxFileSizeMB', 1, vscode.ConfigurationTarget.Workspace);
      const over = () => a.store.runs().find((r) => r.summaryPath === summary)?.problems.find((p) => /over the 1 MB read limit \(harborRuns\.maxFileSizeMB\)/.test(p.message));
      await until(async () => { await a.whenIdle(); return over(); }, { timeout: 30_000, message: 'the summary over 1 MB is a Problem' });
      assert.equal(over()!.file, summary);
      await config.update('maxFileSizeMB', undefined, vscode.ConfigurationTarget.Workspace);
      await until(async () => { await a.whenIdle(); const r = a.store.runs().find((x) => x.summaryPath === summary); return r && !over() && r.tasks.length > 0; },
        { timeout: 30_000, message: 'with the default limit the summary is read again, tasks and all' });
    } finally {
      await config.update('maxFileSizeMB', undefined, vscode.ConfigurationTarget.Workspace);
      fs.writeFileSync(summary, original);
      await a.refresh();
    }
  });

  async function findAttempt(run: TreeNode, trialName: string): Promise<TreeNode> {
    for (const t of await a.getChildren(run)) {
      if (t.kind !== 'task') continue;
      for (const x of await a.getChildren(t)) if (x.kind === 'attempt' && x.attempt.dir?.endsWith(`/${trialName}`)) return x;
    }
    throw new Error(`no attempt for trial ${trialName}`);
  }
});
